import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import ConnectingSocial from './ConnectingSocial.tsx'

const render = (social: { provider: string; error?: string; opening: boolean }) =>
  renderToStaticMarkup(<ConnectingSocial snapshot={{ embeddedWallet: { social } }} ui={{}} />)

describe('the social login view', () => {
  it('while the provider’s window is open: what to do there, with progress, no error', () => {
    const html = render({ provider: 'github', opening: false })
    expect(html).toContain('Finish logging in with GitHub in the window that opened.')
    expect(html).toContain('aria-busy="true"')
    expect(html).not.toContain('role="alert"')
  })

  it('once the wallet opens, says so', () => {
    expect(render({ provider: 'github', opening: true })).toContain('Opening your wallet…')
  })

  it('after a failure: the error and Try again alone, no progress', () => {
    const html = render({ provider: 'google', error: 'The login was cancelled.', opening: false })
    expect(html.match(/role="alert"/g)).toHaveLength(1)
    expect(html).toContain('data-testid="social-error"')
    expect(html).toContain('The login was cancelled.')
    expect(html).toContain('Try again</button>')
    expect(html).not.toContain('aria-busy')
    expect(html).not.toContain('spinner')
  })
})
