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
  // @airlock/react (host-sdk/react) and @airlock/wagmi (host-sdk/wagmi) join here, with their `peers`.
]
