/**
 * The best way to make a swap across a chain's venues: every venue quoted at one block, each way valued
 * net of its gas (for an exact input, what it gives less the gas's worth in `to`; for an exact output, what
 * it takes plus the gas's worth in `from`), and the best way of each venue kept, best first.
 */
import type { Chain } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import { clientOf } from '../balances/Evm.ts'
import type { PriceSource } from '../balances/Prices.ts'
import type { Asset, Quote, QuoteRequest, SwapAdapter } from './Adapter.ts'
import { swapMessages } from './messages.ts'
import { readOn } from './Reads.ts'

/** A venue's best way, with its worth net of gas in the exact side's counterpart (higher is better). */
export type Ranked = { venue: SwapAdapter; quote: Quote; net: bigint }

export type RankOptions = {
  chain: Chain
  venues: readonly SwapAdapter[]
  /** Wei per gas the gas is valued at. */
  gasPrice: bigint
  prices: PriceSource
}

/**
 * Every venue's best way for `request`, best net of gas first; a 400 naming the pair when none can swap it.
 * @throws {RpcError} when the chain cannot be read
 */
export async function rank(
  request: Omit<QuoteRequest, 'blockNumber'>,
  options: RankOptions,
): Promise<Ranked[]> {
  const read = readOn(options.chain)
  // Uncached: viem keeps a block number for its polling interval (4 s), longer than a block on most chains.
  const blockNumber = await read(() => clientOf(options.chain).getBlockNumber({ cacheTime: 0 }))
  const answers = await Promise.all(
    options.venues.map(async (venue) => ({ venue, quotes: await venue.quote({ ...request, blockNumber }) })),
  )
  const all = answers.flatMap((answer) => answer.quotes)
  if (all.length === 0)
    throw new HttpError(400, swapMessages.noLiquidity(request.from.symbol, request.to.symbol))
  return pick(answers, await gasWorth(all, options))
}

/** Each venue's best way by its worth net of gas (`gasOf`, in the side it is valued in), best venue first. */
export function pick(
  answers: readonly { venue: SwapAdapter; quotes: readonly Quote[] }[],
  gasOf: (quote: Quote) => bigint,
): Ranked[] {
  const ranked = answers.flatMap(({ venue, quotes }): Ranked[] => {
    const valued = quotes.map((quote) => ({ venue, quote, net: netOf(quote, gasOf(quote)) }))
    // Fewer pools first, so a tie goes to the cheaper route.
    valued.sort((a, b) => a.quote.route.length - b.quote.route.length)
    const best = valued.reduce<Ranked | undefined>(
      (kept, next) => (!kept || next.net > kept.net ? next : kept),
      undefined,
    )
    return best ? [best] : []
  })
  return ranked.sort((a, b) => (b.net > a.net ? 1 : b.net < a.net ? -1 : 0))
}

/** A way's worth net of gas: what it gives less the gas (exact input), or less what it takes and the gas. */
function netOf(quote: Quote, gas: bigint): bigint {
  return quote.type === 'exactInput' ? quote.toAmount - gas : -(quote.fromAmount + gas)
}

/**
 * How much of the side a quote is valued in (`to` for an exact input, `from` for an exact output) its gas
 * is worth: wei when that side is the native currency; at the quote's own rate when the other side is; at
 * the price source's USD prices between two tokens (nothing when it knows neither, so only the amounts
 * compare).
 */
export async function gasWorth(
  quotes: readonly Quote[],
  options: Pick<RankOptions, 'chain' | 'gasPrice' | 'prices'>,
) {
  const [first] = quotes
  const usd = new Map<string, number>()
  if (first && !first.from.native && !first.to.native) {
    const assets = [Contract.nativeToken, first.from.address, first.to.address].map((address) => ({
      chainId: options.chain.id,
      address: address.toLowerCase(),
    }))
    for (const price of await options.prices.prices(assets, 'usd')) usd.set(price.address, price.price)
  }
  return (quote: Quote): bigint => {
    const wei = quote.gas * options.gasPrice
    const [side, other] = quote.type === 'exactInput' ? [quote.to, quote.from] : [quote.from, quote.to]
    const [sideAmount, otherAmount] =
      quote.type === 'exactInput' ? [quote.toAmount, quote.fromAmount] : [quote.fromAmount, quote.toAmount]
    if (side.native) return wei
    if (other.native) return otherAmount === 0n ? 0n : (wei * sideAmount) / otherAmount
    return inUsd(wei, options.chain.nativeCurrency.decimals, usd.get(Contract.nativeToken), side, usd)
  }
}

/** `wei` of the native currency in `asset`'s smallest unit at their USD prices; 0 when one is unknown. */
function inUsd(
  wei: bigint,
  nativeDecimals: number,
  nativeUsd: number | undefined,
  asset: Asset,
  usd: ReadonlyMap<string, number>,
): bigint {
  const assetUsd = usd.get(asset.address.toLowerCase())
  if (!nativeUsd || !assetUsd) return 0n
  // The ratio of the two prices in billionths, so the rest stays in integers.
  const ratio = BigInt(Math.round((nativeUsd / assetUsd) * 1e9))
  return (wei * ratio * 10n ** BigInt(asset.decimals)) / (10n ** BigInt(nativeDecimals) * 1_000_000_000n)
}
