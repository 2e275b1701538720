/**
 * The assets of a swap request: CAIP-10 ids read into a chain that swaps (its adapter) and the tokens on
 * it, each the chain's native currency or one of its configured tokens. Every refusal is a 400 that says
 * which rule the request broke.
 */
import { Caip } from '@airlock/bridge-protocol'
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import { type Address, getAddress } from 'viem'
import type { Chain, Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError, messages } from '../../http/errors.ts'
import type { PriceSource } from '../balances/Prices.ts'
import type { AdapterOf, Asset, SwapAdapter } from './Adapter.ts'
import { swapMessages } from './messages.ts'

/** A chain that swaps, with its venues (at least one). */
export type SwapChain = { chain: Chain; venues: readonly SwapAdapter[] }

/**
 * The chain `chainId` names, if it swaps; else a 400 with `refusal` (docs/behaviour.md §8's 'Network not supported for
 * Swaps', or '… for Gas Price' for the gas price).
 */
export function swapChain(
  config: Config,
  adapterOf: AdapterOf,
  chainId: string,
  refusal: string = Contract.swapTexts.unsupportedSwaps,
): SwapChain {
  const chain = config.chains.find((entry) => entry.id === chainId)
  const venues = chain ? adapterOf(chain) : []
  if (!chain || venues.length === 0) throw new HttpError(400, refusal)
  return { chain, venues }
}

/** The venue `id` names on a chain that swaps, else a 400; without an id, the chain's first venue. */
export function venueOf(swapping: SwapChain, id: string | undefined): SwapAdapter {
  const [first] = swapping.venues
  const venue = id === undefined ? first : swapping.venues.find((entry) => entry.id === id)
  if (!venue) throw new HttpError(400, swapMessages.unknownVenue(id ?? ''))
  return venue
}

/** Where a CAIP-10 id points: its chain id and its EIP-55 address (a 400 for a bad checksum). */
export function accountOf(id: string): { chainId: string; address: Address } {
  const { chainId, address } = Caip.parseAccountId(id)
  // Strict: a mixed-case address with a wrong EIP-55 checksum is a typo, not an address.
  if (!isEvmAddress(address, { strict: true })) throw new HttpError(400, messages.invalidEvmAddress)
  return { chainId, address: getAddress(address) }
}

/** The chain of all of `ids`, which must be one (a 400 otherwise), and that chain's swap setup. */
export function chainOfAll(config: Config, adapterOf: AdapterOf, ids: readonly string[]): SwapChain {
  const chains = new Set(ids.map((id) => accountOf(id).chainId))
  const [chainId] = chains
  if (chains.size !== 1 || chainId === undefined) throw new HttpError(400, swapMessages.differentChains)
  return swapChain(config, adapterOf, chainId)
}

/** The asset a token id names on `chain`: the native sentinel or a configured token, else a 400. */
export function assetOf(chain: Chain, id: string): Asset {
  const { address } = accountOf(id)
  if (address.toLowerCase() === Contract.nativeToken)
    return {
      // Spelled as the contract spells it, so a client can compare ids as strings.
      address: Contract.nativeToken,
      native: true,
      symbol: chain.nativeCurrency.symbol,
      decimals: chain.nativeCurrency.decimals,
    }
  const token = (chain.tokens ?? []).find((entry) => entry.address.toLowerCase() === address.toLowerCase())
  if (!token) throw new HttpError(400, swapMessages.unknownToken(id))
  return { address, native: false, symbol: token.symbol, decimals: token.decimals }
}

/** `from` and `to` of a swap: two assets on one chain that swaps, named as the visitor's account is. */
export function pairOf(
  config: Config,
  adapterOf: AdapterOf,
  request: { from: string; to: string; userAddress: string },
): SwapChain & { from: Asset; to: Asset; user: Address } {
  const swapping = chainOfAll(config, adapterOf, [request.from, request.to, request.userAddress])
  const [from, to] = [assetOf(swapping.chain, request.from), assetOf(swapping.chain, request.to)]
  if (from.address === to.address) throw new HttpError(400, swapMessages.sameToken)
  return { ...swapping, from, to, user: accountOf(request.userAddress).address }
}

/** A positive amount in a token's smallest unit, else a 400. */
export function amountOf(units: string): bigint {
  const amount = BigInt(units)
  if (amount === 0n) throw new HttpError(400, swapMessages.zeroAmount)
  return amount
}

/** An asset's CAIP-10 id on `chain`. */
export function idOf(chain: Chain, address: string): string {
  return `${chain.id}:${address}`
}

/**
 * The tokens a chain swaps, in the contract's shape: its native currency first, then its configured
 * tokens, priced in USD (0 when the price source does not know one).
 */
export async function list(chain: Chain, prices: PriceSource): Promise<Contract.SwapToken[]> {
  const tokens = [
    { address: Contract.nativeToken, ...chain.nativeCurrency, iconUrl: undefined },
    ...(chain.tokens ?? []).map((token) => ({ ...token, address: getAddress(token.address) })),
  ]
  const priced = await prices.prices(
    tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase() })),
    'usd',
  )
  return tokens.map((token) => {
    const price = priced.find((entry) => entry.address === token.address.toLowerCase())
    return {
      name: token.name,
      symbol: token.symbol,
      chainId: chain.id,
      address: idOf(chain, token.address),
      // The list is nobody's holdings: its amounts are 0.
      value: 0,
      price: price?.price ?? 0,
      quantity: { decimals: String(token.decimals), numeric: '0' },
      decimals: token.decimals,
      logoUri: token.iconUrl ?? price?.iconUrl ?? '',
      eip2612: false,
    }
  })
}
