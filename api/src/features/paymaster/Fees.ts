/**
 * The price of gas a sponsorship pays at most, tied to the chain: `maxPriorityFeePerGas` up to the policy's
 * tip cap, `maxFeePerGas` up to the chain's current base fee times a multiplier plus that tip (and under the
 * policy's absolute ceiling when it has one). The EntryPoint charges an operation
 * min(maxFeePerGas, base fee + tip) per gas: the base fee is burnt whoever bundles, the tip is what a bundler
 * keeps, so the tip cap bounds what one who bundles their own sponsored operations can take, and the
 * multiplier what a rising base fee can cost before the operation is included.
 */
import type { PublicClient } from 'viem'
import { RpcError } from '../../internal/rpc.ts'
import type { Policy } from './Sponsorship.ts'
import type * as UserOperation from './UserOperation.ts'

/**
 * How long a base fee read from the node is used: a fraction of a block on a busy L1, so a burst of
 * sponsorships asks the node once.
 */
export const baseFeeTtlMs = 2_000

export type BaseFee = () => Promise<bigint>

/**
 * The chain's latest base fee (0 on a chain without EIP-1559), read at most every {@link baseFeeTtlMs}.
 * @throws {RpcError} when the node cannot be read
 */
export function baseFee(client: PublicClient, chainId: string, now: () => number = Date.now): BaseFee {
  let cached: { at: number; value: Promise<bigint> } | undefined
  return () => {
    if (cached && now() - cached.at < baseFeeTtlMs) return cached.value
    const value = client.getBlock({ blockTag: 'latest' }).then(
      (block) => block.baseFeePerGas ?? 0n,
      (cause: unknown) => {
        // Asked again next time: a node that was down may be back.
        cached = undefined
        throw new RpcError(chainId, { cause })
      },
    )
    cached = { at: now(), value }
    return value
  }
}

/** The most a sponsored operation may offer per gas now, and as a tip. */
export type Ceiling = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * @example
 * Fees.ceiling(policy.fees, 10_000_000_000n) // { maxFeePerGas: 32000000000n, maxPriorityFeePerGas: 2000000000n }
 */
export function ceiling(fees: Policy['fees'], baseFee: bigint): Ceiling {
  // The multiplier to the thousandth, in integers: 2.5 × base fee is 2500n × base fee / 1000n.
  const tied =
    (baseFee * BigInt(Math.round(fees.baseFeeMultiplier * 1000))) / 1000n + fees.maxPriorityFeePerGas
  const maxFeePerGas = fees.maxFeePerGas !== undefined && fees.maxFeePerGas < tied ? fees.maxFeePerGas : tied
  return { maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
}

/** Which of the operation's fees is over `limit`, if one is: its tip first. */
export function overOf(
  op: Pick<UserOperation.UserOperation, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  limit: Ceiling,
): { kind: 'tip' | 'fee'; offered: bigint; limit: bigint } | undefined {
  if (op.maxPriorityFeePerGas > limit.maxPriorityFeePerGas)
    return { kind: 'tip', offered: op.maxPriorityFeePerGas, limit: limit.maxPriorityFeePerGas }
  if (op.maxFeePerGas > limit.maxFeePerGas)
    return { kind: 'fee', offered: op.maxFeePerGas, limit: limit.maxFeePerGas }
  return undefined
}
