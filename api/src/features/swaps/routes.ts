/**
 * Swaps (SPEC §7's convert routes): `GET /v1/convert/tokens`, `/quotes`, `/allowance`, `/gas-price`,
 * `/build-approve` and `POST /v1/convert/build-transaction`. The API quotes on the chain and builds unsigned
 * transactions; the visitor's wallet signs and sends them. Which DEX quotes is a chain's {@link SwapAdapter}
 * (Uniswap v2 from the configuration, unless the service is given others).
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
import type { AdapterOf, Quote, SwapAdapter } from './Adapter.ts'
import * as Assets from './Assets.ts'
import * as Gas from './Gas.ts'
import { swapMessages } from './messages.ts'
import * as UniswapV2 from './UniswapV2.ts'

export type SwapsOptions = {
  config: Config
  prices: PriceSource
  /** The build route may name its project in its body, so it looks the project up itself. */
  findProject: FindProject
  /** Each chain's DEX. @default Uniswap v2 where a chain's `swaps.uniswapV2` names one */
  adapterOf?: AdapterOf | undefined
  now: () => number
}

/** How long a client may rely on a quote: a couple of blocks on most chains, then it asks again. */
export const quoteTtlMs = 30_000

/** How long a built swap may wait to be mined; later, the router reverts it rather than swap at an old price. */
export const deadlineSeconds = 20 * 60

export function create(options: SwapsOptions): Hono<Env> {
  const { config, now } = options
  const adapterOf = options.adapterOf ?? UniswapV2.fromConfig
  const app = new Hono<Env>()

  app.get('/v1/convert/tokens', async (c) => {
    const query = known(c, Contract.swapTokensQuery)
    const { chain } = Assets.swapChain(config, adapterOf, query.chainId)
    return c.json({ tokens: await Assets.list(chain, options.prices) } satisfies Contract.SwapTokensAnswer)
  })

  app.get('/v1/convert/quotes', async (c) => {
    const query = known(c, Contract.swapQuoteQuery)
    const swap = Assets.pairOf(config, adapterOf, query)
    const amount = Assets.amountOf(query.amount)
    const [quote, gasPrice] = await Promise.all([
      bestQuote(swap.adapter, { from: swap.from, to: swap.to, amount }),
      query.gasPrice === undefined ? Gas.gasPrice(swap.chain) : BigInt(query.gasPrice),
    ])
    const route = quote.route.map((address) => Assets.idOf(swap.chain, address))
    return c.json({
      quotes: [
        {
          id: `${swap.adapter.id}:${quote.blockNumber}:${quote.route.map((address) => address.slice(2, 10)).join('-')}`,
          fromAccount: Assets.idOf(swap.chain, quote.from.address),
          fromAmount: String(quote.amount),
          fromDecimals: quote.from.decimals,
          toAccount: Assets.idOf(swap.chain, quote.to.address),
          toAmount: String(quote.toAmount),
          toDecimals: quote.to.decimals,
          priceImpact: quote.priceImpact,
          route,
          minimumToAmount: String(atSlippage(quote.toAmount, String(Contract.defaultSlippagePercent))),
          gas: String(quote.gas),
          fee: String(quote.gas * gasPrice),
          blockNumber: String(quote.blockNumber),
          expiresAt: now() + quoteTtlMs,
        },
      ],
    } satisfies Contract.SwapQuotesAnswer)
  })

  app.get('/v1/convert/allowance', async (c) => {
    const query = known(c, Contract.swapAllowanceQuery)
    const { chain, adapter } = Assets.chainOfAll(config, adapterOf, [query.tokenAddress, query.userAddress])
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
    const call = {
      to: swap.from.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [swap.adapter.spender, amount],
      }),
      value: 0n,
    }
    const [gas, gasPrice] = await Promise.all([
      Gas.estimate(swap.chain, swap.user, call, 'approval'),
      Gas.gasPrice(swap.chain),
    ])
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
    const quote = await bestQuote(swap.adapter, {
      from: swap.from,
      to: swap.to,
      amount: Assets.amountOf(body.amount),
    })
    const minimumToAmount = atSlippage(
      quote.toAmount,
      body.eip155?.slippage ?? String(Contract.defaultSlippagePercent),
    )
    const deadline = Math.floor(now() / 1000) + deadlineSeconds
    const call = await swap.adapter.buildSwap({
      quote,
      minimumToAmount,
      recipient: swap.user,
      deadline: BigInt(deadline),
    })
    const [gas, gasPrice] = await Promise.all([
      // Without the approval mined, the estimate would fail on the allowance: the client says so.
      body.disableEstimate ? undefined : Gas.estimate(swap.chain, swap.user, call, 'swap'),
      Gas.gasPrice(swap.chain),
    ])
    const tx = { from: swap.user, to: call.to, data: call.data, value: String(call.value) }
    return c.json({
      tx: {
        ...tx,
        eip155: { ...(gas === undefined ? {} : { gas: String(gas) }), gasPrice: String(gasPrice) },
      },
      toAmount: String(quote.toAmount),
      minimumToAmount: String(minimumToAmount),
      deadline,
    } satisfies Contract.BuildSwapAnswer)
  })

  return app
}

/** The adapter's quote, or a 400 naming the pair no pool can swap. */
async function bestQuote(adapter: SwapAdapter, request: Parameters<SwapAdapter['quote']>[0]): Promise<Quote> {
  const quote = await adapter.quote(request)
  if (!quote) throw new HttpError(400, swapMessages.noLiquidity(request.from.symbol, request.to.symbol))
  return quote
}

/**
 * The least of `amount` a swap may give at `percent` slippage (a decimal string, at most 4 decimals, as
 * the contract takes it), rounded down: computed in integers, so `0.3` is exactly 0.3 %.
 * @example atSlippage(1000n, '1') // 990n
 */
export function atSlippage(amount: bigint, percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.')
  // In millionths of the amount: 100 % is 1,000,000.
  const ppm = BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4))
  return (amount * (1_000_000n - (ppm > 1_000_000n ? 1_000_000n : ppm))) / 1_000_000n
}
