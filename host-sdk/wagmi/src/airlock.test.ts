// @vitest-environment jsdom
import { type Airlock, createAirlock } from '@airlock/host-sdk'
import { createConfig, http } from '@wagmi/core'
import { defineChain } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { airlock } from './index.ts'

const devnetA = defineChain({
  id: 31337,
  name: 'Airlock Devnet A',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})
const options = { projectId: 'demo', modalUrl: 'http://127.0.0.1:5174', networks: ['eip155:31337'] }

// A page wallet as an extension announces itself (EIP-6963), answering every discovery request.
function announcePageWallet(signal: AbortSignal) {
  const detail = Object.freeze({
    info: Object.freeze({
      uuid: crypto.randomUUID(),
      name: 'Page Wallet',
      icon: 'data:image/svg+xml,',
      rdns: 'example.page',
    }),
    provider: { request: async () => null, on() {}, removeListener() {} },
  })
  const post = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', post, { signal })
  post()
}

let instance: Airlock | undefined
const stop = new AbortController()
afterEach(() => {
  instance?.destroy()
  stop.abort()
})

describe('airlock() in a wagmi config with multi-injected discovery', () => {
  it("lists Airlock once (its EIP-6963 announcement folds into the connector) and the page's wallet once", () => {
    announcePageWallet(stop.signal)
    instance = createAirlock(options)
    const config = createConfig({
      chains: [devnetA],
      connectors: [airlock({ airlock: instance })],
      transports: { [devnetA.id]: http() },
    })
    const names = config.connectors.map((c) => c.name)
    expect(names.filter((n) => n === 'Airlock')).toHaveLength(1)
    expect(names.filter((n) => n === 'Page Wallet')).toHaveLength(1)
    expect(config.connectors.find((c) => c.name === 'Airlock')).toMatchObject({
      id: 'dev.airlock',
      type: 'airlock',
    })
  })

  it("hands wagmi the shared instance's EIP-1193 provider, and answers the chain without a round trip", async () => {
    instance = createAirlock(options)
    const config = createConfig({
      chains: [devnetA],
      connectors: [airlock({ airlock: instance })],
      transports: { [devnetA.id]: http() },
    })
    const connector = config.connectors[0]
    expect(await connector?.getProvider()).toBe(instance.providers.eip155)
    expect(await connector?.getChainId()).toBe(31337)
  })

  it("marks the page wallet the modal connected as disconnected in wagmi's storage, so a reload keeps it behind Airlock", async () => {
    const real = createAirlock(options)
    instance = real
    let report: (state: ReturnType<Airlock['getState']>) => void = () => {}
    // The modal's side cannot run in jsdom: this instance reports what a modal that connected the page's
    // wallet mirrors (its name and rdns), first nothing, then the connection.
    const connected = {
      ...real,
      getState: () => ({ open: false, view: 'Connect', status: 'disconnected', namespaces: {} }) as const,
      subscribeState: (callback: typeof report) => {
        report = callback
        return () => {}
      },
    } as Airlock
    const config = createConfig({
      chains: [devnetA],
      connectors: [airlock({ airlock: connected })],
      transports: { [devnetA.id]: http() },
    })
    await config.connectors[0]?.getProvider()
    expect(await config.storage?.getItem('example.page.disconnected')).toBeNull()
    report({
      ...connected.getState(),
      status: 'connected',
      wallet: { name: 'Page Wallet', rdns: 'example.page' },
    })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await config.storage?.getItem('example.page.disconnected')).toBe(true)
    expect(await config.storage?.getItem('dev.airlock.disconnected')).toBeNull()
  })

  it('refuses to switch to a chain the wagmi config does not have', async () => {
    instance = createAirlock(options)
    const config = createConfig({
      chains: [devnetA],
      connectors: [airlock({ airlock: instance })],
      transports: { [devnetA.id]: http() },
    })
    await expect(config.connectors[0]?.switchChain?.({ chainId: 1 })).rejects.toMatchObject({
      name: 'SwitchChainError',
      code: 4902,
    })
  })
})
