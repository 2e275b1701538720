import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import ConnectingFarcaster from './ConnectingFarcaster.tsx'

const url = 'https://farcaster.xyz/~/siwf?channelToken=abc'
const render = (farcaster: { url?: string; error?: string }) =>
  renderToStaticMarkup(<ConnectingFarcaster snapshot={{ embeddedWallet: { farcaster } }} ui={{}} />)

describe('the Farcaster sign-in view', () => {
  it('while waiting: the QR code, the link and progress, no error', () => {
    const html = render({ url })
    expect(html).toContain('data-testid="farcaster-qr"')
    expect(html).toContain('aria-busy="true"')
    expect(html).not.toContain('role="alert"')
  })

  it('after a failure: the error and Try again alone, no QR code of the spent link and no progress', () => {
    const html = render({ url, error: 'The sign-in expired.' })
    expect(html.match(/role="alert"/g)).toHaveLength(1)
    expect(html).toContain('The sign-in expired.')
    expect(html).not.toContain('farcaster-qr')
    expect(html).not.toContain('aria-busy')
    expect(html).not.toContain('spinner')
  })
})
