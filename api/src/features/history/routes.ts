/**
 * `GET /v1/account/{account}/history`: the account's indexed transactions, newest first, a page at a time;
 * and `GET /v1/account/{address}/nfts`: the NFTs those transfers left it holding (`Nfts.ts`). Both read
 * the database, which the indexer (`Indexer.ts`) fills: every replica serves them, writer or not.
 */
import { Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import type { PriceSource } from '../balances/Prices.ts'
import * as OnrampHistory from '../onramp/History.ts'
import * as Cursor from './Cursor.ts'
import * as Eip155 from './families/eip155.ts'
import { families, familyOf } from './families/index.ts'
import * as Nfts from './Nfts.ts'
import * as Queries from './Queries.ts'

export const historyMessages = {
  invalidAccount: 'Invalid account address',
  invalidCursor: 'Invalid cursor',
} as const

export type HistoryOptions = {
  /**
   * Read; written when a family starts following an account it is asked about (Solana), and to keep what
   * the NFT listing read from a chain.
   */
  db: Pick<Database, 'query' | 'transaction'>
  config: Pick<Config, 'chains'>
  /** Prices transfers of priced currencies and tokens (USD); without it, items carry no `price`/`value`. */
  prices?: PriceSource | undefined
}

const empty: Contract.HistoryAnswer = { data: [], next: null }

/**
 * @example
 * app.route('/', History.create({ db, config, prices }))
 */
export function create(options: HistoryOptions): Hono<Env> {
  const { db, config } = options
  const app = new Hono<Env>()

  app.get('/v1/account/:account/history', async (c) => {
    const query = known(c, Contract.historyQuery)
    const raw = c.req.param('account')
    const [family, account] = families
      .map((entry) => [entry, entry.account(raw)] as const)
      .find(([, key]) => key !== undefined) ?? [undefined, undefined]
    if (!family || account === undefined) throw new HttpError(400, historyMessages.invalidAccount)
    const { chainId } = query
    if (chainId && !config.chains.some((chain) => chain.id === chainId))
      throw new HttpError(400, messages.unsupportedChain(chainId))
    const scope = { account, chainId }
    const after = query.cursor ? Cursor.decode(query.cursor, scope) : undefined
    if (query.cursor && !after) throw new HttpError(400, historyMessages.invalidCursor)
    // The on-ramp's purchases come from its orders, as they are now (docs/behaviour.md §7: no cache in between).
    if (query.onramp) {
      const filter = { projectId: query.project.id, address: account, provider: query.onramp, chainId }
      return c.json((await OnrampHistory.page(db, filter)) satisfies Contract.HistoryAnswer, 200, {
        'Cache-Control': 'no-store',
      })
    }
    // A chain of another family has none of this account's transactions.
    if (chainId && familyOf(chainId) !== family) return c.json(empty)
    // A family that follows accounts, not blocks, starts with this one (its first read is bounded in time).
    const { watch } = family
    if (watch)
      await Promise.all(
        config.chains
          .filter((chain) => (chainId ? chain.id === chainId : familyOf(chain.id) === family))
          .map((chain) => watch({ db, chain }, account)),
      )
    const page = await Queries.page(db, {
      account,
      chainId,
      after,
      chains: config.chains,
      prices: options.prices,
    })
    return c.json({
      data: page.items,
      next: page.next ? Cursor.encode(page.next, scope) : null,
    } satisfies Contract.HistoryAnswer)
  })

  // Only EVM NFTs are indexed with their token ids: another family's chain is refused as docs/behaviour.md's
  // 'Unsupported chain', as the balance route refuses one it does not serve.
  app.get('/v1/account/:address/nfts', async (c) => {
    const query = known(c, Contract.nftsQuery)
    const chain = config.chains.find((entry) => entry.id === query.chainId)
    if (!chain || familyOf(chain.id) !== Eip155.family)
      throw new HttpError(400, messages.unsupportedChain(query.chainId))
    const account = Eip155.family.account(c.req.param('address'))
    if (account === undefined) throw new HttpError(400, messages.invalidEvmAddress)
    const scope = { account, chainId: chain.id }
    const after = query.cursor ? Nfts.decode(query.cursor, scope) : undefined
    if (query.cursor && !after) throw new HttpError(400, historyMessages.invalidCursor)
    const page = await Nfts.page(db, { account, chain, after, now: Date.now() })
    return c.json({
      data: page.items,
      next: page.next ? Nfts.encode(page.next, scope) : null,
    } satisfies Contract.NftsAnswer)
  })

  return app
}
