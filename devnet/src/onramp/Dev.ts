/**
 * The sandbox on the dev stack: on its fixed port, speaking MoonPay's protocol and Coinbase Onramp's, with
 * {@link devCredentials} (and a CDP key made fresh on every start), treasury keys made and funded fresh on
 * every start, and the API's provider blocks that point at it: `moonpay` and `coinbase`. Both sell ETH and
 * tUSD on the two EVM chains and SOL on the Solana chain, as both real providers sell SOL on Solana.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { generatePrivateKey } from 'viem/accounts'
import { devnetTokens } from '../Chains.ts'
import { demoPrices, solanaChain } from '../Demo.ts'
import type * as Devnet from '../Devnet.ts'
import * as Protocol from './Protocol.ts'
import * as Sandbox from './Sandbox.ts'
import * as Treasury from './Treasury.ts'

/** Dev credentials: they open nothing but this loopback sandbox. */
const devCredentials = {
  moonpay: {
    publishableKey: 'pk_test_airlock_sandbox',
    secretKey: 'sk_test_airlock_sandbox',
    webhookSecret: 'whsec_airlock_moonpay_sandbox',
  },
  coinbase: {
    keyId: 'organizations/airlock/apiKeys/sandbox',
    webhookSecret: 'whsec_airlock_coinbase_sandbox',
  },
} as const

/** The providers' name of the Solana dev chain, which the API's provider blocks map to its CAIP-2 id. */
const solanaNetwork = 'airlock-devnet-solana'

export type DevOptions = {
  devnet: Devnet.Instance
  /** The Solana dev chain's JSON-RPC URL. */
  solanaRpcUrl: string
  /** The API's URL: webhooks go to its `/v1/onramp/webhooks/{moonpay,coinbase}`. */
  apiUrl: string
  host?: string | undefined
  /** @default 8797 */
  port?: number | undefined
}

/** The devnet chains as the sandbox sells on them, with the network names both providers' APIs say. */
function sandboxChains(devnet: Devnet.Instance, solanaRpcUrl: string): Treasury.SandboxChain[] {
  return [
    ...devnet.chains.map((running, index) => ({
      id: running.caipNetworkId,
      name: running.chain.name,
      network: `airlock-devnet-${'ab'[index] ?? index}`,
      native: running.chain.nativeCurrency,
      rpcUrl: running.rpcUrl,
      tokens: [devnetTokens.tUSD],
    })),
    {
      id: solanaChain.id,
      name: solanaChain.name,
      network: solanaNetwork,
      native: solanaChain.nativeCurrency,
      rpcUrl: solanaRpcUrl,
      tokens: [],
    },
  ]
}

/** Starts the sandbox selling ETH and tUSD on both devnet chains; `providers` are its API configuration. */
export async function start(options: DevOptions) {
  const chains = sandboxChains(options.devnet, options.solanaRpcUrl)
  const treasury = { evm: generatePrivateKey(), solana: randomBytes(32).toString('hex') }
  await Treasury.fund(chains, treasury)
  // A CDP Secret API Key of the ES256 kind: the API signs with the private half, the sandbox verifies.
  const cdpKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const webhook = (id: string) => `${options.apiUrl}/v1/onramp/webhooks/${id}`
  const sandbox = await Sandbox.start({
    port: options.port ?? Protocol.defaultPort,
    host: options.host,
    moonpay: { ...devCredentials.moonpay, webhookUrl: webhook('moonpay') },
    coinbase: { ...devCredentials.coinbase, publicKey: cdpKey.publicKey, webhookUrl: webhook('coinbase') },
    chains,
    prices: demoPrices,
    treasury,
  })
  // Neither provider gives the Solana dev chain an EVM chain id: each block names its CAIP-2 id.
  const networks = { [solanaNetwork]: solanaChain.id }
  const providers = [
    {
      id: 'moonpay',
      name: 'MoonPay (sandbox)',
      kind: 'moonpay' as const,
      apiUrl: sandbox.url,
      widgetUrl: sandbox.url,
      ...devCredentials.moonpay,
      networks,
    },
    {
      id: 'coinbase',
      name: 'Coinbase (sandbox)',
      kind: 'coinbase' as const,
      apiUrl: sandbox.url,
      widgetUrl: sandbox.url,
      publishableKey: devCredentials.coinbase.keyId,
      secretKey: cdpKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      webhookSecret: devCredentials.coinbase.webhookSecret,
      networks,
    },
  ]
  return { sandbox, providers }
}
