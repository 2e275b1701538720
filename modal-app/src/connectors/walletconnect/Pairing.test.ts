import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { expiryMarginMs, machine, pairingLifetimeMs, retryAfterMs, type Target } from './Pairing.ts'

function run() {
  const effects: { type: string; params?: unknown }[] = []
  const actor = createActor(
    machine.provide({
      actions: {
        propose: (_, params) => effects.push({ type: 'propose', params }),
        finalize: (_, params) => effects.push({ type: 'finalize', params }),
        reset: () => effects.push({ type: 'reset' }),
      },
    }),
  ).start()
  return { actor, effects, snap: () => actor.getSnapshot() }
}

const rainbow: Target = { id: 'r', name: 'Rainbow', mobileLink: 'rainbow://' }

describe('pairing machine', () => {
  it('proposes, shows the URI until 10 s before 4 minutes are up, then counts it expired', () => {
    const { actor, effects, snap } = run()
    actor.send({ type: 'START' })
    expect(snap().value).toBe('proposing')
    expect(effects).toEqual([{ type: 'propose', params: { attempt: 1 } }])
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 1_000 })
    expect(snap().value).toBe('waiting')
    expect(snap().context).toMatchObject({
      uri: 'wc:a@2',
      expiresAt: 1_000 + pairingLifetimeMs - expiryMarginMs,
    })
    actor.send({ type: 'EXPIRING', attempt: 1 })
    expect(snap().value).toBe('expired')
    expect(snap().context.uri).toBeUndefined()
    // Nothing is proposed until the visitor asks: a pairing nobody looks at is not renewed forever.
    expect(effects).toHaveLength(1)
  })

  it('makes a new pairing on Retry after the expiry, at once', () => {
    const { actor, effects, snap } = run()
    actor.send({ type: 'START' })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 0 })
    actor.send({ type: 'EXPIRING', attempt: 1 })
    actor.send({ type: 'RETRY', now: 0 })
    expect(snap().value).toBe('proposing')
    expect(effects.at(-1)).toEqual({ type: 'propose', params: { attempt: 2 } })
    // An approval of the expired pairing is not taken.
    actor.send({ type: 'PROPOSED', attempt: 2, uri: 'wc:b@2', now: 0 })
    actor.send({ type: 'APPROVED', attempt: 1, method: 'qrcode' })
    expect(snap().value).toBe('waiting')
    expect(snap().context.uri).toBe('wc:b@2')
  })

  it('ignores answers to a replaced pairing', () => {
    const { actor, snap } = run()
    actor.send({ type: 'START' })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 0 })
    actor.send({ type: 'EXPIRING', attempt: 1 })
    actor.send({ type: 'RETRY', now: 0 })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:old@2', now: 0 })
    expect(snap().context.uri).toBeUndefined()
    actor.send({ type: 'PROPOSED', attempt: 2, uri: 'wc:b@2', now: 0 })
    actor.send({ type: 'APPROVED', attempt: 1, method: 'qrcode' })
    expect(snap().value).toBe('waiting')
  })

  it('finalizes with the picked wallet and the method', () => {
    const { actor, effects, snap } = run()
    actor.send({ type: 'START', target: rainbow })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 0 })
    actor.send({ type: 'LINKED' })
    expect(snap().context.linking).toBe(true)
    actor.send({ type: 'APPROVED', attempt: 1, method: 'mobile' })
    expect(snap().value).toBe('approved')
    expect(effects.at(-1)).toEqual({ type: 'finalize', params: { target: rainbow, method: 'mobile' } })
  })

  it('allows a retry only 1 s after a failure', () => {
    const { actor, snap } = run()
    actor.send({ type: 'START' })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 0 })
    actor.send({
      type: 'FAILED',
      attempt: 1,
      failure: { code: 5000, message: 'User rejected.' },
      now: 10_000,
    })
    expect(snap().value).toBe('failed')
    expect(snap().context.failure).toEqual({ code: 5000, message: 'User rejected.' })
    actor.send({ type: 'RETRY', now: 10_000 + retryAfterMs - 1 })
    expect(snap().value).toBe('failed')
    actor.send({ type: 'RETRY', now: 10_000 + retryAfterMs })
    expect(snap().value).toBe('proposing')
    expect(snap().context.failure).toBeUndefined()
  })

  it('reset clears uri, expiry, linking and the wallet, and drops the stored deep link', () => {
    const { actor, effects, snap } = run()
    actor.send({ type: 'START', target: rainbow })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:a@2', now: 0 })
    actor.send({ type: 'LINKED' })
    actor.send({ type: 'RESET' })
    expect(snap().value).toBe('idle')
    expect(snap().context).toMatchObject({
      uri: undefined,
      expiresAt: undefined,
      linking: false,
      target: undefined,
    })
    expect(effects.at(-1)).toEqual({ type: 'reset' })
    // A late approval of the abandoned pairing changes nothing.
    actor.send({ type: 'APPROVED', attempt: 1, method: 'qrcode' })
    expect(snap().value).toBe('idle')
  })
})
