/**
 * The few chain reads Buy and Pay make, through the API's JSON-RPC relay only (never an RPC URL the host
 * page chose: a node of the page's choosing could say tokens arrived that did not): a balance, an ERC-20
 * token's balance and decimals, and whether a transaction was mined.
 */
import type { Timers } from '../../core/Snackbar.ts'
import * as RelayRpc from '../../shared/RelayRpc.ts'
import { RpcError } from '../../shared/RelayRpc.ts'

/** How often a receipt is asked for. */
const pollMs = 1_000

/** `balanceOf(address)` and `decimals()` selectors. */
const balanceOfSelector = '0x70a08231'
const decimalsSelector = '0x313ce567'

export type ChainOptions = RelayRpc.RelayOptions & { timers: Timers }

export type Chain = ReturnType<typeof create>

/**
 * @example
 * const chain = Chain.create({ endpoint, chainId: 'eip155:31337', timers, unreachable })
 * await chain.receipt(hash) // 'confirmed'
 */
export function create(options: ChainOptions) {
  const rpc = RelayRpc.create(options)

  const quantity = (value: unknown): bigint => {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value)) throw new RpcError(options.unreachable)
    return value === '0x' ? 0n : BigInt(value)
  }
  const word = (address: string) => address.slice(2).toLowerCase().padStart(64, '0')

  return {
    /** The balance of `address` in base units: the native currency's, or the ERC-20 `token`'s. */
    async balance(address: string, token?: string | undefined): Promise<bigint> {
      if (!token) return quantity(await rpc('eth_getBalance', [address, 'latest']))
      const data = `${balanceOfSelector}${word(address)}`
      return quantity(await rpc('eth_call', [{ to: token, data }, 'latest']))
    },
    /** An ERC-20 token's decimals. */
    async decimals(token: string): Promise<number> {
      const decimals = Number(
        quantity(await rpc('eth_call', [{ to: token, data: decimalsSelector }, 'latest'])),
      )
      if (!Number.isInteger(decimals) || decimals > 77) throw new RpcError(options.unreachable)
      return decimals
    },
    /** Waits until `hash` is mined (or `signal` aborts): `confirmed`, or `failed` for a revert. */
    async receipt(hash: string, signal?: AbortSignal): Promise<'confirmed' | 'failed'> {
      for (;;) {
        if (signal?.aborted) throw signal.reason
        const receipt = (await rpc('eth_getTransactionReceipt', [hash]).catch(() => null)) as {
          status?: string
        } | null
        if (receipt?.status) return receipt.status === '0x1' ? 'confirmed' : 'failed'
        await new Promise((resolve) => options.timers.setTimeout(() => resolve(undefined), pollMs))
      }
    },
  }
}
