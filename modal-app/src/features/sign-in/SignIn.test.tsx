import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import * as Locale from '../../shared/i18n/Locale.ts'
import SignIn from './SignIn.tsx'
import type { Preview, SignInInfo, SignInUi } from './SignInFlow.ts'

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
const render = (shown: AccountInfo & { profileName?: string }, signIn?: SignInInfo) =>
  renderToStaticMarkup(
    <SignIn
      snapshot={
        { account: shown, origin: 'http://localhost:5173', signIn } as CoreSnapshot<typeof shown> & {
          signIn?: SignInInfo
        }
      }
      ui={{} as CoreUi & SignInUi}
    />,
  )

const issuedAt = Date.UTC(2026, 10, 22, 12, 0, 0)
const preview: Preview = {
  domain: 'shop.example',
  address,
  statement: 'Welcome back.',
  chainId: 'eip155:31337',
  chainName: 'Anvil',
  issuedAt,
  expiresAt: issuedAt + 86_400_000,
}

/** The text of a `data-testid` element, tags removed. */
const field = (html: string, id: string) =>
  html
    .match(new RegExp(`data-testid="${id}"[^>]*>(.*?)</(dd|p)>`))?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim()

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

  it('shows no name for an account off EVM (docs/behaviour.md §9: names are eip155’s)', () => {
    const solana = { ...account, namespace: 'solana' as const, chainId: 'solana:devnet' as const }
    expect(line(render({ ...solana, address: 'So1ana', profileName: 'alice.eth' }))).not.toContain(
      'alice.eth',
    )
  })
})

describe('the sign-in message preview', () => {
  const html = render(account, { status: 'idle', required: false, preview })

  it('shows the domain, the statement and the chain by name and id', () => {
    expect(field(html, 'signin-domain')).toBe('shop.example')
    expect(field(html, 'signin-statement')).toBe('Welcome back.')
    expect(field(html, 'signin-chain')).toBe('Anvil (eip155:31337)')
  })

  it('shows the address shortened, in full in its title, for screen readers and on focus', () => {
    const dd = html.match(/<dd class="signin-address"[^>]*>.*?<\/dd>/)?.[0] ?? ''
    expect(dd).toContain(`title="${address}"`)
    expect(dd).toContain('tabindex="0"')
    expect(dd).toContain('<span class="signin-address-short" aria-hidden="true">0xf39F…2266</span>')
    expect(dd).toContain(`<span class="signin-address-full">${address}</span>`)
  })

  it('shows issuance and expiry relative and as dates (Intl)', () => {
    expect(field(html, 'signin-issued')).toMatch(/^now · /)
    expect(field(html, 'signin-expires')).toMatch(/^tomorrow · |^in 1 day · /)
    expect(html).toContain(`dateTime="${new Date(preview.expiresAt).toISOString()}"`)
  })

  it('says when in the modal’s language', async () => {
    await Locale.use({ locale: 'de', tag: 'de' })
    try {
      const german = render(account, { status: 'idle', required: false, preview })
      expect(field(german, 'signin-issued')).toMatch(/^jetzt · /)
      expect(field(german, 'signin-expires')).toMatch(/^morgen · 23\.11\.2026/)
    } finally {
      await Locale.use({ locale: 'en', tag: 'en' })
    }
  })

  it('names the chain by its id where it has no name', () => {
    const bare = render(account, {
      status: 'idle',
      required: false,
      preview: { ...preview, chainName: undefined },
    })
    expect(field(bare, 'signin-chain')).toBe('eip155:31337')
  })

  it('shows one error after a decline, and no progress beside it', () => {
    const declined = render(account, {
      status: 'declined',
      required: false,
      error: 'Signature declined',
      preview,
    })
    expect(declined.match(/role="alert"/g)).toHaveLength(1)
    expect(field(declined, 'signin-error')).toBe('Signature declined')
    expect(declined).not.toContain('Waiting for your signature')
  })

  it('shows progress and no error while signing', () => {
    const signing = render(account, { status: 'signing', required: false, preview })
    expect(signing).not.toContain('role="alert"')
    expect(signing).toContain('Waiting for your signature…')
  })
})
