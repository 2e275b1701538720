/** Sign in with X (EIP-4361 for EVM, CAIP-122 for Solana and Bitcoin), on when the host sets `siwx` or `siweConfig`. */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import type * as Message from './message.ts'

const signInViews = ['ConnectingSiwe', 'SIWXSignMessage'] as const

const SignIn = lazy(() => import('./SignIn.tsx'))

export function signIn(options: { loadMessage?: (() => Promise<typeof Message>) | undefined } = {}): Feature {
  const loadMessage = options.loadMessage ?? (() => import('./message.ts'))
  return {
    id: 'signIn',
    views: signInViews.map((name) => ({ name, title: () => texts.signIn.title, component: SignIn })),
    hostMethods: ['signOut'],
    // The sign-in view of the configured option (`siweConfig` has the older one), for an account that can sign in.
    canOpen(view, kernel) {
      if (!(signInViews as readonly string[]).includes(view)) return undefined
      const own = kernel.config.siwx?.legacy ? 'ConnectingSiwe' : 'SIWXSignMessage'
      const namespace = kernel.activeNamespace()
      return view === own && namespace !== undefined && kernel.connectionOf(namespace) !== undefined
    },
    load: async (kernel) => (await import('./SignInFlow.ts')).setup(kernel, loadMessage),
  }
}
