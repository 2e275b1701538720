import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { connectMethodOrder, connectorOrder } from '../Feature.ts'
import type { CoreSnapshot, CoreUi } from '../Snapshot.ts'
import { Connect } from './Connect.tsx'

const icon = 'data:image/svg+xml,<svg/>'
const wallet = (name: string) => ({ id: name, namespace: 'eip155' as const, name, icon, chains: [] })

function render(order: string[] | undefined, methods?: string[]) {
  const snapshot = {
    wallets: [
      { wallet: wallet('Recent One'), recent: true },
      { wallet: wallet('Page Two'), recent: false },
    ],
    connectorOrder: connectorOrder(order ? { features: { connectorTypeOrder: order } } : {}),
    connectMethods: connectMethodOrder(methods ? { features: { connectMethodsOrder: methods } } : {}),
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
})
