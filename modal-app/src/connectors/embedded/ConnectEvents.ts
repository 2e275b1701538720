/**
 * The embedded wallet's connect events (docs/behaviour.md §7), recorded as a page wallet's and WalletConnect's are: a
 * login started (CONNECT_STARTED), then the wallet it opened connected (CONNECT_SUCCESS) or the login failed
 * (CONNECT_ERROR), each with its method (`email`, `social` or `passkey`) and name (`Email`, the provider, or
 * `Passkey`). A login
 * has one outcome; a session restored after a reload is no login. What is sent, and when, is the core's
 * `Analytics` to decide (consent, the notice, the cap).
 */
import type { Kernel } from '../../core/Feature.ts'

export type Method = 'email' | 'social' | 'passkey'

/** @example const events = ConnectEvents.create(kernel.track); events.started('social', 'google') */
export function create(track: Kernel['track']) {
  let login: { method: Method; name: string } | undefined
  const end = (event: string, extra: { message?: string } = {}) => {
    if (!login) return
    track({ event, properties: { ...login, ...extra } })
    login = undefined
  }
  return {
    started(method: Method, name: string) {
      login = { method, name }
      track({ event: 'CONNECT_STARTED', properties: { ...login } })
    },
    connected: () => end('CONNECT_SUCCESS'),
    failed: (message: string) => end('CONNECT_ERROR', { message }),
  }
}
