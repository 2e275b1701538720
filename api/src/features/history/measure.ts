/**
 * Figures for `npm run bench`: how fast the indexer catches up on an anvil chain full of transfers, and how
 * fast the history route answers an account with many items. Both run on PGlite in memory unless given
 * another database.
 * @example
 * const catchUp = await measureCatchUp({ blocks: 1_000 })     // { blocksPerSecond, … }
 * const route = await measureHistoryRoute({ rows: 10_000 })  // { p50Ms, p99Ms, … }
 */
import { performance } from 'node:perf_hooks'
import { type Address, encodeFunctionData, erc20Abi, parseEther } from 'viem'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { devnetTokens, testTokenAbi, testTokenBytecode } from '../../../../devnet/src/index.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import * as Prices from '../balances/Prices.ts'
import * as Indexer from './Indexer.ts'
import type { Block, Transaction } from './Source.ts'
import * as Store from './Store.ts'
import { accounts, caughtUp, historyApp, projectId, rpc, startChain, type TestDatabase } from './testing.ts'

export type MeasureOptions = {
  /** The database to measure on. @default PGlite in memory */
  open?: (() => Promise<TestDatabase>) | undefined
}

export type CatchUpResult = {
  engine: string
  blocks: number
  transfers: number
  seconds: number
  blocksPerSecond: number
}

const inMemory = async (): Promise<TestDatabase> => {
  const db = await memoryDatabase()
  return { db, lockUrl: undefined, close: () => db.close() }
}

/**
 * Mines `blocks` anvil blocks, each with a native and an ERC-20 transfer to a new address, then times a
 * fresh indexer from genesis to the head.
 */
export async function measureCatchUp(
  options: MeasureOptions & { blocks?: number } = {},
): Promise<CatchUpResult> {
  const count = options.blocks ?? 1_000
  const chain = await startChain(41_100)
  const opened = await (options.open ?? inMemory)()
  try {
    const [from] = accounts as [Address]
    const token = await chain.client.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: [devnetTokens.ALT.name, devnetTokens.ALT.symbol, devnetTokens.ALT.decimals],
      account: from,
      chain: null,
    })
    const deployed = (await chain.client.waitForTransactionReceipt({ hash: token }))
      .contractAddress as Address
    await chain.client.writeContract({
      address: deployed,
      abi: testTokenAbi,
      functionName: 'mint',
      args: [from, parseEther('1000000')],
      account: from,
      chain: null,
    })
    await rpc(chain.anvil.rpcUrl, 'evm_setAutomine', [false])
    let nonce = await chain.client.getTransactionCount({ address: from, blockTag: 'pending' })
    for (let i = 0; i < count; i++) {
      const to = `0x${(0xbe4c0000 + i).toString(16).padStart(40, '0')}` as Address
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1n] })
      const send = (tx: object) => ({
        jsonrpc: '2.0',
        id: nonce,
        method: 'eth_sendTransaction',
        params: [{ from, nonce: `0x${(nonce++).toString(16)}`, ...tx }],
      })
      await fetch(chain.anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([send({ to, value: '0x1' }), send({ to: deployed, data, gas: '0x20000' })]),
      })
      await rpc(chain.anvil.rpcUrl, 'evm_mine', [])
    }
    const started = performance.now()
    const indexer = Indexer.start({
      db: opened.db,
      lockUrl: opened.lockUrl,
      config: { chains: [chain.chain] },
      pollMs: 50,
      log: () => {},
    })
    await caughtUp(opened.db, chain, 600_000)
    const seconds = (performance.now() - started) / 1000
    await indexer.stop()
    const [row] = await opened.db.query<{ n: unknown }>('select count(*) as n from history_transfers')
    const blocks = Number(await chain.client.getBlockNumber()) + 1
    return {
      engine: opened.db.engine,
      blocks,
      transfers: Number(row?.n),
      seconds,
      blocksPerSecond: blocks / seconds,
    }
  } finally {
    await opened.close()
    await chain.stop()
  }
}

export type RouteResult = {
  engine: string
  rows: number
  requests: number
  listed: number
  p50Ms: number
  p99Ms: number
}

/**
 * Writes `rows` transactions of one account (and as many of others) through the indexer's store, then
 * times the route: every page of the account from first to last through the cursor, and first pages.
 */
export async function measureHistoryRoute(
  options: MeasureOptions & { rows?: number } = {},
): Promise<RouteResult> {
  const rows = options.rows ?? 10_000
  const chainId = 'eip155:1'
  const chain = {
    id: chainId,
    name: 'Measured',
    rpcUrl: 'http://127.0.0.1:9',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  }
  const opened = await (options.open ?? inMemory)()
  try {
    const { db } = opened
    const account = (accounts[1] as string).toLowerCase()
    const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
    await db.query(
      `insert into history_assets (chain_id, address, kind, name, symbol, decimals) values ($1, $2, 'fungible', 'USD Coin', 'USDC', 6)`,
      [chainId, usdc],
    )
    await Prices.set(db, [
      {
        chainId,
        address: Prices.native,
        currency: 'usd',
        price: 3000,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
    ])
    await Store.begin(db, chainId, { height: -1, hash: '' })
    const perBlock = 100
    let at: Store.Cursor = { height: -1, hash: '' }
    for (let number = 0; number * perBlock < rows * 2; number++) {
      const block = syntheticBlock(number, at.hash, perBlock, account, usdc)
      if (!(await Store.append(db, chainId, at, [block], 1_000))) throw new Error('the store refused a block')
      at = { height: number, hash: block.hash }
    }
    // Timed as in steady state: autovacuum has analysed the tables (fresh from empty, the planner guesses).
    for (const table of ['history_accounts', 'history_transactions', 'history_transfers', 'history_assets'])
      await db.query(`analyze ${table}`)
    const app = await historyApp(db, [chain], Prices.fromDatabase(db))
    const times: number[] = []
    const get = async (query: string) => {
      const started = performance.now()
      const response = await app.request(`/v1/account/${account}/history?projectId=${projectId}${query}`)
      const body = (await response.json()) as { data: unknown[]; next: string | null }
      times.push(performance.now() - started)
      if (response.status !== 200) throw new Error(`history answered ${response.status}`)
      return body
    }
    let listed = 0
    let cursor: string | null = null
    do {
      const page: { data: unknown[]; next: string | null } = await get(cursor ? `&cursor=${cursor}` : '')
      listed += page.data.length
      cursor = page.next
    } while (cursor)
    for (let i = 0; i < 100; i++) await get(i % 2 ? '' : `&chainId=${chainId}`)
    times.sort((a, b) => a - b)
    const at_ = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
    return { engine: db.engine, rows, requests: times.length, listed, p50Ms: at_(0.5), p99Ms: at_(0.99) }
  } finally {
    await opened.close()
  }
}

/** Block `n`: half its transactions concern `account` (a native send or a token receipt), half do not. */
function syntheticBlock(n: number, parentHash: string, size: number, account: string, token: string): Block {
  const word = (tag: number, i: number) =>
    `0x${tag.toString(16).padStart(8, '0')}${i.toString(16).padStart(56, '0')}`
  const other = (i: number) => `0x${(0xcafe0000 + i).toString(16).padStart(40, '0')}`
  const transactions = Array.from({ length: size }, (_, i): Transaction => {
    const hash = word(n + 1, i)
    const mine = i % 2 === 0
    const from = mine && i % 4 === 0 ? account : other(i)
    const to = mine && i % 4 !== 0 ? account : other(i + 1)
    const transfer =
      i % 4 === 2
        ? { position: 1 << 20, kind: 'fungible' as const, asset: token, from, to, amount: 1_500_000n }
        : { position: 0, kind: 'native' as const, asset: '', from, to, amount: 10n ** 16n }
    return {
      hash,
      index: i,
      status: 'confirmed',
      kind: 'send',
      from,
      to: transfer.asset || to,
      transfers: [transfer],
    }
  })
  return {
    number: n,
    hash: word(0xb10c, n),
    parentHash,
    timestamp: 1_700_000_000_000 + n * 12_000,
    transactions,
  }
}
