/** What both halves of the host SDK need to agree on about the page's wallet registries. */

/** Airlock's own providers and wallets, so discovery never lists Airlock to itself. */
export const own = new WeakSet<object>()

export const registerEvent = 'wallet-standard:register-wallet'
export const appReady = 'wallet-standard:app-ready'
