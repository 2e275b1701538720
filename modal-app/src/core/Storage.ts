/**
 * What the modal remembers between page loads, under the `@airlock/` prefix. Everything goes through
 * {@link KeyValue}; `FrameStorage.backend()` picks the store the browser allows: the frame's own, first-party
 * storage it grants (Storage Access API), or memory the host page keeps.
 */
import { Caip, Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { NoticeChoice } from './Analytics.ts'
import { prefix } from './FrameStorage.ts'

/** The backing store: synchronous, string values, like `localStorage`. */
export type KeyValue = {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * How a wallet is recognised across page loads: its id changes, its rdns (else name) does not. A stored
 * connection also names the connector that made it, which alone may restore it.
 */
export type WalletKey = {
  namespace: Caip.Namespace
  rdns?: string | undefined
  name: string
  connector?: string | undefined
}

export const maxRecentWallets = 2
const maxConnections = 4
const maxSessions = 8

const walletKey = S.object({
  namespace: S.picklist(Caip.namespaces),
  rdns: S.optional(S.string(128)),
  name: S.string(64),
  connector: S.optional(S.string(40, 1, /^[a-z]+$/)),
})
const walletKeys = S.array(walletKey, 16)
// Connections stored before keys named their connector: WalletConnect's are the ones with its rdns.
const withConnector = (key: WalletKey): WalletKey =>
  key.connector ? key : { ...key, connector: key.rdns === 'com.walletconnect' ? 'walletconnect' : 'injected' }
const sessions = S.record(Schema.session, 16)
// Only links that open an app or a secure page: the value is later handed to window.open.
const deepLink = S.object({
  name: S.string(100, 1),
  href: S.string(4096, 1, /^(https:\/\/|(?!(javascript|data|vbscript|file|blob):)[a-z][a-z0-9+.-]*:\/\/)/i),
})
const connections = S.object({
  eip155: S.optional(walletKeys),
  solana: S.optional(walletKeys),
  bip122: S.optional(walletKeys),
})

export type Storage = {
  /** Wallets that were connected in a namespace, most recent first. */
  getConnections(namespace: Caip.Namespace): WalletKey[]
  /** Records a connection, moving the wallet to the front. */
  addConnection(wallet: WalletKey): void
  /** Forgets every connection of a namespace. */
  clearConnections(namespace: Caip.Namespace): void
  getActiveNetwork(): Caip.ChainId | undefined
  setActiveNetwork(id: Caip.ChainId): void
  /** Wallets recently connected, most recent first, at most {@link maxRecentWallets}. */
  getRecentWallets(): WalletKey[]
  addRecentWallet(wallet: WalletKey): void
  /** The WalletConnect wallet's app link, opened for requests on a phone. */
  getDeepLink(): DeepLink | undefined
  setDeepLink(link: DeepLink): void
  clearDeepLink(): void
  /**
   * Whether a window of the modal origin keeps this page's WalletConnect session, because the frame may
   * keep nothing (see `connectors/walletconnect/Kept.ts`). The keys are not here: only that they are kept.
   */
  getSessionKept(): boolean
  setSessionKept(kept: boolean): void
  /** The same for the embedded wallet's login (`connectors/embedded/runtime.ts`). */
  getLoginKept(): boolean
  setLoginKept(kept: boolean): void
  /** Sign-in sessions, by host origin and CAIP-10 account. */
  getSession(account: string): Schema.Session | undefined
  setSession(account: string, session: Schema.Session): void
  removeSession(account: string): void
  /** The visitor's answer to the analytics notice on this page (`Analytics.ts`). */
  getAnalyticsChoice(): NoticeChoice | undefined
  setAnalyticsChoice(choice: NoticeChoice): void
  /** The on-ramp order the visitor left before its checkout ended, so Buy can offer to resume it. */
  getPendingPurchase(): PendingPurchase | undefined
  setPendingPurchase(purchase: PendingPurchase | undefined): void
}

const pendingPurchase = S.object({
  orderId: S.string(64, 16, /^[A-Za-z0-9_-]+$/),
  /** The provider's signed checkout page, opened again to resume. */
  url: S.string(4096, 1, /^https?:\/\//),
  address: S.string(64, 1),
  /** CAIP-2. */
  network: S.string(80, 1),
  asset: S.string(20, 1),
})
export type PendingPurchase = S.Infer<typeof pendingPurchase>

type DeepLink = { name: string; href: string }

/** True when both keys name the same wallet: same namespace, and same rdns (or same name without one). */
export function sameWallet(a: WalletKey, b: WalletKey): boolean {
  if (a.namespace !== b.namespace) return false
  if (a.rdns || b.rdns) return a.rdns === b.rdns
  return a.name === b.name
}

/** The key of a wallet, without the fields storage does not need. */
export function keyOf(wallet: WalletKey): WalletKey {
  const key: WalletKey = { namespace: wallet.namespace, name: wallet.name }
  if (wallet.rdns) key.rdns = wallet.rdns
  if (wallet.connector) key.connector = wallet.connector
  return key
}

/**
 * A store over a backend. Unreadable entries read as empty: storage is a cache of convenience, never a
 * reason to fail.
 * @example
 * const storage = Storage.create(Storage.browser())
 * storage.addRecentWallet({ namespace: 'eip155', rdns: 'io.metamask', name: 'MetaMask' })
 */
export function create(backend: KeyValue = memory()): Storage {
  const read = <T>(key: string, shape: S.Shape<T>): T | undefined => {
    try {
      const raw = backend.getItem(prefix + key)
      if (raw === null) return undefined
      const parsed = S.parse(shape, JSON.parse(raw))
      return parsed.ok ? parsed.value : undefined
    } catch {
      return undefined
    }
  }
  const write = (key: string, value: unknown) => {
    try {
      backend.setItem(prefix + key, JSON.stringify(value))
    } catch {
      // Quota or a blocked store: the modal works on, it only forgets across reloads.
    }
  }
  const withFront = (list: WalletKey[], wallet: WalletKey, max: number) =>
    [keyOf(wallet), ...list.filter((item) => !sameWallet(item, wallet))].slice(0, max)

  return {
    getConnections: (namespace) => (read('connections', connections)?.[namespace] ?? []).map(withConnector),
    addConnection(wallet) {
      const all = read('connections', connections) ?? {}
      write('connections', {
        ...all,
        [wallet.namespace]: withFront(all[wallet.namespace] ?? [], wallet, maxConnections),
      })
    },
    clearConnections(namespace) {
      const { [namespace]: _, ...rest } = read('connections', connections) ?? {}
      write('connections', rest)
    },
    getActiveNetwork() {
      const id = read('activeNetwork', S.string(80))
      return Caip.isChainId(id) ? id : undefined
    },
    setActiveNetwork: (id) => write('activeNetwork', id),
    getRecentWallets: () => (read('recentWallets', walletKeys) ?? []).slice(0, maxRecentWallets),
    addRecentWallet(wallet) {
      write('recentWallets', withFront(read('recentWallets', walletKeys) ?? [], wallet, maxRecentWallets))
    },
    getSession: (account) => {
      const all = read('siwx', sessions) ?? {}
      return Object.hasOwn(all, account) ? all[account] : undefined
    },
    setSession(account, session) {
      const all = read('siwx', sessions) ?? {}
      // A handful of accounts at most; the oldest entries go first.
      const kept = Object.entries(all)
        .filter(([key]) => key !== account)
        .slice(-(maxSessions - 1))
      write('siwx', Object.fromEntries([...kept, [account, session]]))
    },
    removeSession(account) {
      const { [account]: _, ...rest } = read('siwx', sessions) ?? {}
      write('siwx', rest)
    },
    getSessionKept: () => read('wcKept', S.boolean) ?? false,
    setSessionKept: (kept) => write('wcKept', kept),
    getLoginKept: () => read('loginKept', S.boolean) ?? false,
    setLoginKept: (kept) => write('loginKept', kept),
    getAnalyticsChoice: () => read('analyticsNotice', S.picklist(['dismissed', 'declined'] as const)),
    setAnalyticsChoice: (choice) => write('analyticsNotice', choice),
    getPendingPurchase: () => read('onrampPending', pendingPurchase),
    setPendingPurchase(purchase) {
      if (purchase) return write('onrampPending', purchase)
      try {
        backend.removeItem(`${prefix}onrampPending`)
      } catch {}
    },
    getDeepLink: () => read('wcDeepLink', deepLink),
    setDeepLink: (link) => write('wcDeepLink', link),
    clearDeepLink() {
      try {
        backend.removeItem(`${prefix}wcDeepLink`)
      } catch {}
    },
  }
}

/** An in-memory backend, for tests. */
export function memory(): KeyValue {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  }
}
