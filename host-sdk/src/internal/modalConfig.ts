/**
 * The configuration the modal reads from its URL (`?config=<JSON>`, parsed by the modal's `Config.ts`):
 * the page's options, minus what only the page uses (callbacks, elements, providers, the frame's own
 * settings). Options pass through unchecked: the modal judges them all, so a wrong one shows its "Invalid
 * Configuration" alert naming it, and this script stays small.
 */
import type { AirlockOptions } from '../Airlock.ts'

/**
 * @example
 * src.searchParams.set('config', JSON.stringify(modalConfig(options, false)))
 */
export function modalConfig(options: AirlockOptions, embedded: boolean) {
  const {
    projectId,
    modalUrl,
    timeouts,
    onTimeout,
    announce,
    walletConnectProjectId,
    relayUrl,
    siweConfig,
    siwx,
    // Providers stay on the page: the modal reaches them through the bridge, as it does the page's wallets.
    externalWallets,
    ...rest
  } = options
  const signIn = siweConfig ?? siwx
  // In a Telegram mini-app, its platform: the modal leaves out the logins that platform cannot complete.
  const telegram = (globalThis as { Telegram?: { WebApp?: { platform?: unknown } } }).Telegram?.WebApp
    ?.platform
  return {
    ...rest,
    embedded: embedded || undefined,
    walletConnect: walletConnectProjectId && { projectId: walletConnectProjectId, relayUrl },
    siwx: signIn && { ...signIn, legacy: !!siweConfig || undefined },
    telegramPlatform: typeof telegram === 'string' ? telegram.slice(0, 32) : undefined,
  }
}
