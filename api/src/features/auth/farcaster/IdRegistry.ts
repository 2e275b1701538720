/**
 * Farcaster's IdRegistry, read on the configured chain through the API's own chain client: the fid a
 * custody address owns (`idOf`, 0 for none). On Farcaster it is `0x00000000Fc6c5F01Fc30151999387Bb99A9f489b`
 * on Optimism; the dev stack deploys a stand-in on its chain A.
 */
import { type Address, parseAbi } from 'viem'
import type * as Config from '../../../Config.ts'
import { RpcError } from '../../../internal/rpc.ts'
import * as Evm from '../../balances/Evm.ts'

const abi = parseAbi(['function idOf(address owner) view returns (uint256)'])

/** The fid `custody` owns, 0n for none. */
export type IdOf = (custody: Address) => Promise<bigint>

/**
 * The registry reader of a configuration's `farcaster` block.
 * @throws {RpcError} (from the reader) when the chain cannot be read: the API answers 502
 * @example const fid = await IdRegistry.reader(config.chains, config.farcaster)(custody)
 */
export function reader(chains: readonly Config.Chain[], farcaster: Config.Farcaster): IdOf {
  const { chainId, address } = farcaster.idRegistry
  // The configuration refuses a registry on a chain it does not name.
  const chain = chains.find((candidate) => candidate.id === chainId)
  return async (custody) => {
    if (!chain) throw new RpcError(chainId)
    try {
      return await Evm.clientOf(chain).readContract({
        address: address as Address,
        abi,
        functionName: 'idOf',
        args: [custody],
      })
    } catch (error) {
      // A dead RPC, or no registry at the address (a read of no code answers no data): nothing can be said.
      throw new RpcError(chainId, { cause: error })
    }
  }
}
