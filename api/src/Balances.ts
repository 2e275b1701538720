/**
 * Native and ERC-20 balances of an address on one configured EVM chain, read from the chain's RPC: one
 * `eth_getBalance` and one multicall for every configured token. The multicall is "deployless" (viem sends
 * the Multicall3 bytecode with the `eth_call`), so it works on any chain, a fresh devnet included.
 */
import { type Address, createPublicClient, erc20Abi, formatUnits, http, type PublicClient } from 'viem'
import type { Chain } from './Config.ts'
import * as Prices from './Prices.ts'

/** SPEC §3's token balance; `address` (CAIP-10) is absent for the native currency. */
export type TokenBalance = {
  name: string
  symbol: string
  chainId: string
  address?: string
  value: number
  price: number
  quantity: { decimals: string; numeric: string }
  iconUrl: string
}

/** The chain's RPC failed or answered nonsense. */
export class RpcError extends Error {
  override name = 'RpcError'
}

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
 * are 0 are dropped as low quality (SPEC §5).
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
    throw new RpcError(`The RPC of ${chain.id} did not answer.`, { cause: error })
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
