/**
 * The packages published to npm, each checked by `npm run test:packages` (check.ts) as a user gets it: its
 * `npm pack` tarball installed into a project outside the repository. A package joins by adding an entry.
 */
export type Published = {
  /** The workspace folder, from the repository root. */
  dir: string
  /** What a user installs beside it: its peer dependencies, as `npm install` specs. */
  peers?: string[]
  /** The body of an ES module run by plain Node (`node --input-type=module`); throwing fails the check. */
  esm: string
  /** The same through `require`, run as CommonJS. */
  cjs: string
  /** A TypeScript module that must type-check under `moduleResolution` `bundler` and `node16` (ESM and CJS). */
  types: string
  /**
   * ESM only, as its peers are (wagmi): `types` is checked as ESM alone, under node16 without the peers'
   * declarations, and attw by its esm-only profile.
   */
  esmOnly?: boolean
}

// Importing on a server must leave no trace (SSR frameworks import client code there too), and
// createAirlock there is inert: actions resolve, wallet calls fail as from a disconnected wallet.
const hostServerUse = (load: string) => `
const before = Object.keys(globalThis).join()
${load}
if (Object.keys(globalThis).join() !== before) throw new Error('importing @airlock/host-sdk changed globalThis')
const airlock = createAirlock({ projectId: 'demo', networks: ['eip155:1'] })
Promise.all([
  airlock.open(),
  airlock.providers.eip155.request({ method: 'eth_chainId' }),
  airlock.providers.eip155.request({ method: 'personal_sign', params: [] }).then(
    () => { throw new Error('personal_sign succeeded on a server') },
    (error) => error.code,
  ),
]).then(([opened, chainId, code]) => {
  if (opened !== undefined || chainId !== '0x1' || code !== 4900)
    throw new Error('unexpected server behaviour: ' + JSON.stringify([opened, chainId, code]))
  airlock.destroy()
})
`

// On a server the provider renders the disconnected button and touches nothing global.
const reactServerRender = (load: string) => `
const before = Object.keys(globalThis).join()
${load}
const options = { projectId: 'demo', networks: ['eip155:1'] }
const html = renderToString(createElement(AirlockProvider, { options }, createElement(ConnectButton)))
if (!html.includes('Connect Wallet')) throw new Error('unexpected server render: ' + html)
if (Object.keys(globalThis).join() !== before) throw new Error('rendering @airlock/react changed globalThis')
`

// A wagmi config on a server: one Airlock connector by Airlock's EIP-6963 rdns, answering the chain inertly.
const wagmiConfig = (load: string) => `
${load}
const config = createConfig({
  chains: [mainnet],
  connectors: [airlock({ projectId: 'demo', networks: ['eip155:1'] })],
  transports: { [mainnet.id]: http() },
})
const [connector] = config.connectors
if (config.connectors.length !== 1 || connector.id !== 'dev.airlock' || connector.rdns !== 'dev.airlock')
  throw new Error('unexpected connectors: ' + config.connectors.map((c) => c.id))
connector.getChainId().then((chainId) => {
  if (chainId !== 1) throw new Error('unexpected chain ' + chainId)
})
`

export const published: Published[] = [
  {
    dir: 'host-sdk',
    esm: hostServerUse(
      "const { createAirlock } = await import('@airlock/host-sdk'); await import('@airlock/host-sdk/global')",
    ),
    cjs: hostServerUse(
      "const { createAirlock } = require('@airlock/host-sdk'); require('@airlock/host-sdk/global')",
    ),
    types: `/// <reference types="@airlock/host-sdk/global" />
import { type Airlock, type AirlockOptions, type CustomNetwork, createAirlock, type State } from '@airlock/host-sdk'

const devnet: CustomNetwork = {
  id: 'eip155:31338',
  name: 'Team Devnet',
  rpcUrl: 'http://127.0.0.1:8546',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
}
const options: AirlockOptions = { projectId: 'demo', networks: ['eip155:1'], customNetworks: [devnet], themeMode: 'dark' }
const airlock: Airlock = createAirlock(options)
export const state: State['status'] = airlock.getState().status
export const chainId: Promise<unknown> = airlock.providers.eip155.request({ method: 'eth_chainId' })
export const accounts = airlock.providers.solana.accounts.map((account) => account.address)
// The script tag's instance, typed by @airlock/host-sdk/global.
export const opened: Promise<void> = window.airlock.open({ view: 'Networks' })
window.addEventListener('airlock:ready', (event: Event) => event.type)
// @ts-expect-error a view the modal does not offer
airlock.open({ view: 'Nowhere' })
`,
  },
  {
    dir: 'host-sdk/react',
    peers: ['react@^19', 'react-dom@^19', '@types/react@^19', '@types/react-dom@^19'],
    esm: reactServerRender(
      "const { AirlockProvider, ConnectButton } = await import('@airlock/react'); const { createElement } = await import('react'); const { renderToString } = await import('react-dom/server')",
    ),
    cjs: reactServerRender(
      "const { AirlockProvider, ConnectButton } = require('@airlock/react'); const { createElement } = require('react'); const { renderToString } = require('react-dom/server')",
    ),
    types: `import { AirlockProvider, ConnectButton, type UseAccountReturnType, useAccount, useOpen } from '@airlock/react'
import { createElement } from 'react'

export const app = createElement(
  AirlockProvider,
  { options: { projectId: 'demo', networks: ['eip155:1'] } },
  createElement(ConnectButton, { label: 'Connect', showBalance: false }),
)
export function useBalance(): bigint | undefined {
  const account: UseAccountReturnType = useAccount()
  return account.balance?.value
}
export const useNetworks = () => useOpen().open({ view: 'Networks' })
`,
  },
  {
    dir: 'host-sdk/wagmi',
    esmOnly: true,
    peers: ['@wagmi/core@^3', 'viem@^2', '@tanstack/query-core@^5'],
    esm: wagmiConfig(
      "const { airlock } = await import('@airlock/wagmi'); const { createConfig, http } = await import('@wagmi/core'); const { mainnet } = await import('viem/chains')",
    ),
    // CommonJS reaches an ES-only package through import(), as it reaches wagmi.
    cjs: `(async () => {${wagmiConfig(
      "const { airlock } = await import('@airlock/wagmi'); const { createConfig, http } = await import('@wagmi/core'); const { mainnet } = await import('viem/chains')",
    )}})()`,
    types: `import { type AirlockParameters, airlock } from '@airlock/wagmi'
import { type CreateConnectorFn, createConfig, http } from '@wagmi/core'
import { mainnet } from 'viem/chains'

const parameters: AirlockParameters = { projectId: 'demo', networks: ['eip155:1'] }
const connector: CreateConnectorFn = airlock(parameters)
export const config = createConfig({ chains: [mainnet], connectors: [connector], transports: { [mainnet.id]: http() } })
`,
  },
]
