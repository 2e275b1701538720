import { Schema } from '@airlock/bridge-protocol'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as HostStorage from './hostStorage.ts'

const modal = 'http://127.0.0.1:5174'

function pageStorage() {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
  vi.stubGlobal('localStorage', storage)
  return items
}

afterEach(() => vi.unstubAllGlobals())

describe('the modal’s state kept by the page', () => {
  it('keeps and drops keys under one entry per modal origin', () => {
    const items = pageStorage()
    HostStorage.write(modal, 'activeNetwork', '"eip155:1"')
    HostStorage.write(modal, 'connections', '{}')
    HostStorage.write(modal, 'connections', null)
    expect(HostStorage.read(modal)).toEqual({ activeNetwork: '"eip155:1"' })
    expect(HostStorage.read('http://other.example')).toEqual({})
    expect([...items.keys()]).toEqual([`airlock:${modal}`])
  })

  it('reads a broken or tampered entry as empty, and keeps only string values', () => {
    const items = pageStorage()
    items.set(`airlock:${modal}`, '{broken')
    expect(HostStorage.read(modal)).toEqual({})
    items.set(`airlock:${modal}`, JSON.stringify({ a: '1', b: 2, c: { d: 1 } }))
    expect(HostStorage.read(modal)).toEqual({ a: '1' })
  })

  it('refuses to grow past what the modal may read back, in size or in keys, and keeps what it had', () => {
    pageStorage()
    HostStorage.write(modal, 'a', '1')
    expect(() => HostStorage.write(modal, 'b', 'x'.repeat(Schema.hostStorageMax))).toThrow(
      expect.objectContaining({ code: -32602 }),
    )
    expect(HostStorage.read(modal)).toEqual({ a: '1' })
    for (let index = 1; index < Schema.hostStorageKeys; index++) HostStorage.write(modal, `k${index}`, '1')
    expect(() => HostStorage.write(modal, 'one-too-many', '1')).toThrow(
      expect.objectContaining({ code: -32602 }),
    )
    expect(Object.keys(HostStorage.read(modal))).toHaveLength(Schema.hostStorageKeys)
  })

  it('keeps nothing, and throws nothing, where the page has no storage either', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
    })
    expect(() => HostStorage.write(modal, 'a', '1')).not.toThrow()
    expect(HostStorage.read(modal)).toEqual({})
  })
})
