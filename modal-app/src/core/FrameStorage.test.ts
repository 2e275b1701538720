import { describe, expect, it } from 'vitest'
import {
  backend,
  type Env,
  granted,
  type HostKeeper,
  keptByHost,
  prefix,
  request,
  scopedKey,
} from './FrameStorage.ts'
import { create } from './Storage.ts'

/** A Web Storage object as a browser hands one out; `denied` makes every access throw, as a blocked one does. */
function webStorage(denied = false): Storage {
  const entries = new Map<string, string>()
  const items = () => {
    if (denied) throw new DOMException('Access is denied for this document.', 'SecurityError')
    return entries
  }
  return {
    get length() {
      return items().size
    },
    key: (index) => [...items().keys()][index] ?? null,
    getItem: (key) => items().get(key) ?? null,
    setItem: (key, value) => void items().set(key, String(value)),
    removeItem: (key) => void items().delete(key),
    clear: () => items().clear(),
  }
}

/** A host page that keeps what it is handed, as host-sdk's hostStorage does. */
function hostPage(kept: Record<string, string> = {}) {
  const writes: { key: string; value: string | null }[] = []
  const host: HostKeeper = {
    storageRead: async () => ({ ...kept }),
    storageWrite: async (write) => void writes.push(write),
  }
  return { host, writes }
}

/** A frame whose own storage the browser denies, with the Storage Access API as given. */
function deniedFrame(access: { answer?: () => Promise<unknown>; permission?: string } = {}) {
  const calls: unknown[] = []
  const env: Env = {
    local: () => undefined,
    document: {
      requestStorageAccess: (types) => {
        calls.push(types)
        return (
          access.answer?.() ??
          Promise.reject(new DOMException('requestStorageAccess not allowed', 'NotAllowedError'))
        )
      },
    },
    permissions: {
      query: async () => {
        if (!access.permission) throw new TypeError("'storage-access' is not a valid permission name")
        return { state: access.permission }
      },
    },
  }
  return { env, calls }
}

const network = (id: string) => JSON.stringify(id)
/** The page the frame serves, as the handshake tells it. */
const page = 'https://dapp.example'
const key = (name: string) => scopedKey(page, prefix + name)

describe('the frame backend', () => {
  it("uses the frame's own storage where the browser allows it, and never asks nor hands the host anything", async () => {
    const own = webStorage()
    const { env, calls } = deniedFrame({ permission: 'granted' })
    const frame = backend({ ...env, local: () => own })
    frame.serve(page)
    await frame.ready
    const { host, writes } = hostPage({ activeNetwork: network('eip155:1') })
    await frame.attach(host)
    frame.request()
    create(frame).setActiveNetwork('eip155:31338')
    expect(frame.place()).toBe('frame')
    expect(own.getItem(key('activeNetwork'))).toBe(network('eip155:31338'))
    expect(create(frame).getActiveNetwork()).toBe('eip155:31338')
    expect(calls).toEqual([])
    expect(writes).toEqual([])
  })

  it('where the frame is denied and nothing was granted, the host page keeps the state and a click asks once', async () => {
    const { env, calls } = deniedFrame({ permission: 'prompt' })
    const frame = backend(env)
    frame.serve(page)
    await frame.ready
    expect(calls).toEqual([])
    const { host, writes } = hostPage({ activeNetwork: network('eip155:31338') })
    await frame.attach(host)
    expect(create(frame).getActiveNetwork()).toBe('eip155:31338')
    frame.request()
    frame.request()
    await Promise.resolve()
    expect(calls).toEqual([{ localStorage: true, indexedDB: true }])
    create(frame).setActiveNetwork('eip155:1')
    expect(frame.place()).toBe('host')
    expect(writes).toEqual([{ key: 'activeNetwork', value: network('eip155:1') }])
  })

  it("request() asks for this document's backend: what Connect's wallet list calls in the click", async () => {
    const { env, calls } = deniedFrame({ permission: 'prompt' })
    const frame = backend(env)
    frame.serve(page)
    await frame.ready
    request()
    expect(calls).toEqual([{ localStorage: true, indexedDB: true }])
  })

  it("a grant in the click moves this visit's state to first-party storage, and the host page is handed no more", async () => {
    const firstParty = webStorage()
    firstParty.setItem(key('recentWallets'), '[]')
    firstParty.setItem(key('activeNetwork'), network('eip155:10'))
    let answer: (handle: unknown) => void = () => {}
    const { env } = deniedFrame({
      permission: 'prompt',
      answer: () => new Promise((resolve) => (answer = resolve)),
    })
    const frame = backend(env)
    frame.serve(page)
    await frame.ready
    const { host, writes } = hostPage({ activeNetwork: network('eip155:31338') })
    await frame.attach(host)
    const storage = create(frame)
    const asked = frame.request()
    storage.addConnection({ namespace: 'eip155', name: 'Rabby', connector: 'injected' })
    // A second ask in the same click (a social login that leaves) waits for the same answer.
    const again = frame.request()
    answer({ localStorage: firstParty })
    await Promise.all([asked, again])
    expect(frame.place()).toBe('granted')
    expect(granted()).toBe(firstParty)
    // The page's choice of network wins over the origin's older one; what only the origin kept stays.
    expect(firstParty.getItem(key('activeNetwork'))).toBe(network('eip155:31338'))
    expect(firstParty.getItem(key('recentWallets'))).toBe('[]')
    expect(storage.getConnections('eip155')).toEqual([
      { namespace: 'eip155', name: 'Rabby', connector: 'injected' },
    ])
    const before = writes.length
    storage.setActiveNetwork('eip155:1')
    expect(firstParty.getItem(key('activeNetwork'))).toBe(network('eip155:1'))
    expect(writes).toHaveLength(before)
  })

  it('a grant from an earlier visit is used at start, without a click, and the host page is never attached', async () => {
    const firstParty = webStorage()
    firstParty.setItem(key('activeNetwork'), network('eip155:31338'))
    const { env, calls } = deniedFrame({
      permission: 'granted',
      answer: async () => ({ localStorage: firstParty }),
    })
    const frame = backend(env)
    frame.serve(page)
    await frame.ready
    expect(calls).toEqual([{ localStorage: true, indexedDB: true }])
    expect(frame.place()).toBe('granted')
    const { host, writes } = hostPage({ activeNetwork: network('eip155:1') })
    await frame.attach(host)
    const storage = create(frame)
    expect(storage.getActiveNetwork()).toBe('eip155:31338')
    storage.setActiveNetwork('eip155:31337')
    expect(writes).toEqual([])
  })

  it('a browser that unblocks the frame’s own storage instead of handing out a handle (Firefox, Safari) is used too', async () => {
    let own: Storage | undefined
    const { env } = deniedFrame({
      answer: async () => {
        own = webStorage()
        return undefined
      },
    })
    const frame = backend({ ...env, local: () => own })
    frame.serve(page)
    frame.request()
    await expect.poll(() => frame.place()).toBe('granted')
    create(frame).setActiveNetwork('eip155:1')
    expect(own?.getItem(key('activeNetwork'))).toBe(network('eip155:1'))
  })

  it('a handle whose storage is denied all the same, or a refusal, leaves the state with the host page', async () => {
    const denied = Object.defineProperty({}, 'localStorage', {
      get: () => {
        throw new DOMException('Access is denied for this document.', 'SecurityError')
      },
    })
    for (const answer of [async () => denied, async () => ({ localStorage: webStorage(true) }), undefined]) {
      const { env, calls } = deniedFrame({ permission: 'granted', answer })
      const frame = backend(env)
      frame.serve(page)
      await frame.ready
      const { host, writes } = hostPage()
      await frame.attach(host)
      frame.request()
      await expect.poll(() => calls.length).toBe(2)
      create(frame).setActiveNetwork('eip155:1')
      expect(frame.place()).toBe('host')
      expect(writes).toEqual([{ key: 'activeNetwork', value: network('eip155:1') }])
    }
  })

  it('starts where the permission cannot be queried, and where the browser has no Storage Access API', async () => {
    const frame = backend({ local: () => undefined, document: {}, permissions: undefined })
    frame.serve(page)
    await frame.ready
    frame.request()
    expect(frame.place()).toBe('host')
    const { env } = deniedFrame()
    const unqueried = backend(env)
    unqueried.serve(page)
    await expect(unqueried.ready).resolves.toBeUndefined()
    expect(unqueried.place()).toBe('host')
  })
  it('keeps each page apart in a store shared between sites, and reads nothing before it knows the page', async () => {
    // One store for every site: a browser that does not partition frames, a grant, the modal in a window.
    const shared = webStorage()
    const first = backend({ local: () => shared })
    expect(create(first).getConnections('eip155')).toEqual([])
    create(first).addConnection({ namespace: 'eip155', name: 'Rabby', connector: 'injected' })
    first.serve('https://one.example')
    // What was written before the page was known goes along to its scope, and nowhere else.
    expect(create(first).getConnections('eip155')).toEqual([
      { namespace: 'eip155', name: 'Rabby', connector: 'injected' },
    ])
    first.serve('https://two.example')
    create(first).setActiveNetwork('eip155:10')
    const second = backend({ local: () => shared })
    second.serve('https://two.example')
    expect(create(second).getConnections('eip155')).toEqual([])
    expect(create(second).getActiveNetwork()).toBeUndefined()
    expect(shared.getItem(scopedKey('https://one.example', `${prefix}activeNetwork`))).toBe(
      network('eip155:10'),
    )
    expect(shared.getItem(`${prefix}connections`)).toBeNull()
  })
})

describe('storage kept by the host page', () => {
  it('starts from what the host kept, and hands every change back to it by its bare name', async () => {
    const kept: Record<string, string> = {
      activeNetwork: '"eip155:31338"',
      connections: JSON.stringify({
        eip155: [{ namespace: 'eip155', name: 'Rabby', connector: 'injected' }],
      }),
    }
    const writes: { key: string; value: string | null }[] = []
    const backend = keptByHost()
    const storage = create(backend)
    await backend.attach({
      storageRead: async () => kept,
      storageWrite: async (write) => void writes.push(write),
    })
    expect(storage.getActiveNetwork()).toBe('eip155:31338')
    expect(storage.getConnections('eip155')).toEqual([
      { namespace: 'eip155', name: 'Rabby', connector: 'injected' },
    ])
    storage.setActiveNetwork('eip155:31337')
    storage.clearConnections('eip155')
    expect(writes).toEqual([
      { key: 'activeNetwork', value: '"eip155:31337"' },
      { key: 'connections', value: '{}' },
    ])
  })

  it('reads what the host page tampered with as empty, and keeps working when the host refuses', async () => {
    const backend = keptByHost()
    const storage = create(backend)
    await backend.attach({
      storageRead: async () => ({ activeNetwork: '"not a chain"', connections: '{broken' }),
      storageWrite: () => Promise.reject(new Error('refused')),
    })
    expect(storage.getActiveNetwork()).toBeUndefined()
    expect(storage.getConnections('eip155')).toEqual([])
    storage.setActiveNetwork('eip155:1')
    expect(storage.getActiveNetwork()).toBe('eip155:1')
  })
})
