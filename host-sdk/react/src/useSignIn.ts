import type { Airlock } from '@airlock/host-sdk'
import { useAirlock, useAirlockState } from './useAirlock.ts'

/** What {@link useSignIn} returns. */
export type UseSignInReturnType = {
  /** The active account's sign-in session; `token` is what your backend checks with the API. */
  session: ReturnType<Airlock['getSession']>
  /** Opens the modal's sign-in (needs the `siwx` or `siweConfig` option and a connected account). */
  signIn(): Promise<void>
  /** Forgets this browser's sign-in sessions. */
  signOut(): Promise<void>
}

/**
 * Sign-in with the connected account (EIP-4361 / CAIP-122), as the modal runs it.
 * @example
 * const { session, signIn } = useSignIn()
 * if (!session) await signIn()
 */
export function useSignIn(): UseSignInReturnType {
  const airlock = useAirlock()
  const { session } = useAirlockState()
  return {
    session,
    signIn: () => airlock?.open({ view: 'SIWXSignMessage' }) ?? Promise.resolve(),
    signOut: () => airlock?.signOut() ?? Promise.resolve(),
  }
}
