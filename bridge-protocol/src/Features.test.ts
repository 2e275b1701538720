import { describe, expect, it } from 'vitest'
import { closest, features, isOn } from './Features.ts'
import { parse } from './Shape.ts'

const read = (value: unknown) => parse(features, value)

describe('features', () => {
  it('takes every switch and order the modal honours', () => {
    const all = {
      swaps: false,
      onramp: false,
      receive: false,
      send: false,
      email: false,
      emailShowWallets: false,
      history: false,
      analytics: false,
      analyticsConsent: true,
      allWallets: false,
      legalCheckbox: true,
      smartSessions: false,
      collapseWallets: true,
      pay: true,
      socials: ['github', 'google'],
      connectorTypeOrder: ['walletConnect', 'custom'],
      walletFeaturesOrder: ['send'],
      connectMethodsOrder: ['wallet', 'email'],
    }
    expect(read(all)).toEqual({ ok: true, value: all })
    expect(read({ socials: false })).toEqual({ ok: true, value: { socials: false } })
  })

  it('refuses a misspelt switch, naming the path and the switch it was likely meant to be', () => {
    expect(read({ histroy: false })).toEqual({
      ok: false,
      message: 'features.histroy: unknown switch; did you mean history?',
    })
    expect(read({ Swaps: false })).toEqual({
      ok: false,
      message: 'features.Swaps: unknown switch; did you mean swaps?',
    })
    expect(read({ emailShowWallet: true })).toEqual({
      ok: false,
      message: 'features.emailShowWallet: unknown switch; did you mean emailShowWallets?',
    })
    expect(read({ teleport: true })).toEqual({ ok: false, message: 'features.teleport: unknown switch' })
  })

  it('refuses a value of the wrong kind, and unknown or repeated names in an order', () => {
    expect(read({ history: 'no' })).toEqual({
      ok: false,
      message: 'features.history: expected true or false',
    })
    expect(read({ socials: ['google', 'myspace'] })).toEqual({
      ok: false,
      message: 'features.socials[1]: expected one of google, x, discord, farcaster, github, apple, facebook',
    })
    expect(read({ socials: true })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^features.socials:/),
    })
    expect(read({ connectorTypeOrder: ['walletConnect', 'walletconnect'] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^features.connectorTypeOrder\[1\]: expected one of walletConnect/),
    })
    expect(read({ walletFeaturesOrder: ['send', 'send'] })).toEqual({
      ok: false,
      message: 'features.walletFeaturesOrder: send is named twice',
    })
    expect(read(['swaps'])).toEqual({ ok: false, message: 'features: expected an object' })
  })

  it('reads a switch the host left out as its default', () => {
    expect(isOn({}, 'history')).toBe(true)
    expect(isOn({}, 'pay')).toBe(false)
    expect(isOn({}, 'legalCheckbox')).toBe(false)
    expect(isOn({}, 'collapseWallets')).toBe(false)
    expect(isOn({ features: { history: false } }, 'history')).toBe(false)
    expect(isOn({ features: { pay: true } }, 'pay')).toBe(true)
  })
})

describe('closest', () => {
  it('finds a name two edits away or in another case, and nothing further', () => {
    expect(closest('alwallets', ['allWallets', 'analytics'])).toBe('allWallets')
    expect(closest('ANALYTICS', ['allWallets', 'analytics'])).toBe('analytics')
    expect(closest('onrmp', ['onramp'])).toBe('onramp')
    expect(closest('zzz', ['onramp'])).toBeUndefined()
  })
})
