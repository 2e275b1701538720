import { describe, expect, it } from 'vitest'
import * as Schema from './Schema.ts'
import * as S from './Shape.ts'

const wallet = {
  id: 'eip6963:1',
  namespace: 'eip155',
  name: 'Wallet',
  icon: 'data:image/svg+xml;base64,PHN2Zy8+',
  chains: [],
}

describe('Schema', () => {
  it('accepts page wallets with inline icons only, so the modal never fetches a URL the page chose', () => {
    expect(S.parse(Schema.pageWallet, wallet).ok).toBe(true)
    expect(S.parse(Schema.pageWallet, { ...wallet, icon: 'https://tracker.example/pixel.png' }).ok).toBe(
      false,
    )
    expect(S.parse(Schema.pageWallet, { ...wallet, icon: 'javascript:alert(1)' }).ok).toBe(false)
  })

  it('keeps only the keys a shape names', () => {
    const parsed = S.parse(Schema.pageWallet, { ...wallet, extra: 'dropped', __proto__: { polluted: true } })
    expect(parsed.ok && Object.keys(parsed.value).sort()).toEqual([
      'chains',
      'icon',
      'id',
      'name',
      'namespace',
    ])
  })

  it("shapes each namespace's requests by method, with the texts people see for CAIP ids", () => {
    expect(
      S.parse(Schema.request, { namespace: 'bip122', method: 'bitcoin:connect', params: { silent: true } })
        .ok,
    ).toBe(true)
    expect(
      S.parse(Schema.request, { namespace: 'solana', method: 'solana:signMessage', params: { address: 'a' } })
        .ok,
    ).toBe(false)
    expect(S.parse(Schema.request, { namespace: 'cosmos', method: 'x' }).ok).toBe(false)
    const state = {
      open: true,
      view: 'Account',
      status: 'connected',
      namespaces: {},
      caipNetworkId: 'eip155',
    }
    expect(S.parse(Schema.state, state)).toEqual({ ok: false, message: 'Invalid CAIP-2 network id' })
  })

  it('carries a social login’s provider in the state’s user, and still reads a state without one', () => {
    const state = (user: Record<string, unknown>) => ({
      open: false,
      view: 'Account',
      status: 'connected',
      namespaces: {},
      user: { authProvider: 'github', preferredAccountType: 'eoa', ...user },
    })
    const social = S.parse(Schema.state, state({ socialProvider: 'github', username: 'linus' }))
    expect(social.ok && social.value.user).toEqual({
      username: 'linus',
      authProvider: 'github',
      socialProvider: 'github',
      preferredAccountType: 'eoa',
    })
    // What a modal from before the field sends: the host takes it as it was.
    const older = S.parse(Schema.state, state({ authProvider: 'email', email: 'ada@mail.example' }))
    expect(older.ok && older.value.user).toEqual({
      email: 'ada@mail.example',
      authProvider: 'email',
      preferredAccountType: 'eoa',
    })
    // Farcaster is a login of its own, not one of the product's social providers (docs/behaviour.md §1).
    expect(S.parse(Schema.state, state({ socialProvider: 'farcaster' })).ok).toBe(false)
  })

  it("carries the connected wallet's name, icon and rdns, and reads states from before the field", () => {
    const base = { open: false, view: 'Account', status: 'connected', namespaces: {} }
    const icon = 'data:image/svg+xml,<svg/>'
    const wallet = { name: 'Airlock Test Wallet', icon, rdns: 'dev.airlock.testwallet' }
    const parsed = S.parse(Schema.state, { ...base, wallet })
    expect(parsed.ok && parsed.value.wallet).toEqual(wallet)
    const phone = S.parse(Schema.state, { ...base, wallet: { name: 'Phone Wallet' } })
    expect(phone.ok && phone.value.wallet).toEqual({ name: 'Phone Wallet' })
    const older = S.parse(Schema.state, base)
    expect(older.ok && older.value.wallet).toBeUndefined()
    // Only inline icons, as everywhere on the bridge: an http one would make the page fetch a URL.
    expect(
      S.parse(Schema.state, { ...base, wallet: { ...wallet, icon: 'https://x.example/i.png' } }).ok,
    ).toBe(false)
    expect(S.parse(Schema.state, { ...base, wallet: { name: '' } }).ok).toBe(false)
  })

  it('picks the result shape of a request', () => {
    const signed = Schema.resultOf({ namespace: 'bip122', method: 'bitcoin:signMessage' })
    expect(S.parse(signed, { signedMessage: new Uint8Array(1), signature: new Uint8Array(65) }).ok).toBe(true)
    expect(S.parse(signed, { signature: 'not bytes' }).ok).toBe(false)
    expect(S.parse(Schema.resultOf({ namespace: 'eip155', method: 'eth_call' }), '0x').ok).toBe(true)
  })
  it("refuses a payment's bad fields with a text that names the field and what it takes", () => {
    const payment = { to: `0x${'1'.repeat(40)}`, amount: '0.05', asset: 'native', chain: 'eip155:31337' }
    expect(S.parse(Schema.payment, payment).ok).toBe(true)
    expect(S.parse(Schema.payment, { ...payment, asset: undefined, amount: '12' }).ok).toBe(true)
    const refusal = (patch: Record<string, unknown>) => {
      const parsed = S.parse(Schema.payment, { ...payment, ...patch })
      return parsed.ok ? 'accepted' : parsed.message
    }
    expect(refusal({ to: '0x1234' })).toBe(Schema.payTexts.to)
    expect(refusal({ amount: '0' })).toBe(Schema.payTexts.amount)
    expect(refusal({ amount: '-1' })).toBe(Schema.payTexts.amount)
    expect(refusal({ amount: '1e18' })).toBe(Schema.payTexts.amount)
    expect(refusal({ asset: 'USDC' })).toBe(Schema.payTexts.asset)
    expect(refusal({ chain: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toBe(Schema.payTexts.chain)
    expect(S.parse(Schema.transactionHash, `0x${'a'.repeat(64)}`).ok).toBe(true)
    expect(S.parse(Schema.transactionHash, '0x1234').ok).toBe(false)
  })
})
