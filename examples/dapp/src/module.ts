/**
 * The ES module build, for bundled dApps and for tests that need options a script tag cannot carry:
 * `?modal=<url>` points at another modal origin, `?loadTimeout=<ms>` and `?requestTimeout=<ms>` shorten the
 * frame-load and request time-outs,
 * `?theme=dark|light` and `?accent=<colour>` theme the modal, `?relay=<ws url>` picks the WalletConnect relay,
 * `?networks=<caip2,…>` the networks, `?customNetworks=<JSON array>` declares networks of the page's own, and
 * `?siwx=optional|required|siwe` turns sign-in on, `?pay=on` switches Pay on (docs/behaviour.md §1: off by default),
 * and `?options=<JSON object>` adds any other options (features, excludeWalletIds, customWallets, …).
 * Providers, which a URL cannot carry, come from `window.airlockExternalWallets` when a script set it first.
 */
import {
  type AirlockOptions,
  type CustomNetwork,
  createAirlock,
  type ExternalWallet,
} from '@airlock/host-sdk'

const query = new URLSearchParams(location.search)
const timeouts: string[] = []
const siwx = query.get('siwx')
const airlock = createAirlock({
  projectId: query.get('project') ?? 'demo',
  modalUrl: query.get('modal') ?? 'http://airlock.localhost:5174',
  networks: query.get('networks')?.split(',') ?? ['eip155:31337', 'eip155:31338'],
  // Passed on unchecked: the modal is the one that validates them (a test may send bad ones on purpose).
  ...(query.get('customNetworks') && {
    customNetworks: JSON.parse(query.get('customNetworks') as string) as CustomNetwork[],
  }),
  timeouts: {
    load: Number(query.get('loadTimeout') ?? 20_000),
    request: Number(query.get('requestTimeout') ?? 30_000),
  },
  onTimeout: (reason) => timeouts.push(reason),
  walletConnectProjectId: 'demo',
  relayUrl: query.get('relay') ?? 'ws://127.0.0.1:8790',
  ...(query.get('theme') && { themeMode: query.get('theme') as 'light' | 'dark' }),
  ...(query.get('locale') && { locale: query.get('locale') as string }),
  ...(siwx === 'siwe' && { siweConfig: { statement: 'Sign in to the Airlock demo.' } }),
  ...((siwx === 'optional' || siwx === 'required') && {
    siwx: { required: siwx === 'required', statement: 'Sign in to the Airlock demo.' },
  }),
  ...(query.get('accent') && { themeVariables: { '--airlock-accent': query.get('accent') as string } }),
  ...(query.get('pay') === 'on' && { features: { pay: true } }),
  ...(query.get('accountType') && {
    preferredAccountTypes: { eip155: query.get('accountType') as 'smartAccount' | 'eip7702' | 'eoa' },
  }),
  externalWallets: (window as { airlockExternalWallets?: ExternalWallet[] }).airlockExternalWallets,
  // Passed on unchecked too, last so that they win: the modal judges them.
  ...(JSON.parse(query.get('options') ?? '{}') as Partial<AirlockOptions>),
})
Object.assign(window, { airlock, airlockTimeouts: timeouts })
;(document.getElementById('open') as HTMLElement).onclick = () => airlock.open()
// The promise settles with the hash only once the payment is confirmed on chain.
;(document.getElementById('pay') as HTMLElement).onclick = () =>
  airlock
    .pay({ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '0.01', chain: 'eip155:31337' })
    .then(
      (hash) => `paid ${hash}`,
      (error: { code?: number; message?: string }) => `error ${error.code}: ${error.message}`,
    )
    .then((text) => {
      ;(document.getElementById('paid') as HTMLElement).textContent = text
    })
