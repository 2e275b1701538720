// @vitest-environment jsdom
import type { Airlock, AirlockOptions } from '@airlock/host-sdk'
import { act } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AirlockProvider, ConnectButton, useAccount } from './index.ts'

// React's `act` warns unless the environment says it is a test's.
Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

const options: AirlockOptions = {
  projectId: 'demo',
  modalUrl: 'http://127.0.0.1:5174',
  networks: ['eip155:31337'],
  customNetworks: [
    {
      id: 'eip155:31337',
      name: 'Airlock Devnet A',
      rpcUrl: 'http://127.0.0.1:8545',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
  ],
}

function Status() {
  const { status, address, wallet } = useAccount()
  return <p>{`status ${status} ${address ?? 'none'} ${wallet?.name ?? ''}`}</p>
}
const app = (airlock?: Airlock) => (
  <AirlockProvider options={options} airlock={airlock}>
    <main>
      <h1>Shop</h1>
      <ConnectButton />
      <Status />
    </main>
  </AirlockProvider>
)

/** Renders as a server does: no `window`, no `document`. */
function serverRender(airlock?: Airlock): string {
  vi.stubGlobal('window', undefined)
  vi.stubGlobal('document', undefined)
  try {
    expect(typeof window).toBe('undefined')
    return renderToString(app(airlock))
  } finally {
    vi.unstubAllGlobals()
  }
}

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

/** Hydrates the server's HTML; returns what React and the console complained about. */
function hydrate(html: string, airlock?: Airlock): unknown[] {
  const complaints: unknown[] = []
  vi.spyOn(console, 'error').mockImplementation((...args) => complaints.push(args))
  vi.spyOn(console, 'warn').mockImplementation((...args) => complaints.push(args))
  const container = document.createElement('div')
  container.innerHTML = html
  document.body.append(container)
  act(() => {
    root = hydrateRoot(container, app(airlock), {
      onRecoverableError: (error) => complaints.push(error),
    })
  })
  return complaints
}

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
/**
 * An instance the modal has already connected, as the page's one would be after a reload. jsdom runs no
 * cross-origin frame, so the modal's side is this object: the state it mirrors and the provider's balance.
 */
function connected(reported: Record<string, unknown> = {}): Airlock {
  const state = {
    ...reported,
    open: false,
    view: 'Account',
    status: 'connected',
    address,
    caipAddress: `eip155:31337:${address}`,
    caipNetworkId: 'eip155:31337',
    wallet: { name: 'Airlock Test Wallet', rdns: 'dev.airlock.testwallet' },
    namespaces: { eip155: { chainId: 'eip155:31337', accounts: [{ address }] } },
  } as const
  const request = vi.fn(async ({ method }: { method: string }) =>
    method === 'eth_getBalance' ? '0x21e19e0c9bab2400000' : null,
  )
  connectedRequest = request
  return {
    getState: () => state,
    subscribeState: () => () => {},
    providers: { eip155: { request } },
  } as unknown as Airlock
}

let connectedRequest: ReturnType<typeof vi.fn> | undefined

describe('server rendering and hydration', () => {
  it('renders the page and a Connect Wallet button on a server, touching no window', () => {
    const html = serverRender()
    expect(html).toContain('<h1>Shop</h1>')
    expect(html).toContain('Connect Wallet')
    expect(html).toContain('status disconnected')
  })

  it('hydrates without a mismatch or a console error, then mounts the modal frame in an effect', () => {
    const html = serverRender()
    const complaints = hydrate(html)
    expect(complaints).toEqual([])
    expect(document.querySelector('button')?.textContent).toBe('Connect Wallet')
    expect(document.querySelector('iframe[title="Airlock"]')).not.toBeNull()
  })

  it('hydrates over an instance that is already connected, then shows the account and balance', async () => {
    const airlock = connected()
    const html = serverRender(airlock)
    expect(html).toContain('Connect Wallet')
    const complaints = hydrate(html, airlock)
    await act(async () => {})
    expect(complaints).toEqual([])
    expect(document.querySelector('[data-testid="airlock-address"]')?.textContent).toBe('0xf39F…2266')
    expect(document.querySelector('[data-testid="airlock-balance"]')?.textContent).toBe('10,000.000 ETH')
    expect(document.querySelector('[aria-label="Network: Airlock Devnet A"]')).not.toBeNull()
    expect(document.body.textContent).toContain(`status connected ${address} Airlock Test Wallet`)
  })

  it("shows the modal's own reading of the account (protocol 1.4): its name, balance and network, no page read", async () => {
    const airlock = connected({
      networkName: 'Devnet A',
      profile: { name: 'alice.eth' },
      balance: { value: '1500000000000000000', decimals: 18, symbol: 'ETH' },
    })
    const complaints = hydrate(serverRender(airlock), airlock)
    await act(async () => {})
    expect(complaints).toEqual([])
    expect(document.querySelector('[data-testid="airlock-address"]')?.textContent).toBe('alice.eth')
    expect(document.querySelector('[data-testid="airlock-balance"]')?.textContent).toBe('1.500 ETH')
    expect(document.querySelector('[aria-label="Network: Devnet A"]')).not.toBeNull()
    expect(connectedRequest).not.toHaveBeenCalled()
  })

  it('tells a developer who forgot the provider what is missing', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => renderToString(<ConnectButton />)).toThrow(
      'Airlock hooks must be used inside <AirlockProvider>.',
    )
  })
})
