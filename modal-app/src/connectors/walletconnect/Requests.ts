/**
 * Requests in the host providers' terms (EIP-1193, Wallet Standard) as WalletConnect's namespace methods,
 * and the wallets' answers back in the shapes the dApp was promised. Wallets answer base58 and base64 where
 * Wallet Standard carries bytes.
 */
import { type Caip, Errors, type Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import * as base58 from '../../shared/encoding/base58.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import { texts } from '../../shared/texts.ts'

type Call = { method: string; params: unknown; result: (answer: unknown) => unknown }

/** The WalletConnect form of a provider request, and how to read its answer. */
export function toWalletConnect(request: Schema.Request, chainId: Caip.ChainId): Call {
  if (request.namespace === 'eip155')
    return { method: request.method, params: request.params ?? [], result: (answer) => answer }
  switch (request.method) {
    case 'solana:signMessage': {
      const { address, message } = request.params
      return {
        method: 'solana_signMessage',
        params: { message: base58.encode(message), pubkey: address },
        result: (answer) => ({
          signedMessage: message,
          signature: base58.decode(read(answer, solanaSignature, request.method).signature),
        }),
      }
    }
    case 'solana:signTransaction':
      return {
        method: 'solana_signTransaction',
        params: { transaction: base64.encode(request.params.transaction) },
        result: (answer) => {
          const signed = read(answer, solanaTransaction, request.method).transaction
          // Wallets that answer only a signature leave the dApp without the signed bytes it asked for.
          if (!signed) throw new Errors.InternalError(texts.errors.unexpectedAnswer(request.method))
          return { signedTransaction: fromBase64(signed) }
        },
      }
    case 'solana:signAndSendTransaction':
      return {
        method: 'solana_signAndSendTransaction',
        params: {
          transaction: base64.encode(request.params.transaction),
          sendOptions: request.params.options ?? {},
        },
        result: (answer) => ({
          signature: base58.decode(read(answer, solanaSignature, request.method).signature),
        }),
      }
    case 'bitcoin:signMessage': {
      const { address, message } = request.params
      return {
        method: 'signMessage',
        params: { account: address, address, message: utf8(message), protocol: 'ecdsa' },
        result: (answer) => ({
          signedMessage: message,
          signature: fromBase64(read(answer, bitcoinSignature, request.method).signature),
        }),
      }
    }
    case 'bitcoin:signTransaction': {
      const { psbt, inputsToSign } = request.params
      return {
        method: 'signPsbt',
        params: {
          account: inputsToSign[0]?.address,
          psbt: base64.encode(psbt),
          signInputs: inputsToSign.flatMap(({ address, signingIndexes, sigHash }) =>
            signingIndexes.map((index) => ({
              address,
              index,
              ...(sigHash === undefined ? {} : { sighashTypes: [sigHash] }),
            })),
          ),
          broadcast: false,
        },
        result: (answer) => ({ signedPsbt: fromBase64(read(answer, signedPsbt, request.method).psbt) }),
      }
    }
  }
  throw new Errors.UnsupportedMethodError(
    `${request.method} is not available through WalletConnect on ${chainId}.`,
  )
}

const solanaSignature = S.object({ signature: S.string(200, 1) })
const solanaTransaction = S.object({ transaction: S.optional(S.string(1_500_000, 1)) })
const bitcoinSignature = S.object({ signature: S.string(1000, 1) })
const signedPsbt = S.object({ psbt: S.string(1_500_000, 1) })

function read<T>(answer: unknown, shape: S.Shape<T>, method: string): T {
  const parsed = S.parse(shape, answer)
  if (!parsed.ok) throw new Errors.InternalError(texts.errors.unexpectedAnswer(method))
  return parsed.value
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Errors.InvalidParamsError(texts.walletConnect.notText)
  }
}

/** Bytes from a wallet's base64; a wallet that answers something else gets the fallback error. */
function fromBase64(text: string): Uint8Array {
  try {
    return base64.decode(text)
  } catch {
    throw new Errors.InternalError(texts.errors.fallback)
  }
}
