import { describe, expect, it } from 'vitest'
import { manualClock } from '../testing/clock.ts'
import * as Analytics from './Analytics.ts'
import type { Config } from './Config.ts'
import * as Storage from './Storage.ts'

function setup(
  features: Config['features'],
  enabled: boolean | Error = true,
  storage: Storage.Storage = Storage.create(),
) {
  const clock = manualClock(1_000_000)
  const sent: Analytics.Event[] = []
  let asked = 0
  let changes = 0
  const analytics = Analytics.create({
    features,
    enabled: async () => {
      asked++
      if (enabled instanceof Error) throw enabled
      return enabled
    },
    send: (event) => void sent.push(event),
    now: () => clock.now(),
    changed: () => {
      changes++
    },
    choice: { get: storage.getAnalyticsChoice, set: storage.setAnalyticsChoice },
  })
  return { analytics, sent, clock, asked: () => asked, changes: () => changes }
}

const event = (name = 'CONNECT_SUCCESS'): Analytics.Event => ({
  event: name,
  properties: { method: 'browser' },
})

describe('analytics', () => {
  it('sends nothing before the visitor has seen the notice, then sends', async () => {
    const { analytics, sent } = setup({})
    analytics.track(event())
    await analytics.check()
    expect(analytics.gate()).toBe('notice')
    expect(analytics.slice()).toEqual({ analyticsNotice: true })
    analytics.track(event())
    expect(sent).toEqual([])
    analytics.noticeShown()
    analytics.track(event('CONNECT_ERROR'))
    // Nothing from before the notice was kept to be sent later.
    expect(sent).toEqual([event('CONNECT_ERROR')])
  })

  it('tells nobody when the notice has been seen: it stays on the card as it was', async () => {
    const { analytics, changes } = setup({})
    await analytics.check()
    const before = changes()
    analytics.noticeShown()
    expect([analytics.gate(), analytics.slice(), changes()]).toEqual([
      'on',
      { analyticsNotice: true },
      before,
    ])
  })

  it('sends at once with the consent the host collected, and shows no notice', async () => {
    const { analytics, sent } = setup({ analyticsConsent: true })
    await analytics.check()
    expect(analytics.gate()).toBe('on')
    expect(analytics.slice()).toEqual({ analyticsNotice: false })
    analytics.track(event())
    expect(sent).toEqual([event()])
  })

  it('sends nothing, and shows no notice, when the project did not enable analytics, even with consent', async () => {
    const cases: Config['features'][] = [{}, { analyticsConsent: true }]
    for (const features of cases) {
      const { analytics, sent } = setup(features, false)
      await analytics.check()
      analytics.noticeShown()
      analytics.track(event())
      expect(analytics.gate()).toBe('off')
      expect(analytics.slice()).toEqual({ analyticsNotice: false })
      expect(sent).toEqual([])
    }
  })

  it('counts an unreadable project setting as off', async () => {
    const { analytics, sent } = setup({ analyticsConsent: true }, new Error('HTTP status code: 500'))
    await analytics.check()
    analytics.track(event())
    expect(analytics.gate()).toBe('off')
    expect(sent).toEqual([])
  })

  it('asks nothing and sends nothing when the host switched analytics off', async () => {
    const { analytics, sent, asked } = setup({ analytics: false, analyticsConsent: true })
    await analytics.check()
    analytics.track(event())
    expect(asked()).toBe(0)
    expect(sent).toEqual([])
  })

  it("stops for good when the visitor says Don't share; OK only closes the notice", async () => {
    const kept = setup({})
    await kept.analytics.check()
    kept.analytics.noticeShown()
    kept.analytics.dismiss()
    expect(kept.analytics.slice()).toEqual({ analyticsNotice: false })
    kept.analytics.track(event())
    expect(kept.sent).toHaveLength(1)

    const declined = setup({})
    await declined.analytics.check()
    declined.analytics.noticeShown()
    declined.analytics.decline()
    declined.analytics.noticeShown()
    declined.analytics.track(event())
    expect(declined.analytics.slice()).toEqual({ analyticsNotice: false })
    expect(declined.sent).toEqual([])
  })

  it('keeps the visitor’s answer for the next page load: a closed notice stays closed, Don’t share holds', async () => {
    const storage = Storage.create(Storage.memory())
    const first = setup({}, true, storage)
    await first.analytics.check()
    first.analytics.noticeShown()
    first.analytics.dismiss()
    const again = setup({}, true, storage)
    await again.analytics.check()
    expect(again.analytics.slice()).toEqual({ analyticsNotice: false })
    expect(again.analytics.gate()).toBe('on')
    again.analytics.track(event())
    expect(again.sent).toEqual([event()])

    again.analytics.decline()
    const after = setup({}, true, storage)
    await after.analytics.check()
    expect(after.analytics.gate()).toBe('off')
    expect(after.analytics.slice()).toEqual({ analyticsNotice: false })
    after.analytics.track(event())
    expect(after.sent).toEqual([])
  })

  it('forgets nothing it was not told: a notice only seen shows again on the next load', async () => {
    const storage = Storage.create(Storage.memory())
    const first = setup({}, true, storage)
    await first.analytics.check()
    first.analytics.noticeShown()
    const again = setup({}, true, storage)
    await again.analytics.check()
    expect(again.analytics.gate()).toBe('notice')
    expect(again.analytics.slice()).toEqual({ analyticsNotice: true })
  })

  it('tells a visitor once per page: a notice seen, then the modal closed, stays closed, this load and the next', async () => {
    const storage = Storage.create(Storage.memory())
    const first = setup({}, true, storage)
    await first.analytics.check()
    // Closed before the notice was on screen: it is still due.
    first.analytics.closed()
    expect(first.analytics.slice()).toEqual({ analyticsNotice: true })
    first.analytics.noticeShown()
    first.analytics.closed()
    expect(first.analytics.slice()).toEqual({ analyticsNotice: false })
    first.analytics.track(event())
    expect(first.sent).toHaveLength(1)
    const again = setup({}, true, storage)
    await again.analytics.check()
    expect([again.analytics.gate(), again.analytics.slice()]).toEqual(['on', { analyticsNotice: false }])
  })

  it('never sends MODAL_CREATED', async () => {
    const { analytics, sent } = setup({ analyticsConsent: true })
    await analytics.check()
    analytics.track(event('MODAL_CREATED'))
    analytics.track(event('MODAL_OPEN'))
    expect(sent.map((sent) => sent.event)).toEqual(['MODAL_OPEN'])
  })

  it('sends at most 5 events in any 60 s (docs/behaviour.md §9), more as the oldest leave the window', async () => {
    const { analytics, sent, clock } = setup({ analyticsConsent: true })
    await analytics.check()
    for (let i = 0; i < 5; i++) {
      analytics.track(event(`E${i}`))
      clock.advance(1_000)
    }
    analytics.track(event('dropped'))
    expect(sent.map((sent) => sent.event)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4'])
    // E0 went out at t0; at t0 + 60 s it leaves the window, and one more may go.
    clock.advance(60_000 - 5_000 - 1)
    analytics.track(event('still dropped'))
    clock.advance(1)
    analytics.track(event('E5'))
    analytics.track(event('dropped again'))
    expect(sent.map((sent) => sent.event)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'E5'])
  })

  it('asks the project’s setting once', async () => {
    const { analytics, asked } = setup({})
    await Promise.all([analytics.check(), analytics.check()])
    analytics.track(event())
    await analytics.check()
    expect(asked()).toBe(1)
  })
})

describe('connect events', () => {
  const rabby = { id: 'eip6963:rabby', name: 'Rabby' }
  const other = { id: 'eip6963:other', name: 'Other' }

  it('records a page wallet asked, connected and refused', () => {
    expect(
      Analytics.connectEvent({ value: 'disconnected' }, { value: 'prompting', wallet: rabby }, true),
    ).toEqual({
      event: 'CONNECT_STARTED',
      properties: { method: 'browser', name: 'Rabby' },
    })
    expect(
      Analytics.connectEvent(
        { value: 'prompting', wallet: rabby },
        { value: 'connected', wallet: rabby },
        true,
      ),
    ).toEqual({ event: 'CONNECT_SUCCESS', properties: { method: 'browser', name: 'Rabby' } })
    expect(
      Analytics.connectEvent(
        { value: 'prompting', wallet: rabby },
        { value: 'failed', wallet: rabby, failure: { message: 'User rejected the request.' } },
        true,
      ),
    ).toEqual({
      event: 'CONNECT_ERROR',
      properties: { name: 'Rabby', message: 'User rejected the request.' },
    })
  })

  it('records another wallet picked while one is asked, and nothing for reconnects or WalletConnect', () => {
    expect(
      Analytics.connectEvent(
        { value: 'prompting', wallet: rabby },
        { value: 'prompting', wallet: other },
        true,
      ),
    ).toMatchObject({ event: 'CONNECT_STARTED', properties: { name: 'Other' } })
    expect(
      Analytics.connectEvent(
        { value: 'reconnecting', wallet: rabby },
        { value: 'connected', wallet: rabby },
        true,
      ),
    ).toBeUndefined()
    expect(
      Analytics.connectEvent(
        { value: 'prompting', wallet: rabby },
        { value: 'connected', wallet: rabby },
        false,
      ),
    ).toBeUndefined()
  })
})
