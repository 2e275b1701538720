import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import { Header, type HeaderProps } from './Header.tsx'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
// The registry's devnet: the network every journey runs on.
const network = find('eip155:31337') as Network
const account: HeaderProps['account'] = {
  namespace: 'eip155',
  address,
  chainId: 'eip155:31337',
  network,
  explorerUrl: `https://explorer.example/address/${address}`,
  wallet: {
    id: 'w',
    namespace: 'eip155',
    name: 'Airlock Test Wallet',
    icon: 'data:image/svg+xml,%3Csvg%3E',
    rdns: 'test',
    chains: [],
  },
  balance: '10,000.000 ETH',
  total: '$31,250.00',
  tokens: [],
}
const showNetworks = () => {}

const render = (overrides: Partial<HeaderProps['account']> = {}, ui: HeaderProps['ui'] = { showNetworks }) =>
  renderToStaticMarkup(<Header account={{ ...account, ...overrides }} ui={ui} onCopy={() => {}} />)

describe('the Account header', () => {
  it('keeps the address as the journeys and screen readers read it', () => {
    const html = render()
    expect(html).toContain(
      `<p class="address" title="${address}"><span data-testid="account-address" data-address="${address}" aria-hidden="true">0xf39F…2266</span><span class="sr-only">${address}</span></p>`,
    )
    expect(html).toContain('aria-label="Copy address"')
  })

  it('shows the identicon, not the wallet’s logo, without a profile avatar; the logo is a named badge', () => {
    const html = render()
    expect(html).toMatch(/<svg class="account-avatar-image" width="56" height="56"[^>]*aria-hidden="true"/)
    expect(html).toContain('class="account-wallet-badge"')
    expect(html).toContain('alt="Connected with Airlock Test Wallet"')
    expect(html).not.toContain('<img class="account-avatar-image"')
  })

  it('shows the profile’s avatar and name when the API has them', () => {
    const html = render({ profileName: 'alice.airlock', profileImage: 'https://avatars.example/alice.png' })
    expect(html).toContain('<img class="account-avatar-image" src="https://avatars.example/alice.png" alt=""')
    expect(html).not.toContain('<svg class="account-avatar-image"')
    expect(html).toContain(
      '<h2 id="account-header-title" tabindex="-1" class="account-name">alice.airlock</h2>',
    )
  })

  it('heads the account for screen readers only while it has no name, without a landmark of its own', () => {
    expect(render()).toContain(
      '<h2 id="account-header-title" tabindex="-1" class="sr-only">Your account</h2>',
    )
    // The card is the region; a second one named "Your account" would only repeat it.
    expect(render()).not.toContain('<section')
  })

  it('shows the fiat total and the native balance, each where the journeys find it', () => {
    const html = render()
    expect(html).toContain('<span data-testid="account-total">$31,250.00</span>')
    expect(html).toContain('<span class="sr-only">Total balance: </span>')
    expect(html).toContain('data-testid="account-balance">10,000.000 ETH</p>')
    expect(render({ total: undefined })).not.toContain('account-total')
  })

  it('offers the network as a button, and the explorer as a link that says it opens a tab', () => {
    const html = render()
    expect(html).toMatch(
      /<button type="button" class="network-badge">.*Network: <\/span><span class="network-badge-name">Airlock Devnet A<\/span><\/button>/,
    )
    expect(html).toContain(`href="https://explorer.example/address/${address}"`)
    expect(html).toContain('aria-label="View the address on the block explorer (opens in a new tab)"')
    expect(render({ explorerUrl: undefined })).not.toContain('<a ')
    // A chain the modal has no network for is named by its id.
    expect(render({ network: undefined, chainId: 'eip155:5' })).toContain(
      '<span class="network-badge-name">eip155:5</span>',
    )
  })
})
