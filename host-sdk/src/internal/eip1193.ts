/**
 * Airlock's EIP-1193 provider. `eth_accounts` and `eth_chainId` answer from the state the modal mirrors to
 * the host, without a round trip; everything else goes to the modal, which owns the connection.
 */
import type { Schema, State } from '@airlock/bridge-protocol'
import { type Emitter, emitter } from './emitter.ts'

// The mirrored state was parsed on arrival, so this skips CAIP parsing (which the lean core does not ship).
function hexChainId(caip2: string): string | undefined {
  try {
    return `0x${BigInt(caip2.split(':')[1] as string).toString(16)}`
  } catch {
    return undefined
  }
}

export type RequestArguments = { method: string; params?: readonly unknown[] | object }

/** The EIP-1193 provider a dApp gets as `airlock.providers.eip155` and through EIP-6963. */
export type Eip1193Provider = {
  request(args: RequestArguments): Promise<unknown>
  on(event: string, listener: (...args: never[]) => void): Eip1193Provider
  removeListener(event: string, listener: (...args: never[]) => void): Eip1193Provider
}

type Send = (request: Schema.Eip155Request) => Promise<unknown>

export function eip1193(send: Send, state: () => State, fallbackChainId: string | undefined) {
  const events: Emitter = emitter()
  const accounts = () => state().namespaces.eip155?.accounts.map((a) => a.address) ?? []
  const chainId = () => {
    const id = state().namespaces.eip155?.chainId ?? fallbackChainId
    return id && hexChainId(id)
  }

  const provider: Eip1193Provider = {
    async request(args) {
      const method = args?.method
      // While the modal is still reconnecting the mirror is not settled yet: ask the modal, which answers
      // once the reconnect is done, so a dApp never mistakes a returning visitor for a new one.
      const settled = state().status === 'connected' || state().status === 'disconnected'
      if (method === 'eth_accounts' && settled) return accounts()
      if (method === 'eth_chainId' && chainId()) return chainId()
      return send({ namespace: 'eip155', method, params: args?.params as Schema.Eip155Request['params'] })
    },
    on(event, listener) {
      events.on(event, listener)
      return provider
    },
    removeListener(event, listener) {
      events.off(event, listener)
      return provider
    },
  }

  /** Derives EIP-1193 events from two mirrored states. */
  const update = (before: State, after: State) => {
    const was = before.namespaces.eip155
    const is = after.namespaces.eip155
    const list = (s: typeof is) => (s?.accounts ?? []).map((a) => a.address)
    if (!was?.accounts.length && is?.accounts.length)
      events.emit('connect', { chainId: hexChainId(is.chainId) })
    if (list(was).join() !== list(is).join()) events.emit('accountsChanged', list(is))
    // `connect` already carries the first chain; chainChanged is for a change while connected.
    if (was && is && was.chainId !== is.chainId) events.emit('chainChanged', hexChainId(is.chainId))
    if (was?.accounts.length && !is?.accounts.length)
      events.emit('disconnect', { code: 4900, message: 'The Provider is disconnected from all chains.' })
  }

  return { provider, update }
}
