/**
 * The configuration's `onramp` block: the providers a deployment buys through, each with its protocol
 * (`kind`), where it is reached and its credentials. Kept out of the database: whoever holds `secretKey` signs
 * checkouts (or obtains session tokens), and whoever holds `webhookSecret` completes orders.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'

/** https, or http on this machine (the dev stack's stand-ins). */
const endpoint = S.check(
  S.string(2048, 1, /^https?:\/\/[^/\s]+$/),
  (value) =>
    value.startsWith('https://') || /^http:\/\/(127(\.\d{1,3}){3}|localhost|\[::1\])(:\d+)?$/.test(value),
  'an on-ramp provider URL must be an https origin, or http on 127.0.0.1, [::1] or localhost',
)

const provider = S.object({
  /** Its id in the routes (`?provider=`, `/v1/onramp/webhooks/{id}`), e.g. `moonpay`, `coinbase`. */
  id: S.string(40, 1, /^[a-z0-9-]+$/),
  /** What the modal calls it, e.g. `MoonPay`. */
  name: S.string(100, 1),
  /**
   * Its protocol: `moonpay` (MoonPay's API and widget: `https://api.moonpay.com`, `https://buy.moonpay.com`)
   * or `coinbase` (Coinbase Onramp: `https://api.developer.coinbase.com`, `https://pay.coinbase.com`).
   */
  kind: S.picklist(['moonpay', 'coinbase']),
  /** Its API's origin (currencies, quotes, transactions, session tokens). */
  apiUrl: endpoint,
  /** Its hosted checkout's origin. */
  widgetUrl: endpoint,
  /** MoonPay: the publishable key (`pk_live_…`). Coinbase: the CDP Secret API Key's id (its name). */
  publishableKey: S.string(200, 1),
  /**
   * Never leaves the API. MoonPay: the secret key (`sk_live_…`), which signs widget URLs and reads
   * transactions. Coinbase: the CDP Secret API Key's private key (an EC key in PEM for ES256, or an Ed25519
   * key in base64 for EdDSA), which signs the JWT of every API call.
   */
  secretKey: S.string(4096, 16),
  /** Verifies its webhooks: MoonPay's webhook key, or the secret of the Coinbase webhook subscription. */
  webhookSecret: S.string(200, 16),
  /**
   * Network codes of the provider's beyond those it names by EVM chain id and the built-in ones
   * (`Networks.ts`), each to its CAIP-2 id, e.g. `{ "solana-devnet": "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" }`.
   */
  networks: S.optional(S.record(S.check(S.string(80), Caip.isChainId, Caip.invalidChainId), 50)),
  /** Coinbase: the buyers' ISO 3166-1 country, which its options and quotes depend on. @default 'US' */
  country: S.optional(S.string(2, 2, /^[A-Z]{2}$/)),
})
export type ProviderConfig = S.Infer<typeof provider>

export const onrampConfig = S.check(
  S.object({ providers: S.array(provider, 10) }),
  (value) => new Set(value.providers.map((entry) => entry.id)).size === value.providers.length,
  'onramp.providers: each provider needs an id of its own',
)
