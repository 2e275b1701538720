import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import * as Wrapping from '../Wrapping.ts'
import * as WindowStore from './windowStore.ts'

/** The approval window's first-party `localStorage`. */
function localStorageOf(): Storage & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    get length() {
      return entries.size
    },
    key: (index) => [...entries.keys()][index] ?? null,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  }
}

const scope = 'embedded http://localhost:5173'
const put = { session: JSON.stringify({ token: 'T'.repeat(43) }), share: 'AQID+vv8' }
const keep = (request?: Record<string, string>) => ({
  type: 'airlock:keep' as const,
  scope,
  ...(request ? { put: request } : {}),
})

describe('what the approval window keeps for a frame with no storage', () => {
  it('keeps the frame’s secrets wrapped, and hands them back in clear to the frame that asks', async () => {
    const local = localStorageOf()
    const idb = new IDBFactory()
    const keyring = () => Wrapping.key(idb)
    expect(await WindowStore.keep(local, keep(put), keyring)).toEqual(put)
    expect(local.entries.size).toBe(2)
    for (const value of local.entries.values()) expect(Wrapping.isWrapped(value)).toBe(true)
    const dump = JSON.stringify([...local.entries])
    expect(dump).not.toContain('T'.repeat(43))
    expect(dump).not.toContain(put.share)
    expect(await WindowStore.keep(local, keep(), keyring)).toEqual(put)
    // A copy of that storage in another profile opens nothing.
    const copy = localStorageOf()
    for (const [name, value] of local.entries) copy.entries.set(name, value)
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await WindowStore.keep(copy, keep(), () => Wrapping.key(new IDBFactory()))).toEqual({})
    expect(warned).toHaveBeenCalledTimes(2)
    warned.mockRestore()
    // `{}` forgets.
    expect(await WindowStore.keep(local, keep({}), keyring)).toEqual({})
    expect(local.entries.size).toBe(0)
  })

  it('wraps what an earlier version kept in clear as it reads it', async () => {
    const local = localStorageOf()
    await WindowStore.keep(local, keep(put), async () => undefined)
    expect([...local.entries.values()].sort()).toEqual(Object.values(put).sort())
    const idb = new IDBFactory()
    expect(await WindowStore.keep(local, keep(), () => Wrapping.key(idb))).toEqual(put)
    expect([...local.entries.values()].every(Wrapping.isWrapped)).toBe(true)
    expect(await WindowStore.keep(local, keep(), () => Wrapping.key(idb))).toEqual(put)
  })

  it('answers an altered value as absent, leaves it as it is, and still hands back the rest', async () => {
    const local = localStorageOf()
    const idb = new IDBFactory()
    await WindowStore.keep(local, keep(put), () => Wrapping.key(idb))
    const name = `airlock-kept:${scope}:share`
    const altered = `${(local.entries.get(name) ?? '').slice(0, -4)}AAA=`
    local.entries.set(name, altered)
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await WindowStore.keep(local, keep(), () => Wrapping.key(idb))).toEqual({ session: put.session })
    expect(warned).toHaveBeenCalledWith(
      '[airlock]',
      expect.stringContaining(`“${name}” could not be unwrapped`),
    )
    warned.mockRestore()
    expect(local.entries.get(name)).toBe(altered)
  })

  it('keeps them in clear, as before, where IndexedDB is refused', async () => {
    const local = localStorageOf()
    const refused = () => Promise.reject(new DOMException('The user denied permission.', 'InvalidStateError'))
    expect(await WindowStore.keep(local, keep(put), refused)).toEqual(put)
    expect(await WindowStore.keep(local, keep(), refused)).toEqual(put)
  })
})
