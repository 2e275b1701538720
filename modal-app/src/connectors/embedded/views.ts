/** The embedded wallet's views, by the router's names; apart so the first chunk takes names, not views. */
export const codeView = 'EmailVerifyOtp'
export const socialView = 'ConnectingSocial'
export const walletView = 'EmbeddedWallet'
/** SPEC's own name: closing is blocked while it shows (`core/Router.ts`). */
export const approveView = 'ApproveTransaction'
