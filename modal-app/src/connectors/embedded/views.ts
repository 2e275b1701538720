import type { Named } from './naming.ts'

/** The embedded wallet's views, by the router's names; apart so the first chunk takes names, not views. */
export const codeView = 'EmailVerifyOtp'
export const socialView = 'ConnectingSocial'
export const walletView = 'EmbeddedWallet'
/** The product's own name (docs/behaviour.md §2): closing is blocked while it shows (`core/Router.ts`). */
export const approveView = 'ApproveTransaction'
export const settingsView = 'EmbeddedSettings'
/** The product's own name (docs/behaviour.md) for Sign In With Farcaster's view. */
export const farcasterView = 'ConnectingFarcaster'

/** What the Account view reads of the embedded wallet: whether it is the wallet shown, and who logged in. */
export type AccountSlice = { embeddedWallet: { signedIn: boolean; user?: Named | undefined } }
/** What the Account view may ask of it. */
export type AccountUi = { showWalletSettings(): void }
