import { renderToStaticMarkup } from 'react-dom/server'
import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import * as Dwell from '../../core/ui/Dwell.ts'
import { GuardContext, type Visibility } from '../../core/ui/Guard.tsx'
import { texts } from '../../shared/texts.ts'
import GrantPermissions from './GrantPermissions.tsx'
import type { Session } from './Permissions.ts'
import { sessionTexts } from './texts.ts'

const session: Session = {
  chainId: 'eip155:31337',
  account: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  key: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  target: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  selector: '0xa9059cbb',
  functionName: 'transfer',
  limit: parseEther('10'),
  spends: 'token',
  gasAllowance: parseEther('0.01'),
  validUntil: 1_900_000_000,
  pci: `0x${'0'.repeat(192)}`,
}

function render(busy = false, visibility: Visibility = 'visible', gasAllowance = session.gasAllowance) {
  const grant = {
    session: { ...session, gasAllowance },
    origin: 'https://dapp.example',
    token: { symbol: 'ALT', decimals: 18 },
    busy,
  }
  const dwell = Dwell.create()
  dwell.saw(visibility)
  return renderToStaticMarkup(
    <GuardContext.Provider value={dwell}>
      <GrantPermissions snapshot={{ smartSessions: { grant } }} ui={{}} />
    </GuardContext.Provider>,
  )
}

const buttons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(
    ([, attributes = '', label]) => `${label}${attributes.includes('disabled') ? ' (disabled)' : ''}`,
  )

describe('GrantPermissions', () => {
  it('says which page asks, and what its key may do: function, contract, limit in token units, until when', () => {
    const html = render()
    expect(html).toContain(sessionTexts.asks('https://dapp.example'))
    expect(html).toContain('<dd>transfer</dd>')
    expect(html).toContain('ALT (0x5FbD…0aa3)')
    expect(html).toContain('<dd data-testid="session-limit">10 ALT</dd>')
    expect(html).toContain('0x7099…79C8')
    expect(buttons(html)).toEqual([sessionTexts.reject, `${sessionTexts.grant} (disabled)`])
  })

  it('says what the account may pay for the key’s network fees, or that only a sponsor pays', () => {
    expect(render()).toContain(`<dd data-testid="session-gas">${sessionTexts.gasAllowance('0.01 ETH')}</dd>`)
    expect(sessionTexts.gasAllowance('0.01 ETH')).toBe(
      'Up to 0.01 ETH from your account, when no sponsor pays',
    )
    expect(render(false, 'visible', 0n)).toContain(`<dd data-testid="session-gas">${sessionTexts.noGas}</dd>`)
  })

  it('keeps Grant disabled until the card has been in sight a while, and offers the approval window when it cannot be seen', () => {
    expect(buttons(render(false, 'pending'))).toEqual([
      sessionTexts.reject,
      `${sessionTexts.grant} (disabled)`,
    ])
    expect(buttons(render(false, 'unverifiable'))).toContain(texts.guard.continueInWindow)
  })

  it('disables both while the grant is being sent, and says what it waits for', () => {
    const html = render(true)
    expect(buttons(html)).toEqual([`${sessionTexts.reject} (disabled)`, `${sessionTexts.grant} (disabled)`])
    expect(html).toContain(sessionTexts.granting)
  })
})
