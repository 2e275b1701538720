import { describe, expect, it, vi } from 'vitest'
import type { Kernel } from '../../core/Feature.ts'
import { embedded, socialsOf } from './feature.ts'

describe('the embedded wallet feature', () => {
  it('is on by default, with the default social providers in their order', () => {
    expect(embedded({})?.connectRows).toEqual({ email: expect.any(Function), social: expect.any(Function) })
    expect(socialsOf({})).toEqual(['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'])
  })

  it('follows the host: socials picked or off, email off, and nothing at all when both are', () => {
    expect(socialsOf({ features: { socials: ['github', 'google'] } })).toEqual(['github', 'google'])
    expect(socialsOf({ features: { socials: false } })).toEqual([])
    expect(Object.keys(embedded({ features: { email: false } })?.connectRows ?? {})).toEqual(['social'])
    expect(Object.keys(embedded({ features: { socials: false } })?.connectRows ?? {})).toEqual(['email'])
    expect(embedded({ features: { email: false, socials: false } })).toBeUndefined()
  })

  it('leaves out, in a Telegram mini-app, the logins its platform cannot finish (docs/behaviour.md)', () => {
    expect(socialsOf({ telegram: { platform: 'ios' } })).toEqual([
      'x',
      'discord',
      'farcaster',
      'github',
      'apple',
      'facebook',
    ])
    expect(socialsOf({ telegram: { platform: 'macos' } })).toEqual([
      'google',
      'discord',
      'farcaster',
      'github',
      'apple',
      'facebook',
    ])
    expect(socialsOf({ telegram: { platform: 'android' } })).toEqual([
      'google',
      'discord',
      'farcaster',
      'github',
      'apple',
    ])
    expect(socialsOf({ telegram: { platform: 'tdesktop' } })).toEqual(socialsOf({}))
  })

  it('says its words when its logic cannot load, and leaves the rows without actions', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const feature = embedded({}, () => Promise.reject(new Error('chunk 404')))
    const runtime = await feature?.load({ api: {} } as unknown as Kernel)
    expect(runtime?.ui).toBeUndefined()
    expect(runtime?.snapshot?.()).toEqual({
      embeddedWallet: {
        socials: [],
        email: { sending: false, error: 'Unable to load email login dependency', restorable: false },
      },
    })
    expect(error).toHaveBeenCalled()
    error.mockRestore()
  })

  it('says the same in a modal with no API to log in with', async () => {
    const runtime = await embedded({})?.load({ api: {} } as unknown as Kernel)
    expect(runtime?.snapshot?.()).toMatchObject({
      embeddedWallet: { email: { error: 'Unable to load email login dependency' } },
    })
  })
})
