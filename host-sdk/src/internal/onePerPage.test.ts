import { afterEach, describe, expect, it, vi } from 'vitest'
import { version } from '../../package.json'
import { createAirlock } from '../Airlock.ts'
import { type FakeElement, type FakeIframe, installPage, serveModal } from './testPage.ts'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.resetModules()
})

const modalUrl = 'http://127.0.0.1:5174'
const options = { projectId: 'demo', modalUrl, networks: ['eip155:1'] }
const again = `Airlock ${version} not started: ${version} already runs here. Load it once, or destroy() it first.`

describe('one Airlock per page', () => {
  it('answers a second createAirlock() with the running instance and one console error, no second frame', async () => {
    const page = installPage()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const first = createAirlock(options)
    const second = createAirlock({ ...options, projectId: 'other' })
    expect(second).toBe(first)
    expect(page.frames()).toHaveLength(1)
    expect(logged.mock.calls).toEqual([[again]])

    // The first instance is untouched: it still opens the modal it mounted.
    const opened = vi.fn()
    const modal = await serveModal(page.frames()[0] as FakeIframe, { open: opened })
    await second.open({ view: 'Networks' })
    expect(opened).toHaveBeenCalledWith({ view: 'Networks' })
    first.destroy()
    modal.close()
  })

  it('names both versions when another copy of Airlock already runs', () => {
    installPage()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const first = createAirlock(options)
    // What an older copy of the SDK leaves on the page: its instance under the shared symbol.
    const running = (window as unknown as Record<symbol, { version: string }>)[Symbol.for('airlock.host-sdk')]
    if (!running) throw new Error('nothing registered')
    running.version = '0.0.9'
    expect(createAirlock(options)).toBe(first)
    expect(logged.mock.calls).toEqual([
      [`Airlock ${version} not started: 0.0.9 already runs here. Load it once, or destroy() it first.`],
    ])
    first.destroy()
  })

  it('starts afresh once the running instance is destroyed', () => {
    const page = installPage()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const first = createAirlock(options)
    first.destroy()
    const next = createAirlock(options)
    expect(next).not.toBe(first)
    expect(page.frames()).toHaveLength(1)
    expect(logged).not.toHaveBeenCalled()
    next.destroy()
  })

  it('airlock.js loaded twice: the second script keeps window.airlock and mounts nothing', async () => {
    const page = installPage()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const tag = page.document.createElement('script') as FakeElement
    Object.assign(tag.dataset, { projectId: 'demo', networks: 'eip155:1', modalUrl })
    vi.stubGlobal('HTMLScriptElement', class {})
    Object.assign(page.document, { currentScript: tag })
    const ready = vi.fn()
    addEventListener('airlock:ready', ready)

    await import('../script.ts')
    const airlock = (window as unknown as { airlock: unknown }).airlock
    // A second copy of the script is a second module instance, as in a browser.
    vi.resetModules()
    await import('../script.ts')
    expect((window as unknown as { airlock: unknown }).airlock).toBe(airlock)
    expect(page.frames()).toHaveLength(1)
    expect(logged.mock.calls).toEqual([[again]])
    expect(ready).toHaveBeenCalledTimes(2)
    ;(airlock as { destroy(): void }).destroy()
  })
})
