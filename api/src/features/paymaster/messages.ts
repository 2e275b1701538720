/**
 * The paymaster's refusals, the `message` of its JSON-RPC errors, which clients may match on; the shared
 * ones (`Project id not configured`, `Unsupported chain: {id}`, `The RPC of {id} is unavailable`) are
 * `http/errors.ts`'s.
 */
import { formatGwei } from 'viem'

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
