import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAirlock } from '../Airlock.ts'
import type { AirlockOptions } from '../AirlockOptions.ts'
import { installPage } from './testPage.ts'

afterEach(() => vi.unstubAllGlobals())

const modalUrl = 'http://127.0.0.1:5174'
const create = (options: Partial<Record<keyof AirlockOptions, unknown>>) => () =>
  createAirlock({ networks: ['eip155:1'], ...options } as AirlockOptions)
const noProject = new TypeError('Airlock: `projectId` is missing (data-project-id); is its env variable set?')
const badModalUrl = new TypeError("Airlock: `modalUrl` must be your modal's http(s) URL (data-modal-url).")

describe('options createAirlock cannot start without', () => {
  it('refuses a missing projectId (an unset environment variable), naming the fix, before mounting', () => {
    const page = installPage()
    expect(create({ projectId: undefined, modalUrl })).toThrow(noProject)
    expect(create({ projectId: '  ', modalUrl })).toThrow(noProject)
    expect(create({ projectId: 42, modalUrl })).toThrow(noProject)
    expect(page.frames()).toEqual([])
  })

  it('refuses a modalUrl that is not an http(s) URL, and a missing one outside airlock.js', () => {
    const page = installPage()
    expect(create({ projectId: 'demo', modalUrl: '127.0.0.1:5174' })).toThrow(badModalUrl)
    expect(create({ projectId: 'demo', modalUrl: 'javascript:alert(1)' })).toThrow(badModalUrl)
    expect(create({ projectId: 'demo' })).toThrow(badModalUrl)
    expect(page.frames()).toEqual([])
    const airlock = createAirlock({ projectId: 'demo', modalUrl, networks: ['eip155:1'] })
    expect(page.frames()).toHaveLength(1)
    airlock.destroy()
  })

  it('lets a server go without modalUrl (it has no script tag), still refusing a missing projectId', () => {
    expect(typeof window).toBe('undefined')
    expect(create({ projectId: 'demo' })).not.toThrow()
    expect(create({ projectId: '' })).toThrow(noProject)
  })
})
