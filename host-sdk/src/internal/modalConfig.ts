/**
 * The configuration the modal reads from its URL (`?config=<JSON>`, parsed by the modal's `Config.ts`):
 * the page's options the modal needs, and nothing else (no callbacks, no elements).
 */
import type { AirlockOptions } from '../Airlock.ts'

/**
 * @example
 * src.searchParams.set('config', JSON.stringify(modalConfig(options, false)))
 */
export function modalConfig(options: AirlockOptions, embedded: boolean) {
  const signIn = options.siweConfig ?? options.siwx
  // In a Telegram mini-app, its platform: the modal leaves out the logins that platform cannot complete.
  const telegram = (globalThis as { Telegram?: { WebApp?: { platform?: unknown } } }).Telegram?.WebApp
    ?.platform
  return {
    networks: options.networks,
    rpcUrls: options.rpcUrls,
    customNetworks: options.customNetworks,
    themeMode: options.themeMode,
    locale: options.locale,
    themeVariables: options.themeVariables,
    features: options.features,
    embedded: embedded || undefined,
    preferredAccountTypes: options.preferredAccountTypes,
    walletConnect: options.walletConnectProjectId && {
      projectId: options.walletConnectProjectId,
      relayUrl: options.relayUrl,
    },
    featuredWalletIds: options.featuredWalletIds,
    excludeWalletIds: options.excludeWalletIds,
    termsConditionsUrl: options.termsConditionsUrl,
    privacyPolicyUrl: options.privacyPolicyUrl,
    siwx: signIn && { ...signIn, legacy: !!options.siweConfig || undefined },
    telegramPlatform: typeof telegram === 'string' ? telegram.slice(0, 32) : undefined,
  }
}
