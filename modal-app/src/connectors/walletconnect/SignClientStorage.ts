/**
 * In-memory storage for WalletConnect SignClients: the modal's when the browser denies its frame storage
 * (third-party storage blocked), and the tests' phone wallets in Node, which write no files this way. Each
 * client sees only its own keys.
 */
import type SignClient from '@walletconnect/sign-client'

export type Storage = NonNullable<NonNullable<Parameters<typeof SignClient.init>[0]>['storage']>

/** @example SignClient.init({ …, storage: SignClientStorage.memory() }) */
export function memory(): Storage {
  const entries = new Map<string, unknown>()
  return {
    getKeys: async () => [...entries.keys()],
    getEntries: async <T>() => [...entries.entries()] as [string, T][],
    getItem: async <T>(key: string) => entries.get(key) as T | undefined,
    setItem: async (key: string, value: unknown) => {
      entries.set(key, value)
    },
    removeItem: async (key: string) => {
      entries.delete(key)
    },
  }
}

/**
 * sign-client's storage module reads `window.localStorage` as it loads. Where the browser denies this frame
 * storage (third-party storage blocked), that read throws and the module cannot load at all, so an
 * in-memory one stands in: the frame could keep nothing across page loads anyway. Call before loading it.
 */
export function standInForDeniedLocalStorage(target: Window = window): void {
  try {
    void target.localStorage
    return
  } catch {
    const items = new Map<string, string>()
    const storage: globalThis.Storage = {
      get length() {
        return items.size
      },
      key: (index) => [...items.keys()][index] ?? null,
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, String(value)),
      removeItem: (key) => void items.delete(key),
      clear: () => items.clear(),
    }
    Object.defineProperty(target, 'localStorage', { value: storage, configurable: true })
  }
}
