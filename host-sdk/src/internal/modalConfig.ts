/**
 * The configuration the modal reads from its URL (`?config=<JSON>`, parsed by the modal's `Config.ts`):
 * the page's options, minus what only the page uses (callbacks, elements, providers, the frame's own
 * settings). Options pass through unchecked: the modal judges them all, so a wrong one shows its "Invalid
 * Configuration" alert naming it, and this script stays small.
 */
import type { AirlockOptions } from '../AirlockOptions.ts'

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
    append,
    walletConnectProjectId,
    relayUrl,
    siweConfig,
    siwx,
    // Providers stay on the page: the modal reaches them through the bridge, as it does the page's wallets.
    externalWallets,
    ...rest
  } = options
  const signIn = siweConfig ?? siwx
  // A Telegram mini-app's own signal, as the page has it: the modal reads it (bridge-protocol's MiniApp)
  // to choose the logins it offers and how a pairing waits. As text, so any value serialises.
  const app = (globalThis as { Telegram?: { WebApp?: { platform?: unknown; version?: unknown } } }).Telegram
    ?.WebApp
  return {
    ...rest,
    embedded: embedded || undefined,
    walletConnect: walletConnectProjectId && { projectId: walletConnectProjectId, relayUrl },
    siwx: signIn && { ...signIn, legacy: !!siweConfig || undefined },
    telegram: app && { platform: String(app.platform), version: String(app.version) },
  }
}
