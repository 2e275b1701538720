/**
 * The paymaster's refusals, the `message` of its JSON-RPC errors, which clients may match on; the shared
 * ones (`Project id not configured`, `Unsupported chain: {id}`, `The RPC of {id} is unavailable`) are
 * `http/errors.ts`'s, and the bundler's `The bundler of {id} is unavailable` is `features/bundler`'s.
 */
import { type Address, formatGwei, formatUnits, type Hex } from 'viem'
import type { Policy } from './Sponsorship.ts'

/** A chain's native currency, as amounts are written in refusals. */
type Currency = { symbol: string; decimals: number }

const amount = (wei: bigint, currency: Currency) =>
  `${formatUnits(wei, currency.decimals)} ${currency.symbol}`

const budgets: Record<keyof Policy['budget'], string> = {
  perDay: 'daily budget',
  total: 'total budget',
  perSenderPerDay: 'daily budget per sender',
}

export const messages = {
  notSponsored: (projectId: string) => `Project ${projectId} is not sponsored`,
  noPaymaster: (chainId: string) => `No paymaster sponsors operations on ${chainId}`,
  otherEntryPoint: (chainId: string, served: string, asked: string) =>
    `The paymaster of ${chainId} serves EntryPoint ${served}, not ${asked}`,
  otherChain: (chainId: string, asked: string) => `chainId ${asked} is not ${chainId}`,
  overCap: (gas: bigint, cap: bigint) =>
    `The operation asks for ${gas} gas, more than the ${cap} its sponsorship allows`,
  overFee: (fee: bigint, cap: bigint) =>
    `The operation offers up to ${formatGwei(fee)} gwei per gas, more than the ${formatGwei(cap)} gwei its sponsorship allows`,
  overTip: (tip: bigint, cap: bigint) =>
    `The operation offers a tip of ${formatGwei(tip)} gwei per gas, more than the ${formatGwei(cap)} gwei its sponsorship allows`,
  overPreVerificationGas: (asked: bigint, limit: bigint) =>
    `The operation asks for ${asked} preVerificationGas, more than the ${limit} its size calls for`,
  overEstimate: (field: 'callGasLimit' | 'verificationGasLimit', asked: bigint, limit: bigint) =>
    `The operation asks for a ${field} of ${asked}, more than the ${limit} the bundler's estimate allows`,
  unestimated: (reason: string) => `The operation's gas could not be estimated: ${reason}`,
  overBudget: (
    rule: keyof Policy['budget'],
    cost: bigint,
    limit: bigint,
    committed: bigint,
    currency: Currency,
  ) =>
    `The operation may cost up to ${amount(cost, currency)}, more than the ${amount(limit > committed ? limit - committed : 0n, currency)} left of its sponsorship's ${budgets[rule]} of ${amount(limit, currency)}`,
  offList: (to: Address, selector: Hex | undefined) =>
    `The operation calls ${selector ? `${selector} on ` : ''}${to}, which its sponsorship does not allow`,
  offListDeployment: (to: Address) =>
    `The operation deploys its account with ${to}, which its sponsorship does not allow`,
  unreadable:
    "The operation's call data is not the account's execute or executeBatch, and its sponsorship allows listed calls only",
  unreadableDeployment:
    'The operation delegates its account (EIP-7702) without its authorization, and its sponsorship allows listed contracts only',
  unknownMethod: (method: string) => `The paymaster does not serve ${method}`,
  invalidParams: (reason: string) => `Invalid params: ${reason}`,
  params: 'expected [userOperation, entryPoint, chainId, context?]',
} as const

/** JSON-RPC codes: EIP-1474's, with -32003 ("transaction rejected") for what the policy refuses. */
export const codes = {
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  refused: -32003,
} as const
