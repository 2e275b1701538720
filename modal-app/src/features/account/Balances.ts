/**
 * The connected EVM account's balances from the API, formatted for the Account view. Balances are cached
 * for 30 s, so opening and closing the modal costs the API nothing; after a failure none is asked for 30 s,
 * so a dead RPC is not hammered.
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
  /** Native balance, truncated to 3 decimals (`9999.999 ETH`); EVM only for now. */
  balance?: string | undefined
  /** The ERC-20 tokens the account holds, from the API. */
  tokens: TokenRow[]
}

/** The actions of the Account view. */
export type AccountUi = {
  /** The view copied the address (or failed to). */
  copied(ok: boolean): void
}

export function setup(kernel: Kernel, loadChainClient: () => Promise<ChainClient>): Runtime {
  const { now, snackbar } = kernel
  let balance: { key: string; entries?: Api.TokenBalance[] | undefined; at: number } | undefined
  /** Until when balance reads are blocked after a failure. */
  let blockedUntil = 0

  /** `force` skips the modal's cache, `fresh` the API's too (after a transaction the API's is stale). */
  async function refresh(force = false, fresh = false) {
    const connection = kernel.connectionOf('eip155')
    const network = connection && kernel.configured(connection.chainId)
    const address = connection?.accounts[0]?.address
    if (!network || !address) return
    const key = `${network.id}:${address}`
    if (now() < blockedUntil) return
    if (!force && balance?.key === key && now() - balance.at < balanceCacheMs) return
    balance = { key, entries: balance?.key === key ? balance.entries : undefined, at: now() }
    try {
      const entries = await kernel.api.balances(network.id, address, { fresh })
      if (balance?.key !== key) return
      balance = { key, entries, at: now() }
      kernel.changed()
    } catch (error) {
      // The toast, and no new attempt for a while; the balance stays at its last value (0.000 at first).
      blockedUntil = now() + balanceRetryBlockMs
      if (balance?.key === key) balance = { ...balance, at: 0 }
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
    await refresh(true, true)
  }

  function fields(namespace: Caip.Namespace, connection: Connection): BalanceFields {
    const address = connection.accounts[0]?.address ?? ''
    const network = kernel.configured(connection.chainId)
    const entries = network && balance?.key === `${network.id}:${address}` ? balance.entries : undefined
    const native = entries?.find((entry) => entry.address === undefined)
    return {
      balance:
        namespace === 'eip155' && network
          ? `${formatQuantity(native?.quantity.numeric)} ${network.nativeCurrency.symbol}`
          : undefined,
      tokens: (entries ?? [])
        .filter((entry) => entry.address !== undefined)
        .map((entry) => ({
          symbol: entry.symbol,
          name: entry.name,
          amount: formatQuantity(entry.quantity.numeric),
          fiat: formatFiat(entry.value),
          iconUrl: entry.iconUrl,
        })),
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
      if (namespace === 'eip155') void refresh(true)
      return false
    },
    changed(namespace) {
      if (namespace === 'eip155') void refresh(true)
      return false
    },
    disconnected(namespace) {
      if (namespace === 'eip155') balance = undefined
    },
    requested(request, result) {
      if (request.method === 'eth_sendTransaction' && typeof result === 'string')
        void afterTransaction(result)
    },
  }
}
