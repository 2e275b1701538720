/**
 * The API's on-ramp routes (docs/behaviour.md §7) as the modal calls them, through the one home of a lazy feature's API
 * call: every answer parsed with the API's own contract, every refusal an {@link ApiCall.ApiCallError}
 * carrying the API's words (the exact limit texts), shown as they are.
 */
import * as Contract from '@airlock/api/contract'
import type * as S from '@airlock/bridge-protocol/Shape'
import * as ApiCall from '../../shared/ApiCall.ts'
import { onrampTexts } from './texts.ts'

// Read when a call fails, so in the visitor's language.
const texts = onrampTexts

export type ClientOptions = {
  /** The API's URL of a path, with the project's query (`Api.Client.endpoint`). */
  endpoint(path: string): string
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

export type Client = ReturnType<typeof create>

/**
 * @example
 * const client = Client.create({ endpoint: kernel.api.endpoint })
 * const options = await client.options()
 */
export function create(options: ClientOptions) {
  const call = <T>(
    path: string,
    shape: S.Shape<T>,
    init: { query?: Record<string, string | undefined>; body?: unknown } = {},
  ) => ApiCall.call(options.endpoint, path, shape, { ...init, texts, fetch: options.fetch })

  return {
    /** What can be bought with what; `fallback` when no provider answered (docs/behaviour.md §8). */
    options: () => call('/v1/onramp/options', Contract.onrampOptionsAnswer),
    /** What `amount` of fiat buys; the API's limit texts on a refusal, `estimate` for docs/behaviour.md §8's mock. */
    quote: (body: Contract.OnrampQuoteBody) => call('/v1/onramp/quote', Contract.onrampQuoteAnswer, { body }),
    /** Opens an order and answers the provider's signed checkout URL. */
    checkout: (body: Contract.OnrampUrlBody) =>
      call('/v1/generators/onrampurl', Contract.onrampUrlAnswer, { body }),
    /** The order as the provider's webhooks left it. */
    order: (orderId: string) =>
      call(`/v1/onramp/orders/${encodeURIComponent(orderId)}`, Contract.onrampOrder),
    /** The account's purchases through `provider` as history items, read fresh (docs/behaviour.md §7: never cached). */
    purchases: async (address: string, chainId: string, provider: string) =>
      (
        await call(`/v1/account/${encodeURIComponent(address)}/history`, Contract.historyAnswer, {
          query: { onramp: provider, chainId },
        })
      ).data,
  }
}
