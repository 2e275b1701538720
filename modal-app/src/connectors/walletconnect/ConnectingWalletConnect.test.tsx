import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import ConnectingWalletConnect from './ConnectingWalletConnect.tsx'
import type { PairingInfo } from './Flow.ts'
import type { PairingUi } from './types.ts'

const rainbow = { id: 'r', name: 'Rainbow', mobileLink: 'rainbow://', webappLink: null }
const uri = 'wc:0123@2?relay-protocol=irn&symKey=abc'

const render = (pairing: PairingInfo, deepLinksFirst = false) =>
  renderToStaticMarkup(
    <ConnectingWalletConnect
      snapshot={{ pairing, deepLinksFirst } as unknown as CoreSnapshot}
      ui={{} as CoreUi & PairingUi}
    />,
  )

const qr = /<svg[^>]*aria-label="WalletConnect QR code"/

describe('the WalletConnect pairing view', () => {
  it('while preparing: progress only, no QR code and no error', () => {
    const html = render({ status: 'proposing', links: [] })
    expect(html).toContain('Preparing the connection…')
    expect(html).toContain('aria-busy="true"')
    expect(html).not.toMatch(qr)
    expect(html).not.toContain('role="alert"')
  })

  it('while waiting: the QR code, the wait and when the code expires', () => {
    const html = render({ status: 'waiting', uri, expiresAt: Date.UTC(2026, 0, 1, 12, 3, 50), links: [] })
    expect(html).toMatch(qr)
    expect(html).toContain('Waiting for your wallet to approve…')
    expect(html).toMatch(/data-testid="wc-expiry">This code expires at [^<]+</)
    expect(html).not.toContain('role="alert"')
  })

  it('once expired: says so with Retry, and neither QR code nor progress', () => {
    const html = render({ status: 'expired', expiresAt: 0, links: [] })
    expect(html).toContain('This code has expired.')
    expect(html).toContain('>Retry</button>')
    expect(html).not.toMatch(qr)
    expect(html).not.toContain('Preparing')
    expect(html).not.toContain('Waiting')
  })

  it('after a failure: the error and Try again, and neither QR code nor progress', () => {
    const html = render({
      status: 'failed',
      uri,
      failure: { code: 5000, message: 'User rejected.' },
      links: [],
    })
    expect(html.match(/role="alert"/g)).toHaveLength(1)
    expect(html).toContain('User rejected.')
    expect(html).toContain('>Try again</button>')
    expect(html).not.toMatch(qr)
    expect(html).not.toContain('aria-busy')
    expect(html).not.toContain('Waiting')
  })

  it('on a phone: the wallet’s app first, the QR code behind Show QR code', () => {
    const html = render({ status: 'waiting', uri, target: rainbow, links: ['mobile'] }, true)
    expect(html).not.toMatch(qr)
    const buttons = [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map(([, label]) => label)
    expect(buttons).toEqual(['Open Rainbow', 'Show QR code', 'Copy link'])
  })

  it('on a desktop, or on a phone for a wallet without an app link: the QR code', () => {
    expect(render({ status: 'waiting', uri, target: rainbow, links: [] }, true)).toMatch(qr)
    expect(render({ status: 'waiting', uri, target: rainbow, links: ['mobile'] }, false)).toMatch(qr)
  })
})
