/**
 * Bitcoin-family chains (`bip122:*`: Bitcoin, its test networks, Litecoin's regtest on the devnet),
 * followed block by block from the node's RPC like an EVM chain (`Follower.ts` keeps the cursor and walks
 * back to the fork point after a reorg). A block is read raw (`getblock <hash> 0`) and decoded by the
 * esplora feature's code; the outputs its inputs spend come from the blocks read just before (kept in
 * memory) or else from `getrawtransaction`, which for a confirmed transaction needs the node's `-txindex`
 * (the devnet runs with it). Transfers and the fee per address: `bip122Blocks.ts`.
 */
import { bech32Start, bitcoinNetworkOf, bitcoinNetworks } from '@airlock/bridge-protocol/BitcoinNetworks'
import type { Network } from 'bitcoinjs-lib'
import type { Chain } from '../../../Config.ts'
import * as Node from '../../esplora/Node.ts'
import * as Script from '../../esplora/Script.ts'
import * as EsploraTransaction from '../../esplora/Transaction.ts'
import type { Block, Family, Source } from '../Source.ts'
import * as Bip122Blocks from './bip122Blocks.ts'

type SourceOptions = {
  /** Blocks read per HTTP request: a mainnet block is 1–2 MB of hex. @default 10 */
  blocksPerRequest?: number
  /** Transactions whose outputs are kept in memory for the blocks that spend them next. @default 50_000 */
  keptTransactions?: number
}

export const family: Family = {
  namespace: 'bip122',
  account,
  source: (chain) => source(chain),
}

/**
 * bitcoinjs parameters of each network Airlock knows: only the address fields matter to an index (the
 * esplora feature builds the same from the same table).
 */
const networks: Network[] = [...new Set(Object.values(bitcoinNetworks))].map(Script.networkFrom)

/** A Bitcoin address of a known network: bech32 in lowercase (its canonical form), Base58Check as written. */
function account(address: string): string | undefined {
  const lower = address.toLowerCase()
  const bech32 = bech32Start.test(address)
  // BIP-173: a bech32 address is all lowercase or all uppercase, never mixed.
  if (bech32 && address !== lower && address !== address.toUpperCase()) return undefined
  const normal = bech32 ? lower : address
  return networks.some((network) => Script.fromAddress(normal, network)) ? normal : undefined
}

/**
 * @throws when the chain is not a Bitcoin network Airlock can tell the addresses of
 * @example
 * const blocks = await Bip122.family.source(chain).blocks(1, 10)
 */
function source(chain: Chain, options: SourceOptions = {}): Source {
  const known = bitcoinNetworkOf(chain.id.slice('bip122:'.length))
  if (!known) throw new Error(`${chain.id} is not a Bitcoin network Airlock knows the addresses of`)
  const network = Script.networkFrom(known)
  const node = Node.create({ rpcUrl: chain.rpcUrl, chainId: chain.id })
  const perRequest = options.blocksPerRequest ?? 10
  const kept = options.keptTransactions ?? 50_000
  const outputs = new Map<string, Bip122Blocks.Output[]>()
  // Outputs of the transactions read last, which the next blocks are most likely to spend.
  const keep = (tx: EsploraTransaction.Decoded) => {
    outputs.set(tx.txid, tx.vout)
    if (outputs.size > kept) outputs.delete(outputs.keys().next().value ?? '')
  }

  const hashAt = async (height: number) => {
    const [hash] = await node.batch([['getblockhash', [height]]])
    return typeof hash === 'string' ? hash : gone(hash)
  }

  // The outputs these blocks create and spend: theirs, those kept from earlier blocks, the rest from the node.
  const coinsOf = async (blocks: Bip122Blocks.Decoded[]) => {
    const coins = new Map<string, Bip122Blocks.Output[]>()
    for (const block of blocks) for (const tx of block.txs) coins.set(tx.txid, tx.vout)
    const missing = new Set<string>()
    for (const { txid } of blocks.flatMap(Bip122Blocks.spends)) {
      const known = coins.get(txid) ?? outputs.get(txid)
      if (known) coins.set(txid, known)
      else missing.add(txid)
    }
    const txids = [...missing]
    const raws = await node.batch(txids.map((txid) => ['getrawtransaction', [txid]] as const))
    for (const [i, raw] of raws.entries()) {
      if (typeof raw !== 'string')
        throw new Error(`${chain.id}: the node does not give transaction ${txids[i]}; it needs -txindex`, {
          cause: raw,
        })
      const tx = EsploraTransaction.fromHex(raw)
      coins.set(tx.txid, tx.vout)
    }
    return (txid: string, vout: number): Bip122Blocks.Output => {
      const coin = coins.get(txid)?.[vout]
      if (!coin) throw new Error(`${chain.id}: output ${txid}:${vout} is unknown`)
      return coin
    }
  }

  const read = async (heights: number[]): Promise<Block[]> => {
    const hashes = await node.batch(heights.map((height) => ['getblockhash', [height]] as const))
    const present: string[] = []
    for (const hash of hashes) {
      if (typeof hash !== 'string') {
        gone(hash)
        break
      }
      present.push(hash)
    }
    const raws = await node.batch(present.map((hash) => ['getblock', [hash, 0]] as const))
    const decoded: Bip122Blocks.Decoded[] = []
    for (const [i, raw] of raws.entries()) {
      // A block gone between the two calls (a reorg): the blocks before it are still a chain.
      if (typeof raw !== 'string') break
      decoded.push(Bip122Blocks.decode(raw, heights[i] ?? -1))
    }
    const coins = await coinsOf(decoded)
    for (const block of decoded) for (const tx of block.txs) keep(tx)
    return decoded.map((block) => Bip122Blocks.read(block, coins, network))
  }

  return {
    chainId: chain.id,
    head: () => node.call<number>('getblockcount'),
    hashAt,
    async blocks(from, to) {
      const blocks: Block[] = []
      for (let n = from; n <= to; n += perRequest) {
        const heights = Array.from({ length: Math.min(perRequest, to - n + 1) }, (_, k) => n + k)
        const group = await read(heights)
        blocks.push(...group)
        if (group.length < heights.length) break
      }
      return blocks
    },
    // Bitcoin moves only its own coin: there are no tokens to describe.
    describe: async () => [],
    close: () => node.close(),
  }
}

/** Undefined for a height past the node's tip (-8); any other failure is thrown. */
function gone(answer: unknown): undefined {
  if (answer instanceof Node.NodeError && answer.code === -8) return undefined
  throw answer
}
