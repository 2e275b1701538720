/**
 * The API's swap routes (docs/behaviour.md §7 "convert") as the modal calls them: every answer parsed with the API's own
 * contract, every refusal turned into a {@link SwapFailure} carrying the API's words ('Network not supported
 * for Swaps', 'Insufficient liquidity…'), so a view shows what the server said and nothing is guessed.
 */
import * as Contract from '@airlock/api/contract'
import type * as S from '@airlock/bridge-protocol/Shape'
import * as ApiCall from '../../shared/ApiCall.ts'
import { swapTexts } from './texts.ts'

// Read when a call fails, so in the visitor's language.
const texts = swapTexts

export type ClientOptions = {
  /** The API's URL of a path, with the project's query (`Api.Client.endpoint`). */
  endpoint(path: string): string
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

/** Why a swap step did not happen: the API refused (its words), could not be reached, or answered nonsense. */
export class SwapFailure extends Error {
  override name = 'SwapFailure'
  constructor(
    message: string,
    /** The HTTP status of a refusal; 0 when the API was not reached. */
    readonly status = 0,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export type Client = ReturnType<typeof create>

/**
 * @example
 * const client = Client.create({ endpoint: kernel.api.endpoint })
 * const { quotes } = await client.quotes({ amount: '1000', userAddress, from, to })
 */
export function create(options: ClientOptions) {
  async function call<T>(
    path: string,
    shape: S.Shape<T>,
    init: { query?: Record<string, string | undefined>; body?: unknown } = {},
  ): Promise<T> {
    try {
      return await ApiCall.call(options.endpoint, path, shape, { ...init, texts, fetch: options.fetch })
    } catch (error) {
      if (error instanceof ApiCall.ApiCallError)
        throw new SwapFailure(error.message, error.status, { cause: error })
      throw error
    }
  }

  return {
    /** The tokens a chain swaps. */
    tokens: async (chainId: string): Promise<Contract.SwapToken[]> =>
      (await call('/v1/convert/tokens', Contract.swapTokensAnswer, { query: { chainId } })).tokens,
    /** The best quote for `amount` of `from` into `to`; throws the API's refusal. */
    async quote(query: { amount: bigint; userAddress: string; from: string; to: string }) {
      const { quotes } = await call('/v1/convert/quotes', Contract.swapQuotesAnswer, {
        query: { ...query, amount: query.amount.toString() },
      })
      const [best] = quotes
      if (!best) throw new SwapFailure(swapTexts.noRoute)
      return best
    },
    /** What the account lets `venue`'s router spend of `token`, in its smallest unit. */
    allowance: async (token: string, userAddress: string, venue: string): Promise<bigint> =>
      BigInt(
        (
          await call('/v1/convert/allowance', Contract.swapAllowanceAnswer, {
            query: { tokenAddress: token, userAddress, venue },
          })
        ).allowance,
      ),
    /** The approval of `venue`'s router for a swap of `from` into `to`: exactly `amount`, or unlimited without one. */
    buildApprove: async (query: {
      userAddress: string
      from: string
      to: string
      venue: string
      amount?: bigint
    }) =>
      (
        await call('/v1/convert/build-approve', Contract.buildApproveAnswer, {
          query: { ...query, amount: query.amount?.toString() },
        })
      ).tx,
    /**
     * The swap itself through `venue` (the quote's) at `slippage` percent; `disableEstimate` while its
     * approval is not mined yet.
     */
    buildSwap: (body: {
      amount: bigint
      from: string
      to: string
      userAddress: string
      venue: string
      slippage: string
      disableEstimate: boolean
    }) =>
      call('/v1/convert/build-transaction', Contract.buildSwapAnswer, {
        body: {
          amount: body.amount.toString(),
          from: body.from,
          to: body.to,
          userAddress: body.userAddress,
          venue: body.venue,
          disableEstimate: body.disableEstimate,
          eip155: { slippage: body.slippage },
        },
      }),
  }
}
