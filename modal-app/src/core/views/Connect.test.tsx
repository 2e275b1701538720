import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  type ConnectMethod,
  type ConnectorType,
  type ConnectRows,
  connectMethodOrder,
  connectorOrder,
} from '../Feature.ts'
import type { CoreSnapshot, CoreUi } from '../Snapshot.ts'
import { Connect, sectionsOf } from './Connect.tsx'

const icon = 'data:image/svg+xml,<svg/>'
const wallet = (name: string) => ({ id: name, namespace: 'eip155' as const, name, icon, chains: [] })

function render(order: string[] | undefined, methods?: string[]) {
  const snapshot = {
    wallets: [
      { wallet: wallet('Recent One'), recent: true },
      { wallet: wallet('Page Two'), recent: false },
    ],
    connectorOrder: connectorOrder(
      order ? { features: { connectorTypeOrder: order as ConnectorType[] } } : {},
    ),
    connectMethods: connectMethodOrder(
      methods ? { features: { connectMethodsOrder: methods as ConnectMethod[] } } : {},
    ),
  } as unknown as CoreSnapshot
  const rows = [
    { walletConnect: () => <li>QR row</li>, last: () => <li>Last row</li> },
    { recommended: () => <li>Recommended row</li> },
    ...(methods ? [{ email: () => <p>Email form</p>, social: () => <p>Social buttons</p> }] : []),
  ]
  const html = renderToStaticMarkup(<Connect snapshot={snapshot} ui={{} as CoreUi} rows={rows} />)
  const names = ['Recent One', 'Page Two', 'QR row', 'Recommended row', 'Last row']
  return [...names, ...(methods ? ['Email form', 'Social buttons'] : [])].sort(
    (a, b) => html.indexOf(a) - html.indexOf(b),
  )
}

describe('Connect', () => {
  it('puts the ways in that need no wallet first by default: email, social, then the wallets', () => {
    expect(render(undefined, [])).toEqual([
      'Email form',
      'Social buttons',
      'Recent One',
      'Page Two',
      'QR row',
      'Recommended row',
      'Last row',
    ])
  })

  it('orders email, social and wallets as the host’s connectMethodsOrder says, the rest after', () => {
    expect(render(undefined, ['wallet', 'bogus', 'social'])).toEqual([
      'Recent One',
      'Page Two',
      'QR row',
      'Recommended row',
      'Last row',
      'Social buttons',
      'Email form',
    ])
  })

  it('lists the page wallets, recent first, then the features’ rows, and the last row last', () => {
    expect(render(undefined)).toEqual(['Recent One', 'Page Two', 'QR row', 'Recommended row', 'Last row'])
  })

  it('orders the groups as the host’s connectorTypeOrder says', () => {
    expect(render(['recommended', 'walletConnect', 'injected'])).toEqual([
      'Recommended row',
      'QR row',
      'Page Two',
      'Recent One',
      'Last row',
    ])
  })

  it('heads its sections Recent, Installed and Popular, in the host’s group order', () => {
    expect(sectionsOf(connectorOrder({})).map(({ section }) => section)).toEqual([
      'recent',
      'installed',
      'popular',
    ])
    const html = markup({})
    const headings = [...html.matchAll(/<h2 class="section-title"[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1])
    expect(headings).toEqual(['Recent', 'Installed', 'Popular'])
    expect(html.indexOf('Recent One')).toBeLessThan(html.indexOf('>Installed<'))
    expect(html.indexOf('Page Two')).toBeLessThan(html.indexOf('>Popular<'))
    // Every section's list is named by its heading.
    expect(html.match(/aria-labelledby=/g)?.length).toBe(3)
  })

  it('offers "New to wallets?" with what a wallet is and where to get one', () => {
    const html = markup({}, [{ getWallet: () => <a href="https://wallet.example">Get it</a> }])
    expect(html).toContain('<summary>New to wallets?</summary>')
    expect(html).toContain('A wallet holds your crypto')
    expect(html).toContain('https://wallet.example')
  })

  it('keeps every way in disabled until the terms are accepted, with legalCheckbox', () => {
    const legal = {
      checkbox: true,
      terms: 'https://dapp.example/terms',
      privacy: 'https://dapp.example/privacy',
    }
    const html = markup({ legal })
    expect(html).toMatch(/<fieldset class="connect-methods" disabled="">/)
    expect(html).toContain('type="checkbox"')
    expect(html).toContain('I agree to the terms of service and the privacy policy')
    expect(html).toContain('href="https://dapp.example/terms" target="_blank" rel="noopener noreferrer"')
    expect(html).toContain('href="https://dapp.example/privacy"')
  })

  it('shows no checkbox and no foot by default (legalCheckbox off, no links)', () => {
    const html = markup({ legal: { checkbox: false } })
    expect(html).toMatch(/<fieldset class="connect-methods">/)
    expect(html).not.toContain('type="checkbox"')
    expect(html).not.toContain('class="legal"')
  })

  it('links the terms alone when the project has them but asks for no checkbox', () => {
    const html = markup({ legal: { checkbox: false, terms: 'https://dapp.example/terms' } })
    expect(html).toMatch(/<fieldset class="connect-methods">/)
    expect(html).toContain('Terms of Service')
    expect(html).not.toContain('Privacy Policy')
  })
})

function markup(extra: Record<string, unknown>, rows: ConnectRows[] = []) {
  const snapshot = {
    wallets: [
      { wallet: wallet('Recent One'), recent: true },
      { wallet: wallet('Page Two'), recent: false },
    ],
    connectorOrder: connectorOrder({}),
    connectMethods: connectMethodOrder({}),
    ...extra,
  } as unknown as CoreSnapshot
  const all = [{ featured: () => <li>Featured row</li> }, ...rows]
  return renderToStaticMarkup(<Connect snapshot={snapshot} ui={{} as CoreUi} rows={all} />)
}
