/**
 * The sandbox on the dev stack: on its fixed port, with {@link devCredentials}, a treasury key made and
 * funded fresh on every start, and the API's provider block that points at it.
 */
import { generatePrivateKey } from 'viem/accounts'
import { devnetTokens } from '../Chains.ts'
import type * as Devnet from '../Devnet.ts'
import { prices } from '../dex/Pools.ts'
import * as Protocol from './Protocol.ts'
import * as Sandbox from './Sandbox.ts'
import * as Treasury from './Treasury.ts'

/** Dev credentials: they open nothing but this loopback sandbox. */
const devCredentials = {
  publishableKey: 'pk_test_airlock_sandbox',
  secretKey: 'sk_test_airlock_sandbox',
  webhookSecret: 'whsec_airlock_sandbox',
} as const

export type DevOptions = {
  devnet: Devnet.Instance
  /** The API's URL: webhooks go to its `/v1/onramp/webhooks/sandbox`. */
  apiUrl: string
  host?: string | undefined
  /** @default 8797 */
  port?: number | undefined
}

/** Starts the sandbox selling ETH and tUSD on both devnet chains; `provider` is its API configuration. */
export async function start(options: DevOptions) {
  const chains = options.devnet.chains.map((running) => ({
    id: running.caipNetworkId,
    name: running.chain.name,
    rpcUrl: running.rpcUrl,
    tokens: [devnetTokens.tUSD],
  }))
  const treasuryKey = generatePrivateKey()
  await Treasury.fund(chains, treasuryKey)
  const sandbox = await Sandbox.start({
    ...devCredentials,
    port: options.port ?? Protocol.defaultPort,
    host: options.host,
    webhookUrl: `${options.apiUrl}/v1/onramp/webhooks/sandbox`,
    chains,
    prices,
    treasuryKey,
  })
  const provider = {
    id: 'sandbox',
    name: 'Airlock Sandbox',
    kind: 'sandbox' as const,
    apiUrl: sandbox.url,
    widgetUrl: sandbox.url,
    ...devCredentials,
  }
  return { sandbox, provider }
}
