/**
 * In-memory storage for WalletConnect SignClients in Node (tests, the bench's phone wallet): nothing is
 * written to files, and each client sees only its own keys.
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
