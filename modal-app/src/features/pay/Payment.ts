/**
 * A payment as Pay handles it, apart from React and the wallet: the amount in base units, what the account
 * lacks, and the transaction that pays (a plain transfer of the native currency, or an ERC-20 `transfer`).
 */
import type { Payment } from '@airlock/bridge-protocol'
import { encodeFunctionData, erc20Abi, formatUnits, parseUnits } from 'viem'

/** The asset a payment moves: the chain's own currency (no token), or an ERC-20 token. */
export type Asset = { symbol: string; decimals: number; token?: `0x${string}` | undefined; price?: number }

/** The token of a payment's `asset`; undefined for the native currency (the default). */
export function tokenOf(payment: Payment): `0x${string}` | undefined {
  return payment.asset && payment.asset !== 'native' ? (payment.asset as `0x${string}`) : undefined
}

/**
 * The amount in base units; undefined when it has more decimals than the asset (the dApp's mistake).
 * @example baseUnits('0.05', 18) // 50000000000000000n
 */
export function baseUnits(amount: string, decimals: number): bigint | undefined {
  const [, fraction = ''] = amount.split('.')
  if (fraction.replace(/0+$/, '').length > decimals) return undefined
  return parseUnits(amount.startsWith('.') ? `0${amount}` : amount, decimals)
}

/** What `balance` lacks to pay `amount`, 0 when enough. */
export function shortfall(amount: bigint, balance: bigint): bigint {
  return amount > balance ? amount - balance : 0n
}

/** Base units in whole units, without trailing zeros. */
export function whole(value: bigint, decimals: number): string {
  return formatUnits(value, decimals)
}

/** The fiat worth of `value` at `price` (USD), to the cent; undefined without a price. */
export function fiat(value: bigint, asset: Asset): string | undefined {
  if (!asset.price) return undefined
  const worth = Number(formatUnits(value, asset.decimals)) * asset.price
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(worth)
}

/**
 * The wallet transaction that pays `amount` to `to` from `from`.
 * @example transaction({ from, to, amount: 10n ** 16n }) // { from, to, value: '0x2386f26fc10000' }
 */
export function transaction(input: {
  from: string
  to: string
  amount: bigint
  token?: `0x${string}` | undefined
}): { from: string; to: string; value?: `0x${string}`; data?: `0x${string}` } {
  if (!input.token) return { from: input.from, to: input.to, value: `0x${input.amount.toString(16)}` }
  return {
    from: input.from,
    to: input.token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [input.to as `0x${string}`, input.amount],
    }),
  }
}
