/**
 * Swaps (docs/behaviour.md §7's convert routes): `GET /v1/convert/tokens`, `/quotes`, `/allowance`, `/gas-price`,
 * `/build-approve` and `POST /v1/convert/build-transaction`. The API quotes on the chain and builds unsigned
 * transactions; the visitor's wallet signs and sends them. A chain's venues ({@link SwapAdapter}s: Uniswap v2
 * and v3 from its configuration or Uniswap's own deployments, unless the service is given others) are quoted
 * at one block and the best output net of gas is taken; a client names the quote's venue in the requests
 * that follow it, so it approves and swaps where it was quoted.
 */
import { Hono } from 'hono'
import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import { type Env, type FindProject, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import { RpcError } from '../../internal/rpc.ts'
import { clientOf } from '../balances/Evm.ts'
import type { PriceSource } from '../balances/Prices.ts'
import type { AdapterOf, Quote, SwapType } from './Adapter.ts'
import * as Assets from './Assets.ts'
import * as Best from './Best.ts'
import * as Gas from './Gas.ts'
import { swapMessages } from './messages.ts'
import * as Venues from './Venues.ts'

export type SwapsOptions = {
  config: Config
  prices: PriceSource
  /** The build route may name its project in its body, so it looks the project up itself. */
  findProject: FindProject
  /** Each chain's venues. @default `Venues.fromConfig`: the chain's `swaps`, else Uniswap's own deployments */
  adapterOf?: AdapterOf | undefined
  now: () => number
}

/** How long a client may rely on a quote: a couple of blocks on most chains, then it asks again. */
export const quoteTtlMs = 30_000

/** How long a built swap may wait to be mined; later, the router reverts it rather than swap at an old price. */
export const deadlineSeconds = 20 * 60

export function create(options: SwapsOptions): Hono<Env> {
  const { config, now } = options
  const adapterOf = options.adapterOf ?? Venues.fromConfig
  const app = new Hono<Env>()

  /** The venues' best ways for a swap, best first; one venue's only when the client names it. */
  const rank = (
    swap: Assets.SwapChain & Pick<Quote, 'from' | 'to'>,
    request: { type: SwapType; amount: bigint; venue: string | undefined; gasPrice: bigint },
  ) =>
    Best.rank(
      { from: swap.from, to: swap.to, type: request.type, amount: request.amount },
      {
        chain: swap.chain,
        venues: request.venue === undefined ? swap.venues : [Assets.venueOf(swap, request.venue)],
        gasPrice: request.gasPrice,
        prices: options.prices,
      },
    )

  app.get('/v1/convert/tokens', async (c) => {
    const query = known(c, Contract.swapTokensQuery)
    const { chain } = Assets.swapChain(config, adapterOf, query.chainId)
    return c.json({ tokens: await Assets.list(chain, options.prices) } satisfies Contract.SwapTokensAnswer)
  })

  app.get('/v1/convert/quotes', async (c) => {
    const query = known(c, Contract.swapQuoteQuery)
    const swap = Assets.pairOf(config, adapterOf, query)
    const gasPrice = query.gasPrice === undefined ? await Gas.gasPrice(swap.chain) : BigInt(query.gasPrice)
    const ranked = await rank(swap, {
      type: query.type ?? 'exactInput',
      amount: Assets.amountOf(query.amount),
      venue: query.venue,
      gasPrice,
    })
    const slippage = String(Contract.defaultSlippagePercent)
    return c.json({
      quotes: ranked.map(({ venue, quote }) => ({
        id: `${venue.id}:${quote.blockNumber}:${quote.route.map((address) => address.slice(2, 10)).join('-')}:${quote.fees.join('-')}`,
        type: quote.type,
        venue: { id: venue.id, name: venue.name },
        spender: venue.spender,
        fromAccount: Assets.idOf(swap.chain, quote.from.address),
        fromAmount: String(quote.fromAmount),
        fromDecimals: quote.from.decimals,
        toAccount: Assets.idOf(swap.chain, quote.to.address),
        toAmount: String(quote.toAmount),
        toDecimals: quote.to.decimals,
        priceImpact: quote.priceImpact,
        route: quote.route.map((address) => Assets.idOf(swap.chain, address)),
        fees: [...quote.fees],
        ...bounds(quote, slippage),
        gas: String(quote.gas),
        fee: String(quote.gas * gasPrice),
        blockNumber: String(quote.blockNumber),
        expiresAt: now() + quoteTtlMs,
      })),
    } satisfies Contract.SwapQuotesAnswer)
  })

  app.get('/v1/convert/allowance', async (c) => {
    const query = known(c, Contract.swapAllowanceQuery)
    const swapping = Assets.chainOfAll(config, adapterOf, [query.tokenAddress, query.userAddress])
    const { chain } = swapping
    const adapter = Assets.venueOf(swapping, query.venue)
    const token = Assets.assetOf(chain, query.tokenAddress)
    if (token.native) return c.json({ allowance: String(maxUint256) } satisfies Contract.SwapAllowanceAnswer)
    let allowance: bigint
    try {
      allowance = await clientOf(chain).readContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [Assets.accountOf(query.userAddress).address, adapter.spender],
      })
    } catch (error) {
      throw new RpcError(chain.id, { cause: error })
    }
    return c.json({ allowance: String(allowance) } satisfies Contract.SwapAllowanceAnswer)
  })

  app.get('/v1/convert/gas-price', async (c) => {
    const query = known(c, Contract.gasPriceQuery)
    const refusal = Contract.swapTexts.unsupportedGasPrice
    const { chain } = Assets.swapChain(config, adapterOf, query.chainId, refusal)
    return c.json((await Gas.gasPrices(chain)) satisfies Contract.GasPriceAnswer)
  })

  app.get('/v1/convert/build-approve', async (c) => {
    const query = known(c, Contract.buildApproveQuery)
    const swap = Assets.pairOf(config, adapterOf, query)
    if (swap.from.native) throw new HttpError(400, swapMessages.nativeNeedsNoApproval(swap.from.symbol))
    // Unlimited only when the client leaves the amount out, which it should do only at the visitor's word.
    const amount = query.amount === undefined ? maxUint256 : Assets.amountOf(query.amount)
    const gasPrice = await Gas.gasPrice(swap.chain)
    // The quote's venue; without one, where that amount would swap best now.
    const venue =
      query.venue !== undefined || query.amount === undefined || swap.venues.length === 1
        ? Assets.venueOf(swap, query.venue)
        : (await rank(swap, { type: 'exactInput', amount, venue: undefined, gasPrice }))[0]?.venue
    if (!venue) throw new HttpError(400, swapMessages.noLiquidity(swap.from.symbol, swap.to.symbol))
    const call = {
      to: swap.from.address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [venue.spender, amount] }),
      value: 0n,
    }
    const gas = await Gas.estimate(swap.chain, swap.user, call, 'approval')
    const tx = { from: swap.user, to: call.to, data: call.data, value: '0' }
    return c.json({
      tx: { ...tx, eip155: { gas: String(gas), gasPrice: String(gasPrice) } },
    } satisfies Contract.BuildApproveAnswer)
  })

  app.post('/v1/convert/build-transaction', async (c) => {
    const body = parse(Contract.buildSwapBody, await json(c))
    // Clients of this route send the project id in the body, not the query.
    if (!c.req.query('projectId') && body.projectId)
      c.set('project', await options.findProject(body.projectId))
    known(c, Contract.commonQuery, body.projectId)
    const swap = Assets.pairOf(config, adapterOf, body)
    const gasPrice = await Gas.gasPrice(swap.chain)
    const [best] = await rank(swap, {
      type: body.type ?? 'exactInput',
      amount: Assets.amountOf(body.amount),
      venue: body.venue,
      gasPrice,
    })
    if (!best) throw new HttpError(400, swapMessages.noLiquidity(swap.from.symbol, swap.to.symbol))
    const { venue, quote } = best
    const limits = bounds(quote, body.eip155?.slippage ?? String(Contract.defaultSlippagePercent))
    const deadline = Math.floor(now() / 1000) + deadlineSeconds
    const call = await venue.buildSwap({
      quote,
      limit: BigInt(quote.type === 'exactInput' ? limits.minimumToAmount : limits.maximumFromAmount),
      recipient: swap.user,
      deadline: BigInt(deadline),
    })
    // Without the approval mined, the estimate would fail on the allowance: the client says so.
    const gas = body.disableEstimate ? undefined : await Gas.estimate(swap.chain, swap.user, call, 'swap')
    const tx = { from: swap.user, to: call.to, data: call.data, value: String(call.value) }
    return c.json({
      tx: {
        ...tx,
        eip155: { ...(gas === undefined ? {} : { gas: String(gas) }), gasPrice: String(gasPrice) },
      },
      type: quote.type,
      venue: { id: venue.id, name: venue.name },
      route: quote.route.map((address) => Assets.idOf(swap.chain, address)),
      fees: [...quote.fees],
      fromAmount: String(quote.fromAmount),
      toAmount: String(quote.toAmount),
      ...limits,
      deadline,
    } satisfies Contract.BuildSwapAnswer)
  })

  return app
}

/**
 * What a quote guarantees at `percent` slippage: for an exact input, the least it gives (the most it takes is
 * its input); for an exact output, the most it takes (the least it gives is its output).
 */
function bounds(quote: Quote, percent: string) {
  const exactIn = quote.type === 'exactInput'
  return {
    minimumToAmount: String(exactIn ? atSlippage(quote.toAmount, percent) : quote.toAmount),
    maximumFromAmount: String(exactIn ? quote.fromAmount : aboveSlippage(quote.fromAmount, percent)),
  }
}

/**
 * The least of `amount` a swap may give at `percent` slippage (a decimal string, at most 4 decimals, as
 * the contract takes it), rounded down: computed in integers, so `0.3` is exactly 0.3 %.
 * @example atSlippage(1000n, '1') // 990n
 */
export function atSlippage(amount: bigint, percent: string): bigint {
  const ppm = ppmOf(percent)
  return (amount * (1_000_000n - (ppm > 1_000_000n ? 1_000_000n : ppm))) / 1_000_000n
}

/**
 * The most of `amount` a swap may take at `percent` slippage, rounded up.
 * @example aboveSlippage(1000n, '1') // 1010n
 */
export function aboveSlippage(amount: bigint, percent: string): bigint {
  const scaled = amount * (1_000_000n + ppmOf(percent))
  return scaled / 1_000_000n + (scaled % 1_000_000n === 0n ? 0n : 1n)
}

/** A percentage with up to 4 decimals in millionths: 100 % is 1,000,000. */
function ppmOf(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.')
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4))
}
