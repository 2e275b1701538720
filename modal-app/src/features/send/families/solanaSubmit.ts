/**
 * After the preview: the wallet signs the previewed transaction, the node gets it, and the signature is
 * followed until it settles. The signed bytes stay with the preview's payload, so a second submit (after a
 * lost answer, a failed broadcast) sends the very same transaction again and can never send twice.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { VersionedTransaction } from '@solana/web3.js'
import * as base58 from '../../../shared/encoding/base58.ts'
import { type Chain, type Preview, SendFailure, type WalletRequest } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import * as Errors from './solanaErrors.ts'
import * as Rpc from './solanaRpc.ts'
import { solanaTexts } from './solanaTexts.ts'

export const texts = solanaTexts.submit

const pollMs = 400
// A blockhash lasts 150 blocks, about a minute; a signature still unknown after two has not landed.
const settleMs = 120_000
const signedAnswer = S.object({ signedTransaction: S.bytes() })

type Signed = { bytes: Uint8Array; signature: string }

/** What preview hands submit: the unsigned transaction, and the wallet's signing once it has been asked. */
export class Payload {
  signing: Promise<Signed> | undefined
  constructor(
    readonly transaction: Uint8Array,
    /** The message the visitor saw simulated: what the wallet must sign unchanged. */
    readonly message: Uint8Array,
    readonly lastValidBlockHeight: number,
    /** Each instruction's program, to read which program an instruction error comes from. */
    readonly programs: readonly string[],
  ) {}
}

// settle is handed only the signature; submit notes the block height past which it can no longer land.
const expiries = new Map<string, number>()

function payloadOf(preview: Preview): Payload {
  if (preview.payload instanceof Payload) return preview.payload
  throw new TypeError('This preview was not made by the Solana family')
}

function isRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 4001
}

async function sign(
  chain: Chain,
  preview: Preview,
  payload: Payload,
  wallet: WalletRequest,
): Promise<Signed> {
  const { id } = chain.network
  let answer: unknown
  try {
    answer = await wallet({
      namespace: 'solana',
      method: 'solana:signTransaction',
      // Wallets know public clusters by their Wallet Standard names and a devnet by its CAIP-2 id.
      params: {
        address: preview.draft.from,
        transaction: payload.transaction,
        chain: Caip.standardNameOf(id) ?? id,
      },
    })
  } catch (error) {
    if (isRejection(error)) throw new SendFailure('declined', sendTexts.declined, { cause: error })
    throw error
  }
  const parsed = S.parse(signedAnswer, answer)
  if (!parsed.ok) throw new SendFailure('chain', texts.walletAnswer)
  let signed: VersionedTransaction
  try {
    signed = VersionedTransaction.deserialize(parsed.value.signedTransaction)
  } catch (error) {
    throw new SendFailure('chain', texts.walletAnswer, { cause: error })
  }
  // The visitor approved the simulated transaction; one the wallet rewrote is not what they saw.
  if (!sameBytes(signed.message.serialize(), payload.message))
    throw new SendFailure('chain', texts.walletChanged)
  const [signature] = signed.signatures
  if (!signature || signature.every((byte) => byte === 0)) throw new SendFailure('chain', texts.walletAnswer)
  return { bytes: parsed.value.signedTransaction, signature: base58.encode(signature) }
}

export async function submit(chain: Chain, preview: Preview, wallet: WalletRequest): Promise<string> {
  const payload = payloadOf(preview)
  payload.signing ??= sign(chain, preview, payload, wallet)
  const signing = payload.signing
  let signed: Signed
  try {
    signed = await signing
  } catch (error) {
    // Nothing was signed: the next submit asks the wallet again.
    if (payload.signing === signing) payload.signing = undefined
    throw error
  }
  expiries.set(signed.signature, payload.lastValidBlockHeight)
  try {
    await Rpc.sendTransaction(chain, signed.bytes)
  } catch (error) {
    // A broadcast that reached the node before (an earlier submit whose answer was lost) counts as sent.
    if (!Errors.isAlreadyProcessed(error)) throw await Errors.broadcastFailure(chain, error, payload.programs)
  }
  return signed.signature
}

/** One look at the signature; undefined while it may still land. */
async function poll(
  chain: Chain,
  signature: string,
  expiry: number | undefined,
): Promise<'confirmed' | 'failed' | undefined> {
  // The height is read first: if it is already past the expiry and the status still unknown, it never lands.
  const height = expiry === undefined ? undefined : await Rpc.blockHeight(chain)
  const status = await Rpc.signatureStatus(chain, signature)
  if (status && status.err !== null && status.err !== undefined) return 'failed'
  if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized')
    return 'confirmed'
  if (!status && height !== undefined && expiry !== undefined && height > expiry) return 'failed'
  return undefined
}

export async function settle(chain: Chain, signature: string): Promise<'confirmed' | 'failed'> {
  const expiry = expiries.get(signature)
  const deadline = Date.now() + settleMs
  for (;;) {
    try {
      const outcome = await poll(chain, signature, expiry)
      if (outcome) {
        expiries.delete(signature)
        return outcome
      }
    } catch (error) {
      // A node that is briefly away is asked again; one that stays away leaves the outcome unknown.
      if (Date.now() >= deadline) throw error
    }
    if (Date.now() >= deadline) return 'failed'
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
