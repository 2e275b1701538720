import type { Airlock } from '@airlock/host-sdk'
import { useContext, useSyncExternalStore } from 'react'
import { AirlockContext, type AirlockContextValue } from './Context.ts'

type State = ReturnType<Airlock['getState']>

// What the server and the first client render see: nothing connected, nothing open. One object, so React's
// snapshot comparison sees no change until the instance reports one.
const placeholder: State = { open: false, view: 'Connect', status: 'disconnected', namespaces: {} }
const nothing = () => () => {}

/** The nearest `<AirlockProvider>`'s value; a clear error where there is none. */
export function useAirlockContext(): AirlockContextValue {
  const context = useContext(AirlockContext)
  if (!context) throw new Error('Airlock hooks must be used inside <AirlockProvider>.')
  return context
}

/**
 * The Airlock instance, `undefined` on the server and until the provider has mounted.
 * @example
 * const airlock = useAirlock()
 * await airlock?.providers.eip155.request({ method: 'eth_requestAccounts' })
 */
export function useAirlock(): Airlock | undefined {
  return useAirlockContext().airlock
}

/** The modal's mirrored state, re-rendering on every change; the placeholder before mount. */
export function useAirlockState(): State {
  const airlock = useAirlock()
  return useSyncExternalStore(
    airlock ? airlock.subscribeState : nothing,
    airlock ? airlock.getState : () => placeholder,
    () => placeholder,
  )
}
