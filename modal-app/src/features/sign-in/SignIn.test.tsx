import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import SignIn from './SignIn.tsx'
import type { SignInUi } from './SignInFlow.ts'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const account: AccountInfo = {
  namespace: 'eip155',
  address,
  chainId: 'eip155:31337',
  wallet: {
    id: 'w',
    namespace: 'eip155',
    name: 'Airlock Test Wallet',
    icon: 'data:image/svg+xml,%3Csvg%3E',
    rdns: 'test',
    chains: [],
  },
}

// The view reads only the account, the origin and its own slice; the rest of the snapshot is the core's.
const render = (shown: AccountInfo & { profileName?: string }) =>
  renderToStaticMarkup(
    <SignIn
      snapshot={{ account: shown, origin: 'http://localhost:5173' } as CoreSnapshot<typeof shown>}
      ui={{} as CoreUi & SignInUi}
    />,
  )

/** The account line as a visitor reads it, and as a screen reader does. */
const line = (html: string) => html.match(/<p class="signin-account"[^>]*>(.*?)<\/p>/)?.[0] ?? ''

describe('the sign-in view', () => {
  it('shows the account that signs in by its shortened address, in full in the title and for screen readers', () => {
    expect(line(render(account))).toBe(
      `<p class="signin-account" data-testid="signin-account" title="${address}">Signing in as <span aria-hidden="true">0xf39F…2266</span><span class="sr-only">${address}</span></p>`,
    )
  })

  it('shows the name the API knows beside the address', () => {
    const html = line(render({ ...account, profileName: 'alice.eth' }))
    expect(html).toContain(
      'Signing in as <strong>alice.eth </strong><span aria-hidden="true">(0xf39F…2266)</span>',
    )
    expect(html).toContain(`title="${address}"`)
    expect(html).toContain(`<span class="sr-only">${address}</span>`)
  })

  it('shows no name for an account off EVM (SPEC §9: names are eip155’s)', () => {
    const solana = { ...account, namespace: 'solana' as const, chainId: 'solana:devnet' as const }
    expect(line(render({ ...solana, address: 'So1ana', profileName: 'alice.eth' }))).not.toContain(
      'alice.eth',
    )
  })
})
