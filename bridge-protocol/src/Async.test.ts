import { describe, expect, it } from 'vitest'
import * as Async from './Async.ts'

/** A clock that moves only when told, and remembers what is still pending. */
function manualTimers() {
  let now = 0
  const pending = new Map<number, { at: number; callback: () => void }>()
  let next = 1
  const timers: Async.Timers = {
    setTimeout(callback, ms) {
      pending.set(next, { at: now + ms, callback })
      return next++
    },
    clearTimeout(handle) {
      pending.delete(handle as number)
    },
  }
  const advance = (ms: number) => {
    now += ms
    for (const [id, timer] of [...pending])
      if (timer.at <= now) {
        pending.delete(id)
        timer.callback()
      }
  }
  return { timers, advance, pending }
}

describe('Async.deferred', () => {
  it('settles from outside', async () => {
    const ready = Async.deferred<number>()
    ready.resolve(7)
    await expect(ready.promise).resolves.toBe(7)
  })

  it('keeps a rejection for whoever awaits later, without an unhandled rejection meanwhile', async () => {
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    const ready = Async.deferred()
    ready.reject(new Error('refused'))
    // Node reports a rejection nobody handled once the task that made it ends, before the next one runs.
    await new Promise((resolve) => setImmediate(resolve))
    process.off('unhandledRejection', record)
    expect(unhandled).toEqual([])
    await expect(ready.promise).rejects.toThrow('refused')
  })
})

describe('Async.withTimeout', () => {
  it('passes on the answer and clears its timer', async () => {
    const { timers, pending } = manualTimers()
    await expect(
      Async.withTimeout(Promise.resolve('ok'), 1000, () => new Error('late'), timers),
    ).resolves.toBe('ok')
    expect(pending.size).toBe(0)
  })

  it('passes on a failure and clears its timer', async () => {
    const { timers, pending } = manualTimers()
    const failed = Async.withTimeout(Promise.reject(new Error('no')), 1000, () => new Error('late'), timers)
    await expect(failed).rejects.toThrow('no')
    expect(pending.size).toBe(0)
  })

  it('rejects with the error the caller makes once the time is up', async () => {
    const { timers, advance } = manualTimers()
    const never = new Promise<never>(() => {})
    const limited = Async.withTimeout(never, 1000, () => new RangeError('The wallet did not answer.'), timers)
    advance(999)
    advance(1)
    await expect(limited).rejects.toThrow(RangeError)
  })

  it('uses the real clock by default', async () => {
    const never = new Promise<never>(() => {})
    await expect(Async.withTimeout(never, 5, () => new Error('late'))).rejects.toThrow('late')
  })
})

describe('once', () => {
  it('loads once and shares the result', async () => {
    let calls = 0
    const load = Async.once(async () => ++calls)
    expect(await Promise.all([load(), load()])).toEqual([1, 1])
    expect(await load()).toBe(1)
  })

  it('forgets a failure, so the next call tries again', async () => {
    let calls = 0
    const load = Async.once(async () => {
      calls += 1
      if (calls === 1) throw new Error('offline')
      return calls
    })
    await expect(load()).rejects.toThrow('offline')
    expect(await load()).toBe(2)
  })
})
