/**
 * A Bitcoin-family chain as Esplora tells it, over a Bitcoin Core-style node (Litecoin Core on the devnet)
 * that has no address index: a {@link Scanner} keeps an in-memory {@link Index} level with the node, by
 * polling in the background and on every read, so an answer is never older than its request.
 */
import type { Network } from 'bitcoinjs-lib'
import { HttpError } from '../../http/errors.ts'
import { type Entry, Index, type Stats } from './Index.ts'
import { messages } from './messages.ts'
import * as Node from './Node.ts'
import * as Scanner from './Scanner.ts'
import * as Script from './Script.ts'
import * as Transaction from './Transaction.ts'

export type ExplorerOptions = {
  /** The node's JSON-RPC, credentials in the URL: `http://user:password@127.0.0.1:19443`. */
  rpcUrl: string
  /** bitcoinjs-lib parameters of the chain: which addresses are its own. */
  network: Network
  /** CAIP-2 id (`bip122:<genesis hash, 32 digits>`); a node whose genesis block differs is refused. */
  chainId: string
  /** Background sync period; 0 syncs on reads only. @default 2_000 */
  pollMs?: number
  /** Per RPC call. @default 10_000 */
  timeoutMs?: number
}

/** Esplora's `GET /address/:address`. */
export type AddressInfo = { address: string; chain_stats: StatsJson; mempool_stats: StatsJson }
type StatsJson = { [K in keyof Stats]: number }

/** An entry of Esplora's `GET /address/:address/utxo`. */
export type Utxo = { txid: string; vout: number; status: Transaction.Status; value: number }

export type Explorer = {
  chainId: string
  network: Network
  address(address: string): Promise<AddressInfo>
  utxos(address: string): Promise<Utxo[]>
  /** Newest first: up to 50 mempool transactions, then up to 25 confirmed ones (after `afterTxid` if given). */
  txs(
    address: string,
    part?: { mempool?: boolean; chain?: boolean; afterTxid?: string },
  ): Promise<Transaction.EsploraTx[]>
  tx(txid: string): Promise<Transaction.EsploraTx | undefined>
  /** The node's verdict on a raw transaction: its txid, or a {@link Node.NodeError} with the node's reason. */
  broadcast(rawHex: string): Promise<string>
  tip(): Promise<{ height: number; hash: string }>
  /** Target blocks → sat/vB. */
  feeEstimates(): Promise<Record<string, number>>
  /**
   * Satoshis of `address`: confirmed, and the mempool's net change (negative while a spend is pending).
   * @throws {HttpError} 400 for an address of another network
   */
  balance(address: string): Promise<{ confirmed: bigint; unconfirmed: bigint }>
  /** Stops polling and closes the node's connections. */
  close(): void
}

/** Esplora's targets for `GET /fee-estimates`. */
const feeTargets = [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008]
const mempoolPage = 50
const chainPage = 25
/** BTC per kvB (the node's unit) → sat/vB, to Esplora's three decimals. */
const toSatPerVbyte = (btcPerKvB: number) => Math.round(btcPerKvB * 1e8) / 1e3

/**
 * @example
 * const explorer = Explorer.create({ rpcUrl, network: Regtest.network, chainId: 'bip122:530827f38f93b43ed12af0b3ad25a288' })
 * const { confirmed } = await explorer.balance('rltc1q…')
 */
export function create(options: ExplorerOptions): Explorer {
  const { network, chainId } = options
  const node = Node.create({ rpcUrl: options.rpcUrl, chainId, timeoutMs: options.timeoutMs })
  const index = new Index()
  const scanner = Scanner.create({ node, index, genesisPrefix: chainId.split(':')[1] })
  const pollMs = options.pollMs ?? 2_000
  // Errors here surface on the next read, which syncs again and throws them to its caller.
  const poll = () => void scanner.sync().catch(() => undefined)
  const timer = pollMs > 0 ? setInterval(poll, pollMs) : undefined
  timer?.unref()
  if (timer) poll()

  const scriptOf = (address: string): string => {
    const script = Script.fromAddress(address, network)
    if (!script) throw new HttpError(400, messages.invalidAddress(chainId, address))
    return Buffer.from(script).toString('hex')
  }
  const render = (entry: Entry) => Transaction.render({ ...entry, network })

  return {
    chainId,
    network,
    async address(address) {
      const script = scriptOf(address)
      await scanner.sync()
      const { chain, mempool } = index.stats(script)
      return { address, chain_stats: statsJson(chain), mempool_stats: statsJson(mempool) }
    },
    async utxos(address) {
      const script = scriptOf(address)
      await scanner.sync()
      return index.utxos(script).map((utxo) => ({
        txid: utxo.txid,
        vout: utxo.vout,
        status: Transaction.statusOf(utxo.block),
        value: Number(utxo.value),
      }))
    },
    async txs(address, part = { mempool: true, chain: true }) {
      const script = scriptOf(address)
      await scanner.sync()
      const history = index.history(script)
      const mempool = part.mempool ? history.mempool.slice(0, mempoolPage) : []
      let chain = part.chain ? history.chain : []
      if (part.afterTxid) {
        const seen = chain.findIndex((entry) => entry.tx.txid === part.afterTxid)
        chain = seen === -1 ? [] : chain.slice(seen + 1)
      }
      return [...mempool, ...chain.slice(0, chainPage)].map(render)
    },
    async tx(txid) {
      await scanner.sync()
      const entry = index.entry(txid)
      return entry && render(entry)
    },
    broadcast: (rawHex) => node.call<string>('sendrawtransaction', [rawHex]),
    async tip() {
      await scanner.sync()
      const tip = index.tip
      if (!tip) throw new Error(`${chainId}: the node has no blocks`)
      return { height: tip.height, hash: tip.hash }
    },
    async feeEstimates() {
      const [minimum, ...estimates] = await node.batch([
        ['getmempoolinfo', []],
        ...feeTargets.map((target) => ['estimatesmartfee', [target]] as const),
      ])
      // Where the node cannot estimate (regtest, a fresh node: too few blocks with fees seen), each target
      // answers the mempool's minimum fee rate, the least the node relays.
      const floor = toSatPerVbyte(feeRateOf(minimum, 'mempoolminfee') ?? 1e-5)
      return Object.fromEntries(
        feeTargets.map((target, i) => {
          const rate = feeRateOf(estimates[i], 'feerate')
          return [String(target), rate === undefined ? floor : Math.max(floor, toSatPerVbyte(rate))]
        }),
      )
    },
    async balance(address) {
      const script = scriptOf(address)
      await scanner.sync()
      return index.balance(script)
    },
    close() {
      if (timer) clearInterval(timer)
      node.close()
    },
  }
}

function statsJson(stats: Stats): StatsJson {
  return {
    ...stats,
    funded_txo_sum: Number(stats.funded_txo_sum),
    spent_txo_sum: Number(stats.spent_txo_sum),
  }
}

function feeRateOf(answer: unknown, field: string): number | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const value: unknown = (answer as Record<string, unknown>)[field]
  return typeof value === 'number' && value > 0 ? value : undefined
}
