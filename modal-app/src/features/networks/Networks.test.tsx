import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import type { Network } from '../../shared/Network.ts'
import { group } from './groups.ts'
import Networks from './Networks.tsx'
import type { NetworksSlice, NetworksUi } from './types.ts'
import UnsupportedChain from './UnsupportedChain.tsx'

const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
const network = (id: Network['id'], name: string, extra: Partial<Network> = {}): Network => ({
  id,
  namespace: id.split(':')[0] as Network['namespace'],
  name,
  nativeCurrency: ether,
  rpcUrl: '',
  testnet: false,
  ...extra,
})
const networks = [
  network('bip122:000000000019d6689c085ae165831e93', 'Bitcoin'),
  network('eip155:1', 'Ethereum'),
  network('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Solana Devnet', { testnet: true }),
  network('eip155:31338', 'Team Devnet', { testnet: true, iconUrl: 'https://icons.example/team.png' }),
]
const ui = {} as CoreUi & NetworksUi

function render(slice: Partial<NetworksSlice>, core: Partial<CoreSnapshot> = {}, view = Networks) {
  const snapshot = { networks, ...core, ...slice } as CoreSnapshot & Partial<NetworksSlice>
  const View = view
  return renderToStaticMarkup(<View snapshot={snapshot} ui={ui} />)
}

/** The text of each heading and row, in document order. */
const outline = (html: string) =>
  [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>|<button([^>]*)>(.*?)<\/button>/g)].map(
    ([, heading, tag, row]) => {
      if (heading !== undefined) return heading
      const label = (row ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
      return tag?.includes('aria-current="true"') ? `${label} *` : label
    },
  )

describe('the Networks view', () => {
  it('lists networks under their namespace, EVM first, the host’s order kept, testnets tagged', () => {
    const current = { eip155: 'eip155:31338', solana: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' } as const
    const html = render({
      networkGroups: group(networks, (namespace) => current[namespace as keyof typeof current]),
    })
    expect(outline(html)).toEqual([
      'EVM',
      'E Ethereum',
      'Team Devnet Testnet *',
      'Solana',
      'S Solana Devnet Testnet *',
      'Bitcoin',
      'B Bitcoin',
    ])
  })

  it('names each list and heading for screen readers, and shows the network’s icon or its initial', () => {
    const html = render({ networkGroups: group(networks, () => undefined) })
    expect(html).toContain('<section class="network-group" aria-labelledby="networks-eip155">')
    expect(html).toContain('<h2 class="label" id="networks-eip155">EVM</h2>')
    expect(html).toContain('<ul class="list network-list" aria-label="EVM">')
    expect(html).toContain('<img class="network-icon" src="https://icons.example/team.png" alt=""')
    expect(html).toMatch(
      /<svg class="network-icon network-monogram" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" data-chain="eip155:1"><circle [^>]*fill="hsl\(\d+ 55% 38%\)"><\/circle><text [^>]*>E<\/text><\/svg>/,
    )
    expect(html).not.toContain('aria-current')
  })

  it('groups the core’s list itself until the feature’s logic is in', () => {
    const html = render({}, { activeNetworkId: 'eip155:1' })
    expect(outline(html)).toEqual([
      'EVM',
      'E Ethereum *',
      'Team Devnet Testnet',
      'Solana',
      'S Solana Devnet Testnet',
      'Bitcoin',
      'B Bitcoin',
    ])
  })
})

describe('a network without an icon', () => {
  it('gets one drawn here, its initial on a hue of its chain id: no icon is fetched', () => {
    const html = render({ networkGroups: group(networks, () => undefined) })
    const hues = [...html.matchAll(/data-chain="([^"]+)"><circle [^>]*fill="hsl\((\d+) /g)].map(
      ([, id, hue]) => [id, hue],
    )
    expect(hues.map(([id]) => id)).toEqual([
      'eip155:1',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'bip122:000000000019d6689c085ae165831e93',
    ])
    expect(new Set(hues.map(([, hue]) => hue)).size).toBe(3)
    // The same chain always gets the same picture.
    expect(render({ networkGroups: group(networks, () => undefined) })).toBe(html)
  })
})

describe('the UnsupportedChain view', () => {
  it('names the chain the wallet is on and offers the EVM networks', () => {
    const html = render(
      { networkGroups: group(networks, () => undefined), unsupportedNetwork: 'Base' },
      {},
      UnsupportedChain,
    )
    expect(html).toContain(
      'Your wallet is on Base, which this app doesn’t support. Switch to an available option to continue.',
    )
    expect(outline(html)).toEqual(['E Ethereum', 'Team Devnet Testnet', 'Disconnect'])
  })

  it('falls back to the general text when the chain is not known', () => {
    const html = render({}, {}, UnsupportedChain)
    expect(html).toContain('This app doesn’t support your current network.')
  })
})
