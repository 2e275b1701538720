/**
 * The modal's remembered state (connections, recent wallets, the chosen network, sign-in sessions the dApp
 * already sees), kept in this page's storage for a modal whose browser denies its third-party frame storage
 * of its own. One entry per modal origin. The modal keeps nothing secret here: the page can read it.
 */
import { Errors, Schema } from '@airlock/bridge-protocol'

const entryOf = (modalOrigin: string) => `airlock:${modalOrigin}`

/** What this page keeps for the modal; empty where this page has no storage either, or it is unreadable. */
export function read(modalOrigin: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(entryOf(modalOrigin)) ?? '{}')
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    return Object.fromEntries(Object.entries(parsed).filter(([, value]) => typeof value === 'string'))
  } catch {
    return {}
  }
}

/** Keeps (or, with `null`, drops) one key; refuses to grow past what `storageRead` may answer. */
export function write(modalOrigin: string, key: string, value: string | null): void {
  const all = read(modalOrigin)
  if (value === null) delete all[key]
  else all[key] = value
  const text = JSON.stringify(all)
  if (text.length > Schema.hostStorageMax || Object.keys(all).length > Schema.hostStorageKeys)
    throw new Errors.InvalidParamsError('The modal’s state is too large.')
  try {
    localStorage.setItem(entryOf(modalOrigin), text)
  } catch {
    // This page has no storage either: the modal's state lasts the page load.
  }
}
