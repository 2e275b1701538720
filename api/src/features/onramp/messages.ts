/**
 * The on-ramp routes' own refusals. The texts a visitor may read (limits, an unsupported pair) are the
 * contract's `onrampTexts`; these are for the client and the provider.
 */
export const onrampMessages = {
  notConfigured: 'On-ramp is not configured',
  unknownProvider: (id: string) => `Unknown on-ramp provider: ${id}`,
  providerUnavailable: 'The on-ramp provider is unavailable, try again later',
  noDestination: 'A destination wallet is required',
  noNetwork: 'A network is required: defaultNetwork or the wallet’s blockchains',
  noAsset: 'An asset is required: defaultAsset or the wallet’s assets',
  orderNotFound: 'Order not found',
  invalidSignature: 'Invalid webhook signature',
  staleSignature: 'Stale webhook signature: its timestamp is more than 5 minutes away',
  invalidEvent: 'Invalid webhook event',
  walletMismatch: 'The event’s wallet is not the order’s',
} as const
