/** Page-side state shared by the three wallets: the simulated user's answer and the call log. */
import { userRejected } from './errors.ts'
import type { WalletMode } from './options.ts'

export type WalletKind = 'evm' | 'solana' | 'bitcoin'

export interface WalletCall {
  wallet: WalletKind
  method: string
}

export interface WalletRuntime {
  mode: WalletMode
  readonly calls: WalletCall[]
}

export function createRuntime(mode: WalletMode): WalletRuntime {
  return { mode, calls: [] }
}

export function recordCall(runtime: WalletRuntime, wallet: WalletKind, method: string): void {
  runtime.calls.push({ wallet, method })
}

/** Stands in for the wallet's confirmation popup: the mode decides what the "user" clicks. */
export function confirmWithUser(runtime: WalletRuntime): void {
  if (runtime.mode === 'reject') throw userRejected()
}

/** Minimal typed event emitter; a throwing listener must not stop the others, as in real wallets. */
export class Emitter<EventMap extends Record<string, unknown>> {
  readonly #listeners: { [K in keyof EventMap]?: Set<(payload: EventMap[K]) => void> } = {}

  on<K extends keyof EventMap>(event: K, listener: (payload: EventMap[K]) => void): void {
    const set = this.#listeners[event] ?? new Set<(payload: EventMap[K]) => void>()
    set.add(listener)
    this.#listeners[event] = set
  }

  off<K extends keyof EventMap>(event: K, listener: (payload: EventMap[K]) => void): void {
    this.#listeners[event]?.delete(listener)
  }

  emit<K extends keyof EventMap>(event: K, payload: EventMap[K]): void {
    for (const listener of [...(this.#listeners[event] ?? [])]) {
      try {
        listener(payload)
      } catch (error) {
        console.error(`[airlock test wallet] ${String(event)} listener threw`, error)
      }
    }
  }
}

/**
 * A site's permission, kept per dApp origin across reloads as real extensions keep it, so a dApp (or
 * Airlock) can reconnect without a prompt. sessionStorage: it lasts for the test's tab, no longer.
 */
export const sitePermission = {
  get: (wallet: WalletKind): boolean => sessionStorage.getItem(`__airlockTestWallet:${wallet}`) === 'granted',
  set(wallet: WalletKind, granted: boolean): void {
    if (granted) sessionStorage.setItem(`__airlockTestWallet:${wallet}`, 'granted')
    else sessionStorage.removeItem(`__airlockTestWallet:${wallet}`)
  },
}
