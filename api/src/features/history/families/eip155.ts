/**
 * EVM chains (`eip155:*`). A block's transactions come with their receipts (`eth_getBlockReceipts`, one
 * call per block, many blocks per HTTP request): the receipt says whether the transaction failed, and
 * carries the logs the token transfers are read from — ERC-20 and ERC-721 `Transfer`, ERC-1155
 * `TransferSingle` and `TransferBatch`. A separate `eth_getLogs` per range would fetch those logs a second
 * time, so none is made. Native value moved by internal calls needs traces, which this source does not read.
 */
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import { decodeAbiParameters, hexToString } from 'viem'
import type { Chain } from '../../../Config.ts'
import * as JsonRpc from '../JsonRpc.ts'
import type { AssetInfo, Block, Family, Source } from '../Source.ts'
import { list, parseBlock, quantity, type RawBlock, type RawReceipt, word } from './eip155Receipts.ts'

type SourceOptions = {
  /** Blocks read per HTTP request (two calls each). @default 10 */
  blocksPerRequest?: number
  /** HTTP requests in flight at once while catching up. @default 4 */
  parallel?: number
  /** @default 10_000 */
  timeoutMs?: number
}

export const family: Family = {
  namespace: 'eip155',
  account: (address) =>
    isEvmAddress(address, { strict: true }) ? `0x${address.replace(/^0x/, '').toLowerCase()}` : undefined,
  source: (chain) => source(chain),
}

/**
 * @example
 * const blocks = await Eip155.family.source(chain).blocks(1, 100)
 */
function source(chain: Chain, options: SourceOptions = {}): Source {
  const rpc = JsonRpc.create(chain.rpcUrl, { timeoutMs: options.timeoutMs })
  const perRequest = options.blocksPerRequest ?? 10
  const parallel = options.parallel ?? 4
  // Nodes without eth_getBlockReceipts get one eth_getTransactionReceipt per transaction instead.
  let blockReceipts = true

  const receiptsOf = async (block: RawBlock, answer: unknown): Promise<RawReceipt[]> => {
    if (blockReceipts && !(answer instanceof JsonRpc.RpcFailure)) return list(answer) as RawReceipt[]
    if (answer instanceof JsonRpc.RpcFailure && answer.code === -32601) blockReceipts = false
    else if (answer instanceof JsonRpc.RpcFailure) throw answer
    const answers = await rpc.batch(block.transactions.map((tx) => ['eth_getTransactionReceipt', [tx.hash]]))
    return answers.map((receipt) => {
      if (receipt instanceof JsonRpc.RpcFailure) throw receipt
      return receipt as RawReceipt
    })
  }

  const read = async (numbers: number[]): Promise<Block[]> => {
    const answers = await rpc.batch(
      numbers.flatMap((n): JsonRpc.Call[] => [
        ['eth_getBlockByNumber', [hex(n), true]],
        ['eth_getBlockReceipts', [hex(n)]],
      ]),
    )
    const blocks: Block[] = []
    for (let i = 0; i < numbers.length; i++) {
      const raw = answers[2 * i]
      if (raw instanceof JsonRpc.RpcFailure) throw raw
      if (!raw) break
      const block = raw as RawBlock
      blocks.push(parseBlock(block, await receiptsOf(block, answers[2 * i + 1])))
    }
    return blocks
  }

  return {
    chainId: chain.id,
    head: async () => quantity(await rpc.call('eth_blockNumber', [])),
    async hashAt(height) {
      const block = (await rpc.call('eth_getBlockByNumber', [hex(height), false])) as RawBlock | null
      return block ? word(block.hash) : undefined
    },
    async blocks(from, to) {
      const groups: number[][] = []
      for (let n = from; n <= to; n += perRequest)
        groups.push(Array.from({ length: Math.min(perRequest, to - n + 1) }, (_, k) => n + k))
      const read_ = await inParallel(groups, parallel, read)
      // A group cut short (past the head) ends the range: later groups cannot continue it.
      const blocks: Block[] = []
      for (const [i, group] of read_.entries()) {
        blocks.push(...group)
        if (group.length < (groups[i]?.length ?? 0)) break
      }
      return blocks
    },
    async describe(assets) {
      const described: AssetInfo[] = []
      for (let i = 0; i < assets.length; i += 30) described.push(...(await describe(assets.slice(i, i + 30))))
      return described
    },
  }

  async function describe(assets: readonly { address: string; kind: AssetInfo['kind'] }[]) {
    const calls = assets.flatMap(({ address, kind }): JsonRpc.Call[] =>
      ['0x06fdde03', '0x95d89b41', ...(kind === 'fungible' ? ['0x313ce567'] : [])].map((data) => [
        'eth_call',
        [{ to: address, data }, 'latest'],
      ]),
    )
    const answers = await rpc.batch(calls)
    let at = 0
    return assets.map(({ address, kind }): AssetInfo => {
      const name = text(answers[at++])
      const symbol = text(answers[at++])
      const decimals = kind === 'fungible' ? smallNumber(answers[at++]) : null
      return { address, kind, name, symbol, decimals }
    })
  }
}

/** An ABI `string`, or a legacy `bytes32` (early tokens, e.g. MKR); '' when the call failed. */
function text(answer: unknown): string {
  if (typeof answer !== 'string' || answer === '0x') return ''
  let decoded = ''
  try {
    ;[decoded] = decodeAbiParameters([{ type: 'string' }], answer as `0x${string}`)
  } catch {
    if (answer.length === 66) decoded = hexToString(answer as `0x${string}`, { size: 32 })
  }
  // Control characters are dropped: names end up in JSON and on screens.
  return [...decoded]
    .filter((char) => (char.codePointAt(0) ?? 0) > 0x1f && char !== '\u007f')
    .join('')
    .trim()
    .slice(0, 100)
}

function smallNumber(answer: unknown): number | null {
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(answer)) return null
  const n = BigInt(answer)
  return n <= 255n ? Number(n) : null
}

function hex(n: number): string {
  return `0x${n.toString(16)}`
}

/** Maps `items` with at most `limit` calls of `work` in flight, keeping the order. */
async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
