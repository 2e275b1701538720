import { describe, expect, it } from 'vitest'
import type { CustomNetwork } from '../CustomNetwork.ts'
import { modalConfig } from './modalConfig.ts'

const team: CustomNetwork = {
  id: 'eip155:31338',
  name: 'Team Devnet',
  rpcUrl: 'http://127.0.0.1:8546',
  explorer: { name: 'Team Scan', url: 'https://scan.team.example' },
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  iconUrl: 'data:image/svg+xml,%3Csvg/%3E',
  testnet: true,
}

/** What the modal reads: the config after its trip through the URL. */
const sent = (config: unknown) => JSON.parse(JSON.stringify(config))

describe('the modal’s config', () => {
  it('carries the page’s networks, RPC overrides and own networks whole', () => {
    const config = modalConfig(
      {
        projectId: 'demo',
        networks: ['eip155:31337', 'eip155:31338'],
        rpcUrls: { 'eip155:31337': 'http://127.0.0.1:9545' },
        customNetworks: [team],
      },
      false,
    )
    expect(sent(config)).toEqual({
      networks: ['eip155:31337', 'eip155:31338'],
      rpcUrls: { 'eip155:31337': 'http://127.0.0.1:9545' },
      customNetworks: [team],
    })
  })

  it('leaves out what the page did not set, and marks embedding and the older sign-in option', () => {
    expect(sent(modalConfig({ projectId: 'demo', networks: ['eip155:1'] }, false))).toEqual({
      networks: ['eip155:1'],
    })
    const config = modalConfig(
      {
        projectId: 'demo',
        networks: ['eip155:1'],
        siweConfig: { required: true },
        walletConnectProjectId: 'wc',
        preferredAccountTypes: { eip155: 'eip7702' },
      },
      true,
    )
    expect(sent(config)).toEqual({
      networks: ['eip155:1'],
      embedded: true,
      preferredAccountTypes: { eip155: 'eip7702' },
      walletConnect: { projectId: 'wc' },
      siwx: { required: true, legacy: true },
    })
  })

  it('passes the modal every option but the page’s own: callbacks, time-outs, ids it sends apart', () => {
    const config = modalConfig(
      {
        projectId: 'demo',
        modalUrl: 'https://modal.example',
        networks: ['eip155:1'],
        features: { history: false },
        allowUnsupportedChain: true,
        excludeWalletIds: ['io.metamask'],
        customWallets: [{ id: 'acme', name: 'Acme', iconUrl: 'https://acme.example/i.png' }],
        timeouts: { load: 1 },
        onTimeout: () => {},
        announce: false,
        append: false,
        walletConnectProjectId: 'wc',
        relayUrl: 'ws://127.0.0.1:8790',
      },
      false,
    )
    expect(sent(config)).toEqual({
      networks: ['eip155:1'],
      features: { history: false },
      allowUnsupportedChain: true,
      excludeWalletIds: ['io.metamask'],
      customWallets: [{ id: 'acme', name: 'Acme', iconUrl: 'https://acme.example/i.png' }],
      walletConnect: { projectId: 'wc', relayUrl: 'ws://127.0.0.1:8790' },
    })
  })

  it('passes the Telegram mini-app signal the page has, as text, for the modal to read', () => {
    const global = globalThis as { Telegram?: unknown }
    global.Telegram = { WebApp: { platform: 'ios', version: '8.0', initData: 'user=…' } }
    try {
      expect(sent(modalConfig({ projectId: 'demo', networks: ['eip155:1'] }, false))).toEqual({
        networks: ['eip155:1'],
        telegram: { platform: 'ios', version: '8.0' },
      })
      // Whatever the page put there serialises; the modal judges it (bridge-protocol's MiniApp).
      global.Telegram = { WebApp: { platform: Symbol('ios'), version: 8n } }
      expect(sent(modalConfig({ projectId: 'demo', networks: ['eip155:1'] }, false))).toEqual({
        networks: ['eip155:1'],
        telegram: { platform: 'Symbol(ios)', version: '8' },
      })
      delete global.Telegram
      expect(sent(modalConfig({ projectId: 'demo', networks: ['eip155:1'] }, false))).toEqual({
        networks: ['eip155:1'],
      })
    } finally {
      delete global.Telegram
    }
  })
})
