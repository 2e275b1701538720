/**
 * Balances of an address on one configured chain, whatever its family: each family's reader says what the
 * address holds (`Evm.ts`, `Solana.ts`, `Bitcoin.ts`), and this module prices it in the contract's shape.
 */
import { Caip } from '@airlock/bridge-protocol'
import { type Address, formatUnits } from 'viem'
import type { Chain } from '../../Config.ts'
import type * as Contract from '../../contract/index.ts'
import * as Evm from './Evm.ts'
import * as Prices from './Prices.ts'
import * as Solana from './Solana.ts'

/** One balance, in the contract's shape: the route answers these as they are. */
export type TokenBalance = Contract.TokenBalance

/** What an address holds of one asset; `token` is absent for the chain's native currency. */
export type Amount = {
  amount: bigint
  decimals: number
  name: string
  symbol: string
  iconUrl?: string | undefined
  token?: string | undefined
}

/** Bitcoin-family balances: the chain's index (`features/esplora`), or any Esplora server. */
export type BitcoinBalances = (
  chain: Chain,
  address: string,
) => Promise<{ confirmed: bigint; unconfirmed: bigint }>

export type ReadOptions = {
  chain: Chain
  /** Already valid for the chain's family (the route checks it). */
  address: string
  currency: Prices.Currency
  prices: Prices.PriceSource
  bitcoin?: BitcoinBalances | undefined
}

/**
 * The native balance first, then each configured token the address holds, priced.
 * @throws {RpcError} when the chain's RPC does not answer
 * @example
 * await Balances.read({ chain, address: '0xf39F…2266', currency: 'usd', prices: Prices.fromDatabase(db) })
 */
export async function read(options: ReadOptions): Promise<TokenBalance[]> {
  const { chain } = options
  const found = await amounts(options)
  const priced = await options.prices.prices(
    found.map((entry) => ({ chainId: chain.id, address: (entry.token ?? Prices.native).toLowerCase() })),
    options.currency,
  )
  return found.map((entry): TokenBalance => {
    const price = priced.find((item) => item.address === (entry.token ?? Prices.native).toLowerCase())
    const numeric = formatUnits(entry.amount, entry.decimals)
    return {
      name: entry.name,
      symbol: entry.symbol,
      chainId: chain.id,
      ...(entry.token ? { address: `${chain.id}:${entry.token}` } : {}),
      value: Number(numeric) * (price?.price ?? 0),
      price: price?.price ?? 0,
      quantity: { decimals: String(entry.decimals), numeric },
      iconUrl: entry.iconUrl ?? price?.iconUrl ?? '',
    }
  })
}

async function amounts(options: ReadOptions): Promise<Amount[]> {
  const { chain, address } = options
  const { namespace } = Caip.parseChainId(chain.id as Caip.ChainId)
  if (namespace === 'eip155') return Evm.amounts(chain, address as Address)
  if (namespace === 'solana') return Solana.amounts(chain, address)
  const held = await (options.bitcoin ?? unavailable)(chain, address)
  return [
    {
      amount: held.confirmed + held.unconfirmed,
      ...chain.nativeCurrency,
    },
  ]
}

const unavailable: BitcoinBalances = async (chain) => {
  throw new Error(`No Bitcoin index for ${chain.id}`)
}
