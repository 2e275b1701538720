/**
 * `airlock-api prices set|list|remove`: the USD prices the built-in source answers with (`Prices.fromDatabase`),
 * kept in the database. A symbol is priced on every configured chain where it is the native currency or a
 * token (`--chain` for one), so the configuration file says which assets exist and the database what they
 * cost.
 */
import * as ConfigFile from '../ConfigFile.ts'
import * as Prices from '../features/balances/Prices.ts'
import { type Args, UsageError, withDatabase } from './Args.ts'

export const usage =
  'prices set <symbol> <usd> [--chain <caip2>] | prices list | prices remove <symbol> [--chain <caip2>]'

export async function run(args: Args): Promise<number> {
  const [action, symbol, amount] = args.words.slice(1)
  if (action === 'list') return withDatabase(args, list)
  if (!symbol) throw new UsageError(`prices ${action ?? ''}: which symbol?`)
  if (action === 'remove')
    return withDatabase(args, async (db) => {
      const removed = await Prices.remove(db, { symbol, chainId: args.chain })
      console.log(removed > 0 ? `Removed ${removed} prices of ${symbol}.` : `No price of ${symbol}.`)
      return removed > 0 ? 0 : 1
    })
  if (action !== 'set') throw new UsageError(`prices ${action}: not an action`)
  const price = Number(amount)
  if (!amount || !/^\d+(\.\d+)?$/.test(amount) || !(price > 0))
    throw new UsageError(
      `prices set ${symbol} ${amount ?? ''}: the price is a positive number of USD, like 3000 or 0.9998`,
    )
  if (!args.config)
    throw new ConfigFile.ConfigError(
      'prices set needs the configuration (--config or AIRLOCK_CONFIG): it prices the chains and tokens configured there.',
    )
  const { config } = ConfigFile.load({ path: args.config, env: args.env })
  const assets = config.chains
    .filter((chain) => args.chain === undefined || chain.id === args.chain)
    .flatMap((chain) => [
      ...(same(chain.nativeCurrency.symbol, symbol)
        ? [{ chainId: chain.id, address: Prices.native, iconUrl: null, ...chain.nativeCurrency }]
        : []),
      ...(chain.tokens ?? [])
        .filter((token) => same(token.symbol, symbol))
        .map((token) => ({ chainId: chain.id, ...token, iconUrl: token.iconUrl ?? null })),
    ])
  if (assets.length === 0)
    throw new ConfigFile.ConfigError(
      `No chain${args.chain ? ` ${args.chain}` : ''} of the configuration has ${symbol} as its native currency or a token: add the token to its chain's tokens first.`,
    )
  return withDatabase(args, async (db) => {
    await Prices.set(
      db,
      assets.map(({ chainId, address, name, symbol, iconUrl }) => ({
        chainId,
        address,
        name,
        symbol,
        iconUrl,
        price,
        currency: 'usd' as const,
      })),
    )
    console.log(
      `${assets[0]?.symbol ?? symbol} at ${price} USD on ${[...new Set(assets.map((asset) => asset.chainId))].join(', ')}.`,
    )
    return 0
  })
}

async function list(db: Parameters<typeof Prices.list>[0]): Promise<number> {
  for (const p of await Prices.list(db))
    console.log(`${p.symbol}\t${p.price} ${p.currency.toUpperCase()}\t${p.chainId}\t${p.address}`)
  return 0
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
