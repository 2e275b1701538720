/**
 * How a WalletConnect connection appears among the modal's wallets: a fixed id and rdns (so it is stored
 * and recognised after a reload like a page wallet) and WalletConnect's mark. Kept apart from the connector,
 * which loads on demand, because Connect lists it from the first chunk.
 */
import type { Caip, PageWallet } from '@airlock/bridge-protocol'

export const id = 'walletconnect'
export const rdns = 'com.walletconnect'

/** WalletConnect's mark, inline, so the list shows it with no request. */
export const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"%3E%3Crect width="96" height="96" rx="24" fill="%233396FF"/%3E%3Cpath d="M29.6 36.4c10.1-9.9 26.6-9.9 36.7 0l1.2 1.2a1.3 1.3 0 0 1 0 1.8l-4.2 4.1a.7.7 0 0 1-.9 0l-1.7-1.6c-7.1-6.9-18.5-6.9-25.6 0l-1.8 1.7a.7.7 0 0 1-.9 0l-4.2-4.1a1.3 1.3 0 0 1 0-1.8zm45.4 8.5 3.7 3.7a1.3 1.3 0 0 1 0 1.8L62 66.7a1.3 1.3 0 0 1-1.8 0L48.4 55.2a.3.3 0 0 0-.5 0L36.1 66.7a1.3 1.3 0 0 1-1.8 0L17.6 50.4a1.3 1.3 0 0 1 0-1.8l3.7-3.7a1.3 1.3 0 0 1 1.8 0l11.8 11.5a.3.3 0 0 0 .5 0l11.8-11.5a1.3 1.3 0 0 1 1.8 0l11.8 11.5a.3.3 0 0 0 .5 0l11.8-11.5a1.3 1.3 0 0 1 1.9 0z" fill="%23fff"/%3E%3C/svg%3E'

/** The WalletConnect wallet of a namespace; `name` is the phone wallet's once a session exists. */
export function of(namespace: Caip.Namespace, name = 'WalletConnect'): PageWallet {
  return { id, namespace, name, icon, rdns, chains: [] }
}

/** True for a WalletConnect connection's wallet. */
export function is(wallet: { id: string }): boolean {
  return wallet.id === id
}
