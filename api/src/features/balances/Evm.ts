/**
 * Native and ERC-20 balances of an address on one configured EVM chain, read from the chain's RPC: one
 * `eth_getBalance` and one multicall for every configured token. The multicall is "deployless" (viem sends
 * the Multicall3 bytecode with the `eth_call`), so it works on any chain, a fresh devnet included.
 */
import { type Address, erc20Abi, type PublicClient } from 'viem'
import type { Chain } from '../../Config.ts'
import { evmClient, RpcError } from '../../internal/rpc.ts'
import type { Amount } from './Balances.ts'

/**
 * The API's client of a configured EVM chain (Sign In With Farcaster reads its IdRegistry through it too):
 * a read is retried twice, soon, as a balance is asked for while the visitor waits.
 * @example const fid = await Evm.clientOf(chain).readContract({ … })
 */
export function clientOf(chain: Chain): PublicClient {
  return evmClient(chain.rpcUrl, { retryCount: 2, retryDelay: 150 })
}

/**
 * The native balance first, then each configured token with a non-zero balance. Tokens whose decimals
 * are 0 are dropped: a token without decimals is almost always spam or a misconfigured contract, and its
 * amount would read as a huge whole number.
 * @throws {RpcError} when the chain's RPC does not answer
 * @example
 * await Evm.amounts(chain, '0xf39F…2266')
 */
export async function amounts(chain: Chain, address: Address): Promise<Amount[]> {
  const tokens = (chain.tokens ?? []).filter((token) => token.decimals !== 0)
  const client = clientOf(chain)
  let nativeWei: bigint
  let results: { status: 'success' | 'failure'; result?: bigint }[]
  try {
    ;[nativeWei, results] = await Promise.all([
      client.getBalance({ address }),
      tokens.length === 0
        ? Promise.resolve([])
        : client.multicall({
            deployless: true,
            allowFailure: true,
            contracts: tokens.map((token) => ({
              address: token.address as Address,
              abi: erc20Abi,
              functionName: 'balanceOf' as const,
              args: [address] as const,
            })),
          }),
    ])
  } catch (error) {
    throw new RpcError(chain.id, { cause: error })
  }
  const found: Amount[] = [{ amount: nativeWei, ...chain.nativeCurrency }]
  for (const [index, token] of tokens.entries()) {
    const result = results[index]
    if (result?.status !== 'success' || typeof result.result !== 'bigint' || result.result === 0n) continue
    found.push({
      amount: result.result,
      decimals: token.decimals,
      name: token.name,
      symbol: token.symbol,
      iconUrl: token.iconUrl,
      token: token.address,
    })
  }
  return found
}
