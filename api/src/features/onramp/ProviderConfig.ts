/**
 * The configuration's `onramp` block: the providers a deployment buys through, each with its protocol
 * (`kind`), where it is reached and its credentials. Kept out of the database: whoever holds `secretKey` signs
 * checkouts, and whoever holds `webhookSecret` completes orders.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** https, or http on this machine (the dev stack's sandbox). */
const endpoint = S.check(
  S.string(2048, 1, /^https?:\/\/[^/\s]+$/),
  (value) =>
    value.startsWith('https://') || /^http:\/\/(127(\.\d{1,3}){3}|localhost|\[::1\])(:\d+)?$/.test(value),
  'an on-ramp provider URL must be an https origin, or http on 127.0.0.1, [::1] or localhost',
)

const provider = S.object({
  /** Its id in the routes (`?provider=`, `/v1/onramp/webhooks/{id}`), e.g. `sandbox`, `moonpay`. */
  id: S.string(40, 1, /^[a-z0-9-]+$/),
  /** What the modal calls it, e.g. `MoonPay`. */
  name: S.string(100, 1),
  /** Its protocol: `sandbox`, the dev stack's MoonPay-shaped provider (`devnet/src/onramp`). */
  kind: S.picklist(['sandbox']),
  /** Its API's origin (currencies, quotes, transactions). */
  apiUrl: endpoint,
  /** Its hosted checkout's origin. */
  widgetUrl: endpoint,
  /** In checkout URLs and public reads. */
  publishableKey: S.string(200, 1),
  /** Signs checkout URLs; never leaves the API. */
  secretKey: S.string(200, 16),
  /** Verifies its webhooks. */
  webhookSecret: S.string(200, 16),
})
export type ProviderConfig = S.Infer<typeof provider>

export const onrampConfig = S.check(
  S.object({ providers: S.array(provider, 10) }),
  (value) => new Set(value.providers.map((entry) => entry.id)).size === value.providers.length,
  'onramp.providers: each provider needs an id of its own',
)
