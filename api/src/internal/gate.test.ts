import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Gate from './gate.ts'

/** Work that ends when the test says so. */
function held() {
  let end: (value: string) => void = () => {}
  const done = new Promise<string>((resolve) => {
    end = resolve
  })
  const work = vi.fn(() => done)
  return { work, end: (value: string) => end(value) }
}

describe('gate', () => {
  afterEach(() => vi.useRealTimers())

  it('runs up to its limit at once, lines up the next ones and starts each as a place frees', async () => {
    const gate = Gate.create({ limit: 2, waiting: 1, waitMs: 60_000 })
    const [a, b, c] = [held(), held(), held()]
    const ran = [gate.run(a.work), gate.run(b.work), gate.run(c.work)]
    expect([a.work, b.work, c.work].map((work) => work.mock.calls.length)).toEqual([1, 1, 0])
    expect(gate.load).toEqual({ running: 2, waiting: 1 })
    a.end('a')
    expect(await ran[0]).toBe('a')
    expect(c.work).toHaveBeenCalledOnce()
    b.end('b')
    c.end('c')
    expect(await Promise.all(ran)).toEqual(['a', 'b', 'c'])
    expect(gate.load).toEqual({ running: 0, waiting: 0 })
  })

  it('refuses at once, never starting it, what finds the line full', async () => {
    const gate = Gate.create({ limit: 1, waiting: 1, waitMs: 60_000 })
    const [a, b, c] = [held(), held(), held()]
    void gate.run(a.work)
    const waiting = gate.run(b.work)
    await expect(gate.run(c.work)).rejects.toBeInstanceOf(Gate.GateFullError)
    expect(c.work).not.toHaveBeenCalled()
    a.end('a')
    b.end('b')
    expect(await waiting).toBe('b')
  })

  it('refuses what waited its time without a place, and frees its place in line', async () => {
    vi.useFakeTimers()
    const gate = Gate.create({ limit: 1, waiting: 1, waitMs: 2_000 })
    const [a, b, c] = [held(), held(), held()]
    void gate.run(a.work)
    const late = gate.run(b.work)
    late.catch(() => {})
    await vi.advanceTimersByTimeAsync(2_000)
    await expect(late).rejects.toBeInstanceOf(Gate.GateFullError)
    expect(gate.load).toEqual({ running: 1, waiting: 0 })
    const next = gate.run(c.work)
    a.end('a')
    c.end('c')
    expect(await next).toBe('c')
    expect(b.work).not.toHaveBeenCalled()
  })

  it('frees the place of work that fails, and passes its failure on', async () => {
    const gate = Gate.create({ limit: 1, waiting: 0, waitMs: 1_000 })
    await expect(gate.run(() => Promise.reject(new Error('node down')))).rejects.toThrow('node down')
    await expect(
      gate.run(() => {
        throw new Error('at once')
      }),
    ).rejects.toThrow('at once')
    expect(await gate.run(async () => 'ok')).toBe('ok')
  })
})
