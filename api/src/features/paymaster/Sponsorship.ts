/**
 * The sponsorship policy: which projects' user operations the paymaster pays for, and up to how much gas
 * each. A project that is not listed is not sponsored; its visitors' accounts pay for themselves.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** What one user operation may use at most when no cap is configured: a deployment and a small batch. */
export const defaultMaxGas = 3_000_000n

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
})

export const sponsorshipConfig = S.check(
  S.array(policy, 10_000),
  (list) => new Set(list.map((entry) => entry.projectId)).size === list.length,
  'sponsorship: each project is listed once',
)

export type Sponsorship = S.Infer<typeof sponsorshipConfig>

/**
 * The gas cap of `projectId`'s sponsored operations, or undefined when the project is not sponsored.
 * @example
 * Sponsorship.maxGasOf([{ projectId: 'demo' }], 'demo') // 3000000n
 */
export function maxGasOf(sponsorship: Sponsorship | undefined, projectId: string): bigint | undefined {
  const entry = sponsorship?.find((item) => item.projectId === projectId)
  if (!entry) return undefined
  return entry.maxGas === undefined ? defaultMaxGas : BigInt(entry.maxGas)
}
