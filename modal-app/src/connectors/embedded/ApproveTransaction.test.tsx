import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import * as Dwell from '../../core/ui/Dwell.ts'
import { GuardContext, type Visibility } from '../../core/ui/Guard.tsx'
import { texts } from '../../shared/texts.ts'
import ApproveTransaction from './ApproveTransaction.tsx'
import { approveTexts } from './approveTexts.ts'
import type { Approval, Description } from './Describe.ts'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const signMessage: Description = {
  title: 'Sign a message',
  rows: [{ label: 'Account', value: account, mono: true }],
  message: { label: 'Message', text: 'Sign in to <example.com>' },
  warnings: [],
}
const transfer: Description = {
  title: 'Send a transaction',
  rows: [
    { label: 'To', value: account, mono: true },
    { label: 'Value', value: '1.5 ETH' },
  ],
  warnings: ['This lets 0xabc spend all of this token you hold, now and later.'],
}

function render(approval: Partial<Approval> | undefined, visibility: Visibility = 'visible') {
  const snapshot = {
    embeddedWallet: approval && { approval: { origin: 'https://dapp.example', busy: false, ...approval } },
  }
  const dwell = Dwell.create()
  dwell.saw(visibility)
  return renderToStaticMarkup(
    <GuardContext.Provider value={dwell}>
      <ApproveTransaction snapshot={snapshot} ui={{}} />
    </GuardContext.Provider>,
  )
}

/** The buttons in order, each as its label and whether it is disabled. */
const buttons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(
    ([, attributes = '', label]) => `${label}${attributes.includes('disabled') ? ' (disabled)' : ''}`,
  )

describe('ApproveTransaction', () => {
  it('says which page asks what, and lists the rows as a description list', () => {
    const html = render({ description: transfer })
    expect(html).toContain(`<strong>https://dapp.example</strong> ${approveTexts.asks}`)
    expect(html).toContain('<h2 class="lead" id="approve-title">Send a transaction</h2>')
    expect(html).toContain(
      `<dl class="summary" aria-label="Details"><dt>To</dt><dd class="receive-address">${account}</dd><dt>Value</dt><dd>1.5 ETH</dd></dl>`,
    )
    expect(buttons(html)).toEqual([approveTexts.reject, `${approveTexts.approve} (disabled)`])
  })

  it('shows the message, escaped, in a labelled region the keyboard reaches before any button', () => {
    const html = render({ description: signMessage })
    expect(html).toContain('<h3 class="label" id="approve-message-label">Message</h3>')
    expect(html).toContain(
      '<section class="approve-message" aria-labelledby="approve-message-label" tabindex="0"><pre class="receive-address">Sign in to &lt;example.com&gt;</pre></section>',
    )
    expect(html.indexOf('tabindex="0"')).toBeLessThan(html.indexOf('<button'))
  })

  it('announces the warnings as an alert', () => {
    const html = render({ description: transfer })
    expect(html).toContain(
      `<div class="alert" role="alert"><p class="alert-title">${approveTexts.warningsLabel}</p><ul><li>${transfer.warnings[0]}</li></ul></div>`,
    )
    expect(render({ description: signMessage })).not.toContain('class="alert"')
  })

  it('keeps Approve off while the card is in sight but the request just showed, and says why to assistive technology', () => {
    const html = render({ description: transfer })
    expect(html).toContain(
      '<button type="button" class="button" disabled="" aria-busy="false" aria-describedby="airlock-guard-waiting">Approve</button>',
    )
    // Reject never waits.
    expect(html).toContain(
      '<button type="button" class="button button-secondary" aria-busy="false">Reject</button>',
    )
  })

  it('keeps Approve off until the guard has seen the card, and offers the window when it cannot', () => {
    expect(buttons(render({ description: transfer }, 'pending'))).toEqual([
      approveTexts.reject,
      `${approveTexts.approve} (disabled)`,
    ])
    const blocked = render({ description: transfer }, 'unverifiable')
    expect(blocked).toContain(texts.guard.unverified)
    expect(buttons(blocked)).toEqual([
      texts.guard.continueInWindow,
      approveTexts.reject,
      `${approveTexts.approve} (disabled)`,
    ])
    expect(render({ description: transfer })).not.toContain(texts.guard.unverified)
  })

  it('turns both buttons off and marks them busy while the approval is signed', () => {
    const html = render({ description: transfer, busy: true }, 'unverifiable')
    expect(buttons(html)).toEqual([`${approveTexts.reject} (disabled)`, `${approveTexts.approve} (disabled)`])
    expect(html.match(/<button[^>]*aria-busy="true"/g)).toHaveLength(2)
    expect(html).toContain('<div class="view" aria-busy="true">')
    expect(html).toContain(`<p class="muted" aria-live="polite">${approveTexts.busy}</p>`)
    expect(html).not.toContain(texts.guard.unverified)
  })

  it('shows why the last approval failed, and how many more requests wait', () => {
    const html = render({ description: transfer, error: 'insufficient funds', pending: 3 })
    expect(html).toContain('<p class="error-text" role="alert">insufficient funds</p>')
    expect(html).toContain(approveTexts.pending(2))
    expect(render({ description: transfer })).not.toContain(approveTexts.pending(1))
  })

  it('renders an empty view when no request waits', () => {
    expect(render(undefined)).toBe('<div class="view"></div>')
  })
})
