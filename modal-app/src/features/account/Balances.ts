/**
 * The connected accounts' balances from the API (EVM, Solana and Bitcoin alike), formatted for the Account
 * view. Balances are cached for 30 s per account and network, so opening and closing the modal costs the
 * API nothing; after a failure none is asked for 30 s, so a dead RPC is not hammered.
 */
import type { Caip } from '@airlock/bridge-protocol'
import type * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { formatFiat, formatQuantity } from '../../shared/format.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'

const balanceCacheMs = 30_000
export const balanceRetryBlockMs = 30_000

/** Reads the chain; loaded on demand because it carries viem. */
export type ChainClient = {
  waitForReceipt(network: Network, hash: string): Promise<void>
}

/** A token row of the Account view: quantity with 3 decimals, fiat with 2. */
export type TokenRow = { symbol: string; name: string; amount: string; fiat: string; iconUrl: string }

/** What this feature adds to a connected account. */
export type BalanceFields = {
  /** Native balance, truncated to 3 decimals (`9999.999 ETH`, `12.500 SOL`, `0.500 BTC`). */
  balance?: string | undefined
  /** The tokens (ERC-20, SPL) the account holds, from the API. */
  tokens: TokenRow[]
}

/** The actions of the Account view. */
export type AccountUi = {
  /** The view copied the address (or failed to). */
  copied(ok: boolean): void
}

/**
 * The rows of the Tokens tab: the tokens of a balance answer (not the native currency), the most valuable
 * first (SPEC §3), with separators of the visitor's locale.
 */
export function tokenRows(entries: readonly Api.TokenBalance[], locale?: string): TokenRow[] {
  return entries
    .filter((entry) => entry.address !== undefined)
    .sort((a, b) => b.value - a.value)
    .map((entry) => ({
      symbol: entry.symbol,
      name: entry.name,
      amount: formatQuantity(entry.quantity.numeric),
      fiat: formatFiat(entry.value, locale),
      iconUrl: entry.iconUrl,
    }))
}

export function setup(kernel: Kernel, loadChainClient: () => Promise<ChainClient>): Runtime {
  const { now, snackbar } = kernel
  /** Per network and address: what the API said, and when it was asked. */
  const balances = new Map<string, { entries?: Api.TokenBalance[] | undefined; at: number }>()
  /** Until when balance reads are blocked after a failure. */
  let blockedUntil = 0

  const keyOf = (network: Network, address: string) => `${network.id}:${address}`

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

  function fields(_namespace: Caip.Namespace, connection: Connection): BalanceFields {
    const address = connection.accounts[0]?.address ?? ''
    const network = kernel.configured(connection.chainId)
    const entries = network && balances.get(keyOf(network, address))?.entries
    const native = entries?.find((entry) => entry.address === undefined)
    return {
      balance: network
        ? `${formatQuantity(native?.quantity.numeric)} ${network.nativeCurrency.symbol}`
        : undefined,
      tokens: tokenRows(entries ?? []),
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

  return {
    account: fields,
    ui,
    opened: () => void refresh(),
    connected(namespace) {
      void refresh(namespace, true)
      return false
    },
    changed(namespace) {
      void refresh(namespace, true)
      return false
    },
    requested(request, result) {
      if (request.method === 'eth_sendTransaction' && typeof result === 'string')
        void afterTransaction(result)
    },
  }
}
