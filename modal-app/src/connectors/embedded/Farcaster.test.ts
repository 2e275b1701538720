import { describe, expect, it, vi } from 'vitest'
import { manualClock } from '../../testing/clock.ts'
import type { Account } from './Account.ts'
import * as Farcaster from './Farcaster.ts'

/** The sign-in on a clock the test moves, with an API whose channel opens at once and stays pending. */
function setup() {
  const clock = manualClock()
  const account = {
    farcaster: {
      channel: vi.fn(async () => ({
        channelToken: 'token',
        url: 'https://farcaster.xyz/~/siwf?channel=token',
      })),
      status: vi.fn(async () => 'pending' as const),
    },
  } as unknown as Account
  let view = 'Connect'
  const kernel = {
    router: {
      send: (event: { type: string; view?: string }) => {
        if (event.type === 'PUSH' && event.view) view = event.view
      },
      view: () => view,
      isOpen: () => true,
    },
    changed: () => {},
    timers: clock.timers,
    now: clock.now,
  } as unknown as Farcaster.FarcasterOptions['kernel']
  const farcaster = Farcaster.create({ kernel, account, loggedIn: () => {} })
  return { clock, account, farcaster }
}

describe('Sign In With Farcaster, going back (docs/behaviour.md §2)', () => {
  it('with no login made, stops asking and reloads the logins 100 ms after the Back, not before', async () => {
    const { clock, account, farcaster } = setup()
    await farcaster.begin()
    expect(farcaster.slice()?.url).toContain('channel=token')
    const reload = vi.fn()
    farcaster.left(false, reload)
    expect(farcaster.slice()).toBeUndefined()
    clock.advance(99)
    expect(reload).not.toHaveBeenCalled()
    clock.advance(1)
    expect(reload).toHaveBeenCalledOnce()
    // The channel left behind is asked nothing more.
    clock.advance(60_000)
    expect(account.farcaster.status).not.toHaveBeenCalled()
    expect(clock.waiting()).toEqual([])
  })

  it('with a login made, reloads nothing', async () => {
    const { clock, farcaster } = setup()
    await farcaster.begin()
    const reload = vi.fn()
    farcaster.left(true, reload)
    clock.advance(1_000)
    expect(reload).not.toHaveBeenCalled()
  })

  it('a new sign-in within the 100 ms cancels the pending reload', async () => {
    const { clock, farcaster } = setup()
    const reload = vi.fn()
    farcaster.left(false, reload)
    await farcaster.begin()
    clock.advance(100)
    expect(reload).not.toHaveBeenCalled()
    expect(farcaster.slice()?.url).toContain('channel=token')
  })
})
