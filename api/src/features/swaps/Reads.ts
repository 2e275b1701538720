/** Chain reads of the swap venues: a failure to read is the chain's (`RpcError`, a 502), never a refusal. */
import type { Chain } from '../../Config.ts'
import { RpcError } from '../../internal/rpc.ts'

/** Runs reads on `chain`, turning any failure into its {@link RpcError}. */
export function readOn(chain: Chain) {
  return async <T>(reading: () => Promise<T>): Promise<T> => {
    try {
      return await reading()
    } catch (error) {
      throw new RpcError(chain.id, { cause: error })
    }
  }
}
