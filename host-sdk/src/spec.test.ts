/**
 * The host SDK's documented values (docs/behaviour.md), written out as literals and read through behaviour (docs/behaviour.md §8 and §9: the frame
 * load time-out of 20 s, bridge calls that need no person 30 s, and the reasons a host's `onTimeout` gets).
 * A change to any of them turns this red, so it can only be a deliberate change to this file too.
 */
import { Errors } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import { createAirlock } from './Airlock.ts'
import { type FakeIframe, fakeClock, installPage, pass, serveModal } from './internal/testPage.ts'

const modalUrl = 'http://127.0.0.1:5174'

fakeClock()

/** Settles into a record, so a test can look at a promise without awaiting it. */
function watch(promise: Promise<unknown>) {
  const outcome: { error?: unknown; settled: boolean } = { settled: false }
  promise.then(
    () => Object.assign(outcome, { settled: true }),
    (error: unknown) => Object.assign(outcome, { settled: true, error }),
  )
  return outcome
}

describe('docs/behaviour.md §8–9: the host’s time-outs', () => {
  it('gives up on a frame that never loads after exactly 20 s, with iframe_load_failed', async () => {
    installPage()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const reasons: string[] = []
    const airlock = createAirlock({
      projectId: 'demo',
      modalUrl,
      networks: ['eip155:1'],
      onTimeout: (reason) => reasons.push(reason),
    })
    const opened = watch(airlock.open())
    await pass(19_900)
    await vi.advanceTimersByTimeAsync(99)
    expect(reasons).toEqual([])
    expect(opened.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(reasons).toEqual(['iframe_load_failed'])
    expect(opened.error).toMatchObject({ code: -32603, reason: 'iframe_load_failed' })
    // One console error, naming where Airlock looked and what to check.
    expect(logged.mock.calls).toEqual([
      [
        'Airlock: The Airlock modal failed to load.\n' +
          'Nothing answered at http://127.0.0.1:5174; is the modal running there? (modalUrl)',
      ],
    ])
    airlock.destroy()
  })

  it('fails a call that needs no person after exactly 30 s of silence, with iframe_request_timeout', async () => {
    const page = installPage()
    const reasons: string[] = []
    const airlock = createAirlock({
      projectId: 'demo',
      modalUrl,
      networks: ['eip155:1'],
      onTimeout: (reason) => reasons.push(reason),
    })
    // A modal that is alive (it answers the heartbeat) but never answers this request.
    let asked: () => void = () => {}
    const reached = new Promise<void>((resolve) => {
      asked = resolve
    })
    const modal = await serveModal(page.frames()[0] as FakeIframe, {
      request: () => {
        asked()
        return new Promise(() => {})
      },
    })
    const call = watch(airlock.providers.eip155.request({ method: 'eth_blockNumber' }))
    // The call's clock started when it was sent, before it reached the modal; the clock has not moved since.
    await reached
    await pass(29_900)
    await vi.advanceTimersByTimeAsync(99)
    expect(call.settled).toBe(false)
    expect(reasons).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(call.error).toBeInstanceOf(Errors.TimeoutError)
    expect(call.error).toMatchObject({
      code: -32603,
      reason: 'iframe_request_timeout',
      message: 'The Airlock modal did not answer in time.',
    })
    expect(reasons).toEqual(['iframe_request_timeout'])
    airlock.destroy()
    modal.close()
  })
})
