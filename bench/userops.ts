/**
 * ERC-4337 on the dev stack: an AirlockAccount's sponsored user operations, send → included, one after
 * another through the API's bundler and paymaster routes (`@airlock/devnet/aa-measure`).
 */
import { measureUserOperations } from '@airlock/devnet/aa-measure'

/** User operation latency, ms: p50 and p99 of `count` sponsored operations on chain A. */
export async function userOperations(apiUrl: string, count = 20) {
  const measured = await measureUserOperations({ apiUrl, operations: count })
  return { userOpIncludedP50Ms: measured.p50Ms, userOpIncludedP99Ms: measured.p99Ms }
}
