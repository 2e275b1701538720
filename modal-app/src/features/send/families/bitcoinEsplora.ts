/**
 * What Send reads and writes through the API's Esplora: the sender's coins, fee estimates, a broadcast that
 * may be repeated, and how a transaction stands. Each answer is parsed once, here.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { type Chain, RpcError, SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import type { Coin } from './bitcoinCoins.ts'
import { bitcoinTexts } from './bitcoinTexts.ts'

const integer = (min: number, max: number) =>
  S.check(S.number(min, max), Number.isInteger, `expected an integer in ${min}..${max}`)
const txidPattern = /^[0-9a-f]{64}$/

// Esplora answers at most a few thousand coins for one address (mempool.space: 500); more is not an answer.
const utxosShape = S.array(
  S.object({
    txid: S.string(64, 64, txidPattern),
    vout: integer(0, 0xffff_ffff),
    value: integer(0, Number.MAX_SAFE_INTEGER),
  }),
  10_000,
)
const estimatesShape = S.record(S.number(0, 1e9), 100)
const statusShape = S.object({ confirmed: S.boolean })

function parse<T>(chain: Chain, path: string, text: string, shape: S.Shape<T>): T {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {}
  const parsed = S.parse(shape, value)
  if (parsed.ok) return parsed.value
  // An answer of another shape is an API that does not work: to the visitor, one that cannot be reached.
  throw new SendFailure('unavailable', sendTexts.unavailable(chain.network.name), {
    cause: new Error(`${path}: ${parsed.message}`),
  })
}

async function read<T>(chain: Chain, path: string, shape: S.Shape<T>): Promise<T> {
  let text: string
  try {
    text = await chain.esplora(path)
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    throw new SendFailure('chain', bitcoinTexts.answered(chain.network.name, error.message), { cause: error })
  }
  return parse(chain, path, text, shape)
}

/** The address's unspent outputs, those still in the mempool included. */
export async function coinsOf(chain: Chain, address: string): Promise<Coin[]> {
  const utxos = await read(chain, `/address/${encodeURIComponent(address)}/utxo`, utxosShape)
  return utxos.map(({ txid, vout, value }) => ({ txid, vout, value: BigInt(value) }))
}

/** The rate for confirmation within `target` blocks: its own, else the nearest faster one's; at least 1. */
function rateFor(estimates: Record<string, number>, target: number): number {
  const targets = Object.keys(estimates)
    .map(Number)
    .filter((key) => Number.isInteger(key) && key > 0)
    .sort((a, b) => a - b)
  const chosen = targets.filter((key) => key <= target).at(-1) ?? targets[0]
  return Math.max(1, chosen === undefined ? 1 : (estimates[String(chosen)] ?? 1))
}

/** The fee rate for the next block, in sat/vB. */
export async function nextBlockRate(chain: Chain): Promise<number> {
  return rateFor(await read(chain, '/fee-estimates', estimatesShape), 1)
}

export type FeeRate = { label: string; satPerVbyte: number }

/**
 * The fee rates a visitor may choose from: the next block, about an hour (6 blocks), about a day (144).
 * @example await feeRates(chain) // [{ label: 'Fast', satPerVbyte: 12.5 }, { label: 'Normal', … }, { label: 'Slow', … }]
 */
export async function feeRates(chain: Chain): Promise<FeeRate[]> {
  const estimates = await read(chain, '/fee-estimates', estimatesShape)
  return [
    { label: bitcoinTexts.fast, satPerVbyte: rateFor(estimates, 1) },
    { label: bitcoinTexts.normal, satPerVbyte: rateFor(estimates, 6) },
    { label: bitcoinTexts.slow, satPerVbyte: rateFor(estimates, 144) },
  ]
}

/** Where a transaction is: mined, waiting in the mempool, or unknown to the node (never sent, or dropped). */
export async function statusOf(chain: Chain, txid: string): Promise<'confirmed' | 'pending' | 'unknown'> {
  const path = `/tx/${txid}/status`
  let text: string
  try {
    text = await chain.esplora(path)
  } catch (error) {
    if (error instanceof RpcError && error.code === 404) return 'unknown'
    throw error
  }
  return parse(chain, path, text, statusShape).confirmed ? 'confirmed' : 'pending'
}

// Esplora's and Bitcoin Core's words for a transaction the node already has: `txn-already-in-mempool`,
// `txn-already-known`, `Transaction already in block chain`.
const alreadyKnown = /already[ -](?:in|known)\b/i

/**
 * Sends the raw transaction; answers its id. A node that already has it (a second submit, or an answer
 * lost on the way back) counts as success: the same bytes are the same transaction.
 */
export async function broadcast(chain: Chain, hex: string, txid: string): Promise<string> {
  let answered: string
  try {
    answered = (await chain.esplora('/tx', hex)).trim()
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    if (alreadyKnown.test(error.message) || (await known(chain, txid))) return txid
    throw new SendFailure('chain', bitcoinTexts.refused(chain.network.name, error.message), { cause: error })
  }
  if (answered !== txid) throw new SendFailure('chain', bitcoinTexts.otherTxid(answered))
  return txid
}

/** Whether the node has the transaction; a refusal's reason stands when this cannot tell. */
async function known(chain: Chain, txid: string): Promise<boolean> {
  try {
    return (await statusOf(chain, txid)) !== 'unknown'
  } catch {
    return false
  }
}

export type SettleOptions = {
  /** @default 120_000 */
  timeoutMs?: number
  /** @default 1_000 */
  everyMs?: number
}

/**
 * Asks how the transaction stands every second until it is mined: 'confirmed'. Still unknown to the node
 * at the end (dropped, or replaced by a spend of the same coins): 'failed'. Still waiting in the mempool,
 * or the API unreachable: throws, since it may yet confirm.
 */
export async function settle(
  chain: Chain,
  txid: string,
  options: SettleOptions = {},
): Promise<'confirmed' | 'failed'> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  for (;;) {
    let status: Awaited<ReturnType<typeof statusOf>> | undefined
    try {
      status = await statusOf(chain, txid)
    } catch (error) {
      // Polling goes on through a passing outage: the transaction was sent, whatever the API says now.
      if (!(error instanceof SendFailure || error instanceof RpcError)) throw error
    }
    if (status === 'confirmed') return 'confirmed'
    if (Date.now() >= deadline) {
      if (status === 'unknown') return 'failed'
      throw new SendFailure('chain', bitcoinTexts.unconfirmed(txid))
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 1_000))
  }
}
