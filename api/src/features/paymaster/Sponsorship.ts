/**
 * The sponsorship policy: which projects' user operations the paymaster pays for, up to how much gas each
 * and at what price per gas at most. A project that is not listed is not sponsored; its visitors' accounts
 * pay for themselves.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** What one user operation may use at most when no cap is configured: a deployment and a small batch. */
export const defaultMaxGas = 3_000_000n
/**
 * The most one sponsored operation may offer per gas when no cap is configured, in gwei: above a busy
 * mainnet's fees, yet a client's absurd offer (the EntryPoint charges up to `maxFeePerGas`) cannot take
 * more than 0.3 ETH of the deposit with the default gas cap.
 */
export const defaultMaxFeePerGasGwei = 100
const weiPerGwei = 1_000_000_000

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
   * The highest `maxFeePerGas` a sponsored operation may offer, in gwei, to the wei (a rollup's 0.01
   * gwei too). @default 100
   */
  maxFeePerGasGwei: S.optional(S.number(1e-9, 1e6)),
})

export const sponsorshipConfig = S.check(
  S.array(policy, 10_000),
  (list) => new Set(list.map((entry) => entry.projectId)).size === list.length,
  'sponsorship: each project is listed once',
)
export type Sponsorship = S.Infer<typeof sponsorshipConfig>

/** One project's caps on each operation it sponsors. */
export type Caps = { maxGas: bigint; maxFeePerGas: bigint }

/**
 * The caps on `projectId`'s sponsored operations (`maxFeePerGas` in wei), or undefined when the project is
 * not sponsored.
 * @example
 * Sponsorship.capsOf([{ projectId: 'demo' }], 'demo') // { maxGas: 3000000n, maxFeePerGas: 100000000000n }
 */
export function capsOf(sponsorship: Sponsorship | undefined, projectId: string): Caps | undefined {
  const entry = sponsorship?.find((item) => item.projectId === projectId)
  if (!entry) return undefined
  return {
    maxGas: entry.maxGas === undefined ? defaultMaxGas : BigInt(entry.maxGas),
    maxFeePerGas: BigInt(Math.round((entry.maxFeePerGasGwei ?? defaultMaxFeePerGasGwei) * weiPerGwei)),
  }
}
