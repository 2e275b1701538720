/**
 * Native and ERC-20 balances of an address on one configured EVM chain, read from the chain's RPC: one
 * `eth_getBalance` and one multicall for every configured token. The multicall is "deployless" (viem sends
 * the Multicall3 bytecode with the `eth_call`), so it works on any chain, a fresh devnet included.
 */
import { type Address, createPublicClient, erc20Abi, formatUnits, http, type PublicClient } from 'viem'
import type { Chain } from '../../Config.ts'
import type * as Contract from '../../contract/index.ts'
import { RpcError } from '../../internal/rpc.ts'
import * as Prices from './Prices.ts'

/** One balance, in the contract's shape: the route answers these as they are. */
export type TokenBalance = Contract.TokenBalance

const clients = new Map<string, PublicClient>()

function clientOf(chain: Chain): PublicClient {
  let client = clients.get(chain.rpcUrl)
  if (!client) {
    client = createPublicClient({
      transport: http(chain.rpcUrl, { retryCount: 2, retryDelay: 150, timeout: 10_000 }),
    })
    clients.set(chain.rpcUrl, client)
  }
  return client
}

export type ReadOptions = {
  chain: Chain
  address: Address
  currency: Prices.Currency
  prices: Prices.PriceSource
}

/**
 * The native balance first, then each configured token with a non-zero balance. Tokens whose decimals
 * are 0 are dropped: a token without decimals is almost always spam or a misconfigured contract, and its
 * amount would read as a huge whole number.
 * @throws {RpcError} when the chain's RPC does not answer
 * @example
 * await Balances.read({ chain, address: '0xf39F…2266', currency: 'usd', prices: Prices.fromDatabase(db) })
 */
export async function read(options: ReadOptions): Promise<TokenBalance[]> {
  const { chain, address } = options
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
  const priced = await options.prices.prices(
    [
      { chainId: chain.id, address: Prices.native },
      ...tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase() })),
    ],
    options.currency,
  )
  const priceOf = (tokenAddress: string) =>
    priced.find((price) => price.address === tokenAddress.toLowerCase())
  const entry = (
    amount: bigint,
    decimals: number,
    meta: { name: string; symbol: string; iconUrl?: string | undefined },
    tokenAddress?: string,
  ): TokenBalance => {
    const numeric = formatUnits(amount, decimals)
    const price = priceOf(tokenAddress ?? Prices.native)?.price ?? 0
    return {
      name: meta.name,
      symbol: meta.symbol,
      chainId: chain.id,
      ...(tokenAddress ? { address: `${chain.id}:${tokenAddress}` } : {}),
      value: Number(numeric) * price,
      price,
      quantity: { decimals: String(decimals), numeric },
      iconUrl: meta.iconUrl ?? priceOf(tokenAddress ?? Prices.native)?.iconUrl ?? '',
    }
  }
  const balances = [entry(nativeWei, chain.nativeCurrency.decimals, chain.nativeCurrency)]
  for (const [index, token] of tokens.entries()) {
    const result = results[index]
    if (result?.status !== 'success' || typeof result.result !== 'bigint' || result.result === 0n) continue
    balances.push(entry(result.result, token.decimals, token, token.address))
  }
  return balances
}
