/**
 * The host's `excludeWalletIds`: each entry a registry id, an rdns (`io.metamask`) or a wallet's name
 * (`MetaMask`), compared without case, so one list hides a wallet wherever Connect would show it: among
 * the page's wallets, the recent ones, the registry's and the host's own (docs/behaviour.md#wallets).
 */
import type { Config } from './Config.ts'

type Described = { id?: string | undefined; rdns?: string | null | undefined; name: string }

/**
 * @example
 * const hidden = excludes({ excludeWalletIds: ['io.metamask'] })
 * hidden({ name: 'MetaMask', rdns: 'io.metamask' }) // true
 */
export function excludes(config: Pick<Config, 'excludeWalletIds'>): (wallet: Described) => boolean {
  const names = new Set((config.excludeWalletIds ?? []).map((entry) => entry.toLowerCase()))
  if (names.size === 0) return () => false
  return (wallet) =>
    [wallet.id, wallet.rdns, wallet.name].some((value) => !!value && names.has(value.toLowerCase()))
}
