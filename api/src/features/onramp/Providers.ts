/**
 * The configured providers, each built by the adapter of its `kind`. A new protocol is one more entry in
 * {@link adapters} (and in the configuration's `kind`).
 */
import * as Coinbase from './Coinbase.ts'
import * as Moonpay from './Moonpay.ts'
import type { OnrampProvider } from './Provider.ts'
import type { ProviderConfig } from './ProviderConfig.ts'

const adapters: Record<ProviderConfig['kind'], (config: ProviderConfig) => OnrampProvider> = {
  moonpay: Moonpay.create,
  coinbase: Coinbase.create,
}

export function fromConfig(providers: readonly ProviderConfig[]): OnrampProvider[] {
  return providers.map((config) => adapters[config.kind](config))
}
