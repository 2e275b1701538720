/**
 * The connected accounts' balances from the API (EVM, Solana and Bitcoin alike), formatted for the Account
 * view. Balances are cached for 30 s per account and network, so opening and closing the modal costs the
 * API nothing; after a failure none is asked for 30 s, so a dead RPC is not hammered. EVM accounts also get
 * their name and avatar from the API's identity route, read while the visitor looks, cached 5 minutes. A
 * wallet that discovers assets itself (EIP-7811, `WalletAssets.ts`) adds what the API does not list.
 */
import type { Caip, State } from '@airlock/bridge-protocol'
import type * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { baseUnits } from '../../shared/Amount.ts'
import { formatFiat, formatQuantity } from '../../shared/format.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import * as WalletAssets from './WalletAssets.ts'

const balanceCacheMs = 30_000
export const balanceRetryBlockMs = 30_000
/** docs/behaviour.md §9: identities are cached 5 minutes; after a failure the next look asks again, 30 s on. */
export const identityCacheMs = 300_000
const identityRetryMs = 30_000

/** Reads the chain; loaded on demand because it carries viem. */
export type ChainClient = {
  waitForReceipt(network: Network, hash: string): Promise<void>
}

/** A token row of the Account view: quantity with 3 decimals, fiat with 2. */
export type TokenRow = { symbol: string; name: string; amount: string; fiat: string; iconUrl: string }

/** What this feature adds to a connected account. */
export type BalanceFields = {
  /** Native balance, truncated to 3 decimals, in the visitor's locale (`9,999.999 ETH`, `12.500 SOL`). */
  balance?: string | undefined
  /** The fiat value of the native balance and the tokens together (`$31,250.00`); absent until the API answered. */
  total?: string | undefined
  /** The tokens (ERC-20, SPL) the account holds, from the API. */
  tokens: TokenRow[]
  /** Nothing has answered yet and the API's answer is on its way: the view holds places for it. */
  holdingsLoading?: boolean | undefined
  /** The account's name (docs/behaviour.md §3's profileName), from the API's identity route: EVM only. */
  profileName?: string | undefined
  /** Its avatar (docs/behaviour.md §3's profileImage), only ever a `data:image/…` URI or an https URL. */
  profileImage?: string | undefined
}

/** The actions of the Account view. */
export type AccountUi = {
  /** The view copied the address (or failed to). */
  copied(ok: boolean): void
  /** Opens the account's smart sessions (features/sessions), where that feature is on. */
  showSessions?: (() => void) | undefined
}

/**
 * The rows of the Tokens tab: the tokens of a balance answer (not the native currency), the most valuable
 * first (docs/behaviour.md §3), with separators of the visitor's locale.
 */
export function tokenRows(entries: readonly Api.TokenBalance[], locale?: string): TokenRow[] {
  return entries
    .filter((entry) => entry.address !== undefined)
    .sort((a, b) => b.value - a.value)
    .map((entry) => ({
      symbol: entry.symbol,
      name: entry.name,
      amount: formatQuantity(entry.quantity.numeric, locale),
      fiat: formatFiat(entry.value, locale),
      iconUrl: entry.iconUrl,
    }))
}

/** What the account holds in all, native currency and tokens, in fiat with the locale's separators. */
export function totalOf(entries: readonly Api.TokenBalance[], locale?: string): string {
  const sum = entries.reduce((total, entry) => total + entry.value, 0)
  return formatFiat(sum, locale)
}

/**
 * An avatar the view may load: a `data:image/…` URI or an https URL. Anything else (http, which a page on
 * https would block or leak, `javascript:`, a relative path) is no avatar: the identicon stays.
 */
export function safeAvatar(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(avatar)) return avatar
  try {
    return new URL(avatar).protocol === 'https:' ? avatar : undefined
  } catch {
    return undefined
  }
}

/**
 * The names and avatars of EVM addresses, asked of the API at most once per address in 5 minutes (checksum
 * and lower case are one address); a failure is kept quiet (the view keeps its identicon) and asked again
 * on a later look, 30 s on.
 */
export function profiles(options: {
  api: Pick<Kernel['api'], 'identity'>
  now: () => number
  changed: () => void
}) {
  const known = new Map<string, { identity?: Api.Identity | undefined; until: number }>()
  return {
    /**
     * Asks the API for the address's identity unless a recent answer (or attempt) stands, or `fresh` asks
     * past both caches (after the visitor registered a name). Never throws.
     */
    async want(address: string, fresh = false): Promise<void> {
      const { api, now } = options
      const key = address.toLowerCase()
      const previous = known.get(key)
      if (!api.identity || (!fresh && previous && now() < previous.until)) return
      known.set(key, { identity: previous?.identity, until: now() + identityCacheMs })
      try {
        const identity = await api.identity(address, fresh ? { fresh } : undefined)
        known.set(key, { identity, until: now() + identityCacheMs })
        // `null` (no name) and never asked are one to the views: only a real change renders again.
        const before = previous?.identity
        if (
          (identity.name ?? null) !== (before?.name ?? null) ||
          (identity.avatar ?? null) !== (before?.avatar ?? null)
        )
          options.changed()
      } catch (error) {
        known.set(key, { identity: previous?.identity, until: now() + identityRetryMs })
        console.warn('[airlock] Could not read the account’s name.', error)
      }
    },
    /** What the API said of the address: its name when it has one, its avatar when it is safe to show. */
    of(address: string): Pick<BalanceFields, 'profileName' | 'profileImage'> {
      const identity = known.get(address.toLowerCase())?.identity
      return { profileName: identity?.name || undefined, profileImage: safeAvatar(identity?.avatar) }
    },
  }
}

/**
 * The balances' logic. `names` is the feature's one cache of identities, which the Activity tab reads too.
 */
export function setup(
  kernel: Kernel,
  loadChainClient: () => Promise<ChainClient>,
  names: ReturnType<typeof profiles>,
): Runtime {
  const { now, snackbar } = kernel
  /** Per network and address: what the API said, and when it was asked. */
  const balances = new Map<string, { entries?: Api.TokenBalance[] | undefined; at: number }>()
  /** Per network and address: what the wallet itself said it holds (EIP-7811), read alongside. */
  const discovered = new Map<string, Api.TokenBalance[]>()
  /** Until when balance reads are blocked after a failure. */
  let blockedUntil = 0

  const keyOf = (network: Network, address: string) => `${network.id}:${address}`
  /** The API's balances with what the wallet adds; undefined while neither has answered. */
  const entriesOf = (key: string) => {
    const api = balances.get(key)?.entries
    const wallet = discovered.get(key)
    return api || wallet ? WalletAssets.merge(api ?? [], wallet ?? []) : undefined
  }

  /**
   * The namespace's account, else the one the modal shows. `force` skips the modal's cache, `fresh` the
   * API's too (after a transaction the API's is stale).
   */
  async function refresh(namespace = kernel.activeNamespace(), force = false, fresh = false) {
    const connection = namespace && kernel.connectionOf(namespace)
    const network = connection && kernel.configured(connection.chainId)
    const address = connection?.accounts[0]?.address
    if (!network || !address) return
    const key = keyOf(network, address)
    if (now() < blockedUntil) return
    const known = balances.get(key)
    if (!force && known && now() - known.at < balanceCacheMs) return
    balances.set(key, { entries: known?.entries, at: now() })
    // Apart from the API's read: a slow or silent wallet never holds the API's balances back.
    void WalletAssets.discover(kernel, connection, address, network).then((rows) => {
      if (rows.length === 0 && !discovered.has(key)) return
      discovered.set(key, rows)
      kernel.changed()
    })
    try {
      const entries = await kernel.api.balances(network.id, address, { fresh })
      balances.set(key, { entries, at: now() })
      kernel.changed()
    } catch (error) {
      // The toast, and no new attempt for a while; the balance stays at its last value (0.000 at first).
      blockedUntil = now() + balanceRetryBlockMs
      balances.set(key, { entries: known?.entries, at: 0 })
      snackbar.show('error', texts.errors.tokenBalanceUnavailable)
      console.warn('[airlock] Could not read the balance.', error)
    }
  }

  /** The namespace's account's name and avatar (EVM only), read while the visitor looks, never awaited. */
  function readProfile(namespace = kernel.activeNamespace()) {
    const address = namespace === 'eip155' && kernel.connectionOf(namespace)?.accounts[0]?.address
    if (address && kernel.router.isOpen()) void names.want(address)
  }

  async function afterTransaction(hash: string) {
    const connection = kernel.connectionOf('eip155')
    const network = connection && kernel.configured(connection.chainId)
    if (!network) return
    try {
      const client = await loadChainClient()
      await client.waitForReceipt(network, hash)
    } catch (error) {
      console.warn('[airlock] Could not wait for the transaction receipt.', error)
    }
    await refresh('eip155', true, true)
  }

  function fields(namespace: Caip.Namespace, connection: Connection): BalanceFields {
    const address = connection.accounts[0]?.address ?? ''
    const network = kernel.configured(connection.chainId)
    const entries = network && entriesOf(keyOf(network, address))
    const native = entries?.find((entry) => entry.address === undefined)
    // Asked or about to be (opening asks), unless a failure (`at` 0) or its pause stopped it.
    const asked = network && balances.get(keyOf(network, address))
    return {
      balance: network
        ? `${formatQuantity(native?.quantity.numeric)} ${network.nativeCurrency.symbol}`
        : undefined,
      total: entries ? totalOf(entries) : undefined,
      tokens: tokenRows(entries ?? []),
      holdingsLoading: !!network && !entries && asked?.at !== 0 && now() >= blockedUntil,
      ...(namespace === 'eip155' ? names.of(address) : {}),
    }
  }

  const ui: AccountUi = {
    copied(ok) {
      if (ok) snackbar.show('success', texts.account.copied)
      else {
        snackbar.show('error', texts.account.copyFailed)
        kernel.shake()
      }
    },
  }

  /** What the host mirrors of the active account (docs/behaviour.md §3's balance and profile), from what was read. */
  function hostState(): Partial<State> {
    const namespace = kernel.activeNamespace()
    const connection = namespace && kernel.connectionOf(namespace)
    const network = connection && kernel.configured(connection.chainId)
    const address = connection?.accounts[0]?.address
    if (!network || !address) return {}
    const native = entriesOf(keyOf(network, address))?.find((entry) => entry.address === undefined)
    const { decimals, symbol } = network.nativeCurrency
    const value = native && baseUnits(native.quantity.numeric, decimals)
    const { profileName, profileImage } = namespace === 'eip155' ? names.of(address) : {}
    return {
      ...(value !== undefined ? { balance: { value: value.toString(), decimals, symbol } } : {}),
      ...(profileName
        ? { profile: { name: profileName, ...(profileImage ? { image: profileImage } : {}) } }
        : {}),
    }
  }

  return {
    account: fields,
    state: hostState,
    ui,
    opened: () => void refresh(),
    shown: () => readProfile(),
    connected(namespace) {
      void refresh(namespace, true)
      readProfile(namespace)
      return false
    },
    changed(namespace) {
      void refresh(namespace, true)
      readProfile(namespace)
      return false
    },
    requested(request, result) {
      if (request.method === 'eth_sendTransaction' && typeof result === 'string')
        void afterTransaction(result)
    },
    // The modal's own send settled: the API's cached balance is stale too.
    transacted(namespace) {
      void refresh(namespace, true, true)
      // A transaction may have been a name's registration: the header asks past the caches.
      const address = namespace === 'eip155' && kernel.connectionOf(namespace)?.accounts[0]?.address
      if (address) void names.want(address, true)
    },
  }
}
