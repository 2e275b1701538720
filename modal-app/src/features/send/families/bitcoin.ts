/**
 * Send on Bitcoin-family networks (`bip122`): coins from the API's Esplora, largest first; a PSBT the
 * visitor reviews input by input and the wallet signs (`bitcoin:signTransaction`); finalized and broadcast
 * here, then followed until it is mined. Native segwit senders, and nested segwit and taproot ones whose
 * wallet shares the public key. No curve library: building, finalizing and extracting need none.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { type Network as Params, Psbt, Transaction } from 'bitcoinjs-lib'
import type { Network } from '../../../shared/Network.ts'
import {
  type Chain,
  type Draft,
  type Family,
  type Preview,
  SendFailure,
  type WalletRequest,
} from '../Family.ts'
import { sendTexts } from '../texts.ts'
import {
  type Coin,
  dustOf,
  formatCoins,
  kindOf,
  maxOf,
  outputScript,
  paramsOf,
  plan,
  type Spender,
  spenderOf,
} from './bitcoinCoins.ts'
import { broadcast, coinsOf, nextBlockRate, settle } from './bitcoinEsplora.ts'
import { bitcoinTexts } from './bitcoinTexts.ts'

export { type FeeRate, feeRates } from './bitcoinEsplora.ts'

type Output = { script: Uint8Array; value: bigint }

/**
 * What submit signs: the PSBT as previewed and what it must pay. Once signed, the raw transaction stays
 * here, so a second submit broadcasts the same bytes instead of asking the wallet again.
 */
class Signable {
  signed: Promise<string> | undefined
  constructor(
    readonly psbt: Uint8Array,
    readonly inputs: number,
    readonly outputs: readonly Output[],
    /** Known before signing: segwit signatures are not part of it. */
    readonly txid: string,
    readonly params: Params,
  ) {}
}

/** The largest output script Send pays (P2TR, P2WSH), for a max whose receiver is not known yet. */
const largestOutputScript = 34

const invalid = (text: string) => new SendFailure('invalid', text)

function paramsFor(network: Network): Params {
  const params = paramsOf(network)
  if (!params) throw invalid(sendTexts.unsupportedChain)
  return params
}

function scriptOf(address: string, network: Network, params: Params): Uint8Array {
  const script = outputScript(address, params)
  if (!script) throw invalid(sendTexts.invalidAddress(network.name))
  return script
}

function nativeOnly(draft: Pick<Draft, 'asset'>) {
  if (draft.asset.address !== undefined) throw invalid(sendTexts.unknownToken)
}

async function rateOf(chain: Chain, draft: Pick<Draft, 'feeRate'>): Promise<number> {
  if (draft.feeRate === undefined) return nextBlockRate(chain)
  if (!Number.isFinite(draft.feeRate) || draft.feeRate <= 0) throw invalid(bitcoinTexts.invalidFeeRate)
  return Math.max(1, draft.feeRate)
}

function spenderFor(draft: Draft, network: Network, params: Params): Spender {
  const spender = spenderOf(scriptOf(draft.from, network, params), draft.publicKey)
  if (!('unspendable' in spender)) return spender
  throw invalid(
    spender.unspendable === 'kind' ? bitcoinTexts.unsupportedSender : bitcoinTexts.publicKeyNeeded,
  )
}

/** The PSBT input of a coin: what the wallet needs to sign it and the visitor to see what it is worth. */
function inputOf(coin: Coin, spender: Spender) {
  const witnessUtxo = { script: spender.script, value: coin.value }
  const base = { hash: coin.txid, index: coin.vout, witnessUtxo }
  if (spender.kind === 'p2sh-p2wpkh') return { ...base, redeemScript: spender.redeemScript }
  if (spender.kind === 'p2tr') return { ...base, tapInternalKey: spender.tapInternalKey }
  return base
}

/** The id of the PSBT's transaction once signed: nested segwit's scriptSig is known, the rest is witness. */
function txidOf(psbt: Psbt, spender: Spender): string {
  const tx = new Transaction()
  tx.version = psbt.version
  tx.locktime = psbt.locktime
  const scriptSig =
    spender.kind === 'p2sh-p2wpkh'
      ? Uint8Array.of(spender.redeemScript.length, ...spender.redeemScript)
      : new Uint8Array()
  for (const input of psbt.txInputs) tx.addInput(input.hash, input.index, input.sequence, scriptSig)
  for (const output of psbt.txOutputs) tx.addOutput(output.script, output.value)
  return tx.getId()
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i])

/** Whether the wallet's PSBT still pays exactly what was previewed. */
function paysAsBuilt(psbt: Psbt, payload: Signable): boolean {
  const outputs = psbt.txOutputs
  return (
    psbt.inputCount === payload.inputs &&
    outputs.length === payload.outputs.length &&
    outputs.every((output, i) => {
      const built = payload.outputs[i]
      return built !== undefined && output.value === built.value && sameBytes(output.script, built.script)
    })
  )
}

function finalizeInput(psbt: Psbt, index: number) {
  const input = psbt.data.inputs[index]
  if (!input || input.finalScriptWitness || input.finalScriptSig) return
  if (input.tapKeySig) {
    // bitcoinjs would first check the output key on the curve (an ECC library); a key-path spend's witness
    // is the signature alone.
    const signature = input.tapKeySig
    psbt.data.updateInput(index, { finalScriptWitness: Uint8Array.of(1, signature.length, ...signature) })
    psbt.data.clearFinalizedInput(index)
    return
  }
  psbt.finalizeInput(index)
}

/** The wallet's PSBT as a raw transaction, once it is certain to be the one previewed, fully signed. */
function extract(bytes: Uint8Array, payload: Signable): string {
  let psbt: Psbt
  try {
    psbt = Psbt.fromBuffer(bytes, { network: payload.params })
  } catch (error) {
    throw new SendFailure('chain', bitcoinTexts.notSigned, { cause: error })
  }
  if (!paysAsBuilt(psbt, payload)) throw new SendFailure('chain', bitcoinTexts.walletChanged)
  let tx: Transaction
  try {
    for (let index = 0; index < psbt.inputCount; index++) finalizeInput(psbt, index)
    // The fee was checked when it was built; bitcoinjs's ceiling would refuse a rate the visitor chose.
    tx = psbt.extractTransaction(true)
  } catch (error) {
    throw new SendFailure('chain', bitcoinTexts.notSigned, { cause: error })
  }
  // Inputs, version, locktime and sequences: anything else the wallet changed changes the id.
  if (tx.getId() !== payload.txid) throw new SendFailure('chain', bitcoinTexts.walletChanged)
  return tx.toHex()
}

const signedShape = S.object({ signedPsbt: S.bytes(4 << 20) })

const isDeclined = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 4001

async function sign(chain: Chain, preview: Preview, payload: Signable, wallet: WalletRequest) {
  let answer: unknown
  try {
    answer = await wallet({
      namespace: 'bip122',
      method: 'bitcoin:signTransaction',
      params: {
        psbt: payload.psbt,
        inputsToSign: [
          {
            address: preview.draft.from,
            signingIndexes: Array.from({ length: payload.inputs }, (_, i) => i),
          },
        ],
        // Wallets name chains `bitcoin:mainnet`; one without such a name (the devnet's) by its CAIP-2 id.
        chain: Caip.standardNameOf(chain.network.id) ?? chain.network.id,
      },
    })
  } catch (error) {
    if (isDeclined(error)) throw new SendFailure('declined', sendTexts.declined, { cause: error })
    throw error
  }
  const parsed = S.parse(signedShape, answer)
  if (!parsed.ok) throw new SendFailure('chain', bitcoinTexts.notSigned, { cause: new Error(parsed.message) })
  return extract(parsed.value.signedPsbt, payload)
}

export const family: Family = {
  namespace: 'bip122',

  checkAddress(address, network) {
    const params = paramsOf(network)
    return params && outputScript(address, params) ? undefined : sendTexts.invalidAddress(network.name)
  },

  async max(chain, draft) {
    nativeOnly(draft)
    const { network } = chain
    const params = paramsFor(network)
    const kind = kindOf(scriptOf(draft.from, network, params))
    if (!kind) throw invalid(bitcoinTexts.unsupportedSender)
    const receiver = draft.to === undefined ? undefined : outputScript(draft.to, params)
    const [coins, rate] = await Promise.all([coinsOf(chain, draft.from), rateOf(chain, draft)])
    return maxOf(coins, rate, kind, receiver?.length ?? largestOutputScript)
  },

  async preview(chain, draft) {
    nativeOnly(draft)
    const { network } = chain
    const { symbol, decimals } = network.nativeCurrency
    const coins = (value: bigint) => `${formatCoins(value, decimals)} ${symbol}`
    const params = paramsFor(network)
    const receiver = scriptOf(draft.to, network, params)
    const spender = spenderFor(draft, network, params)
    const dust = dustOf(receiver, params)
    if (draft.amount < dust) throw invalid(bitcoinTexts.dust(coins(dust)))
    const [utxos, rate] = await Promise.all([coinsOf(chain, draft.from), rateOf(chain, draft)])
    const chosen = plan({
      coins: utxos,
      amount: draft.amount,
      rate,
      kind: spender.kind,
      receiver,
      change: spender.script,
      params,
    })
    if (!chosen) throw new SendFailure('funds', sendTexts.insufficientFunds)

    const outputs: Output[] = [{ script: receiver, value: draft.amount }]
    if (chosen.change > 0n) outputs.push({ script: spender.script, value: chosen.change })
    const psbt = new Psbt({ network: params })
    for (const coin of chosen.inputs) psbt.addInput(inputOf(coin, spender))
    for (const output of outputs) psbt.addOutput(output)
    const total = chosen.inputs.reduce((sum, coin) => sum + coin.value, 0n)
    const fee = total - outputs.reduce((sum, output) => sum + output.value, 0n)
    const asset = draft.asset
    return {
      draft,
      fee,
      changes: [
        { address: draft.from, asset, delta: -(draft.amount + fee) },
        { address: draft.to, asset, delta: draft.amount },
      ],
      details: [
        { label: bitcoinTexts.inputs, value: bitcoinTexts.coins(chosen.inputs.length, coins(total)) },
        { label: bitcoinTexts.output, value: bitcoinTexts.payment(draft.to, coins(draft.amount)) },
        ...(chosen.change > 0n
          ? [{ label: bitcoinTexts.change, value: bitcoinTexts.payment(draft.from, coins(chosen.change)) }]
          : []),
        { label: sendTexts.feeRate, value: bitcoinTexts.satPerVbyte(rate) },
        { label: bitcoinTexts.virtualSize, value: `${chosen.vsize} vB` },
      ],
      payload: new Signable(psbt.toBuffer(), chosen.inputs.length, outputs, txidOf(psbt, spender), params),
    }
  },

  async submit(chain, preview, wallet) {
    const payload = preview.payload
    if (!(payload instanceof Signable)) throw new TypeError('This preview was not made by the Bitcoin family')
    // Two submits at once share one signature; a failed one (declined, refused) may be tried again.
    payload.signed ??= sign(chain, preview, payload, wallet).catch((error: unknown) => {
      payload.signed = undefined
      throw error
    })
    return broadcast(chain, await payload.signed, payload.txid)
  },

  settle: (chain, txid) => settle(chain, txid),
}
