/**
 * The sponsorship policies: which projects' user operations the paymaster pays for, and within what, shaped
 * as hosted gas managers shape theirs (budgets per project, per day and per sender, an allow-list of
 * contracts and functions, a ceiling on gas and on the price of gas). A project that is not listed is not
 * sponsored; its visitors' accounts pay for themselves.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { type Address, getAddress, type Hex, parseGwei } from 'viem'

/** What one user operation may use at most when no cap is configured: a deployment and a small batch. */
export const defaultMaxGas = 3_000_000n
/**
 * The default ceiling on `maxFeePerGas` is the chain's base fee times this plus the tip cap: viem's bundler
 * client offers 2.4 times the base fee it read, and the base fee may rise 12.5% a block before inclusion.
 */
export const defaultBaseFeeMultiplier = 3
/**
 * The default tip cap, in gwei: the tip is what whoever bundles a sponsored operation keeps (one who bundles
 * their own keeps it all), so it is held to what inclusion needs on a busy L1.
 */
export const defaultMaxPriorityFeePerGasGwei = 2

const evmAddress = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)
/** An amount in the smallest unit of a chain's native currency (wei), written in decimal: JSON numbers lose it. */
const wei = S.string(78, 1, /^(0|[1-9][0-9]*)$/)
const gwei = S.number(1e-9, 1e6)

/**
 * A contract the project's operations may call (its functions, when named), `self` for the account itself
 * (its session grants and revocations). An account's deployment is a call to its factory and an EIP-7702
 * delegation names the contract it delegates to: with `calls` set, those must be listed too.
 */
const allowedCall = S.object({
  to: S.union(S.literal('self'), evmAddress),
  /** 4-byte selectors, `0xa9059cbb` for ERC-20 `transfer`; left out, any call to `to` (value transfers too). */
  selectors: S.optional(
    S.check(
      S.array(S.string(10, 10, /^0x[0-9a-fA-F]{8}$/), 256),
      (list) => list.length > 0,
      'sponsorship calls selectors: expected at least one, or none named',
    ),
  ),
})

const policy = S.object({
  /** The project, as `?projectId=` names it. */
  projectId: S.string(64, 1),
  /**
   * The most gas one sponsored operation may ask for: its call, verification and pre-verification gas and
   * the paymaster's own limits, together. @default 3000000
   */
  maxGas: S.optional(
    S.check(S.number(21_000, 1e9), Number.isInteger, 'sponsorship maxGas: expected a whole number'),
  ),
  /**
   * What the project may spend on each chain, in wei of that chain's native currency, counted in the
   * database from the EntryPoint's `UserOperationEvent`s (what operations really cost) and, until then, at
   * the most each signed operation may cost. Days are UTC days.
   */
  budget: S.object({ perDay: wei, total: wei, perSenderPerDay: wei }),
  /** The price of gas it pays at most, tied to the chain's base fee when each operation is signed. */
  fees: S.optional(
    S.object({
      /** `maxFeePerGas` at most this times the base fee, plus the tip cap. @default 3 */
      baseFeeMultiplier: S.optional(S.number(1, 100)),
      /** `maxPriorityFeePerGas` at most this, in gwei. @default 2 */
      maxPriorityFeePerGasGwei: S.optional(gwei),
      /** An absolute ceiling on `maxFeePerGas` in gwei, whatever the base fee; none by default. */
      maxFeePerGasGwei: S.optional(gwei),
    }),
  ),
  /**
   * The only calls it sponsors: call data that is not the account's `execute` or `executeBatch` is then
   * refused, as the API cannot tell what it calls. Left out, any call.
   */
  calls: S.optional(
    S.check(
      S.array(allowedCall, 1000),
      (list) => new Set(list.map(({ to }) => to.toLowerCase())).size === list.length,
      'sponsorship calls: each contract is listed once',
    ),
  ),
})

export const sponsorshipConfig = S.check(
  S.array(policy, 10_000),
  (list) => new Set(list.map((entry) => entry.projectId)).size === list.length,
  'sponsorship: each project is listed once',
)
export type Sponsorship = S.Infer<typeof sponsorshipConfig>

/** One project's policy, its defaults filled in and its amounts in wei. */
export type Policy = {
  projectId: string
  maxGas: bigint
  budget: { perDay: bigint; total: bigint; perSenderPerDay: bigint }
  fees: { baseFeeMultiplier: number; maxPriorityFeePerGas: bigint; maxFeePerGas: bigint | undefined }
  /** Lower-case addresses (or `self`) to the selectors allowed there, undefined for any; none: any call. */
  calls: ReadonlyMap<Address | 'self', ReadonlySet<Hex> | undefined> | undefined
}

/**
 * `projectId`'s policy, or undefined when the project is not sponsored.
 * @example
 * Sponsorship.policyOf(config.sponsorship, 'demo')?.budget.perDay // 1000000000000000000n
 */
export function policyOf(sponsorship: Sponsorship | undefined, projectId: string): Policy | undefined {
  const entry = sponsorship?.find((item) => item.projectId === projectId)
  if (!entry) return undefined
  const fees = entry.fees ?? {}
  return {
    projectId,
    maxGas: entry.maxGas === undefined ? defaultMaxGas : BigInt(entry.maxGas),
    budget: {
      perDay: BigInt(entry.budget.perDay),
      total: BigInt(entry.budget.total),
      perSenderPerDay: BigInt(entry.budget.perSenderPerDay),
    },
    fees: {
      baseFeeMultiplier: fees.baseFeeMultiplier ?? defaultBaseFeeMultiplier,
      maxPriorityFeePerGas: gweiToWei(fees.maxPriorityFeePerGasGwei ?? defaultMaxPriorityFeePerGasGwei),
      maxFeePerGas: fees.maxFeePerGasGwei === undefined ? undefined : gweiToWei(fees.maxFeePerGasGwei),
    },
    calls:
      entry.calls &&
      new Map(
        entry.calls.map(({ to, selectors }) => [
          to === 'self' ? to : (getAddress(to).toLowerCase() as Address),
          selectors && new Set(selectors.map((selector) => selector.toLowerCase() as Hex)),
        ]),
      ),
  }
}

/** Gwei as configured (a JSON number, a rollup's 0.001 too) to wei, to the wei. */
function gweiToWei(amount: number): bigint {
  return parseGwei(amount.toFixed(9))
}
