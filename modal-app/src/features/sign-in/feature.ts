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
    load: async (kernel) => (await import('./SignInFlow.ts')).setup(kernel, loadMessage),
  }
}
