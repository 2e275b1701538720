/**
 * Buy's form, apart from React and the network: what the visitor may choose given the API's options, the
 * defaults (the account's chain's own currency, paid in USD), and whether an amount is within the card
 * limits, said in the API's words (`Contract.onrampTexts`) so the form and the API never disagree.
 */
import * as Contract from '@airlock/api/contract'
import type { LiveQuoteState } from '../../shared/LiveQuote.ts'
import { onrampTexts } from './texts.ts'

export type Options = Contract.OnrampOptionsAnswer

/** The form's live quote (shared/LiveQuote.ts): the provider's price for what the form asks. */
export type QuoteState = LiveQuoteState<Contract.OnrampQuoteBody, Contract.OnrampQuoteAnswer>

export type Form = {
  /** Fiat, fees included, as typed. */
  amount: string
  /** ISO 4217. */
  currency: string
  /** The purchase currency's id (`ETH`). */
  asset: string
  /** CAIP-2. */
  network: string
  /** The provider's id; undefined leaves the choice to the API (its first). */
  provider?: string | undefined
}

/** The amounts offered with one press, in the chosen currency. */
export const presets = ['50', '100', '250'] as const

/** At most 2 decimals: fiat has cents, not less. */
const fiat = /^\d{1,9}(\.\d{1,2})?$/

/** The networks (CAIP-2) the asset can be bought on. */
export function networksOf(options: Options, asset: string): Contract.OnrampNetwork[] {
  return options.purchaseCurrencies.find((currency) => currency.id === asset)?.networks ?? []
}

/** The card limits in `currency`. */
export function limitOf(options: Options, currency: string): Contract.OnrampLimit | undefined {
  return options.paymentCurrencies.find((entry) => entry.id === currency)?.limits.find((l) => l.id === 'card')
}

/**
 * The form the visitor starts from: `wanted` (an asset and network a caller asked for, such as Pay's
 * shortfall) if the options have it, else the native currency of `chainId`, else the first asset on that
 * chain, else the first asset of all; USD when offered.
 * @example initial(options, 'eip155:31337') // { asset: 'ETH', network: 'eip155:31337', currency: 'USD', amount: '' }
 */
export function initial(
  options: Options,
  chainId: string | undefined,
  wanted?: { asset: string; network: string; amount?: string | undefined } | undefined,
): Form | undefined {
  const currency = options.paymentCurrencies.some((entry) => entry.id === 'USD')
    ? 'USD'
    : options.paymentCurrencies[0]?.id
  if (!currency) return undefined
  const on = (network: string) =>
    options.purchaseCurrencies.flatMap((asset) =>
      asset.networks.filter((n) => n.chainId === network).map((n) => ({ asset, network: n })),
    )
  const pick =
    (wanted &&
      on(wanted.network).find(({ asset }) => asset.id.toLowerCase() === wanted.asset.toLowerCase())) ??
    (chainId
      ? (on(chainId).find(({ network }) => network.contractAddress === null) ?? on(chainId)[0])
      : undefined)
  const fallback = options.purchaseCurrencies[0]
  const asset = pick?.asset.id ?? fallback?.id
  const network = pick?.network.chainId ?? fallback?.networks[0]?.chainId
  if (!asset || !network) return undefined
  return { amount: wanted?.amount ?? '', currency, asset, network, provider: options.providers[0]?.id }
}

/** The form after the visitor chose another asset: its network kept where the asset is sold there. */
export function withAsset(form: Form, options: Options, asset: string): Form {
  const networks = networksOf(options, asset)
  const network = networks.some((n) => n.chainId === form.network) ? form.network : networks[0]?.chainId
  return { ...form, asset, network: network ?? form.network }
}

export type Checked = { ok: true; amount: string } | { ok: false; error: string }

/**
 * Whether the form can be quoted: an amount of at most 2 decimals within the card limits of its currency.
 * @example check({ ...form, amount: '5' }, options) // { ok: false, error: 'The minimum purchase is 10.00 USD' }
 */
export function check(form: Form, options: Options): Checked {
  const amount = form.amount.trim()
  if (!fiat.test(amount) || Number(amount) <= 0) return { ok: false, error: onrampTexts.invalidAmount }
  const limit = limitOf(options, form.currency)
  if (!limit) return { ok: false, error: Contract.onrampTexts.unsupportedPaymentCurrency(form.currency) }
  if (Number(amount) < Number(limit.min))
    return { ok: false, error: Contract.onrampTexts.minimum(limit.min, form.currency) }
  if (Number(amount) > Number(limit.max))
    return { ok: false, error: Contract.onrampTexts.maximum(limit.max, form.currency) }
  if (!networksOf(options, form.asset).some((n) => n.chainId === form.network))
    return { ok: false, error: Contract.onrampTexts.unsupportedPair(form.asset, form.network) }
  return { ok: true, amount }
}

/**
 * The fiat to pay, fees included, for at least `wanted` (whole units) of the asset, from a quote of another
 * amount: the provider's percentage fee and flat network fee read off the quote, 1 % on top for a price
 * that moves, up to the cent, and never under the card minimum.
 * @example fiatFor(0.5, quote, '10.00') // '1546.12'
 */
export function fiatFor(wanted: number, quote: Contract.OnrampQuoteAnswer, minimum = '0'): string {
  const total = Number(quote.paymentTotal.amount)
  const subtotal = Number(quote.paymentSubtotal.amount)
  const bought = Number(quote.purchaseAmount.amount)
  const networkFee = Number(quote.networkFee.amount)
  const feeShare = total > 0 ? Number(quote.coinbaseFee.amount) / total : 0
  const price = bought > 0 ? subtotal / bought : 0
  const needed = ((wanted * price + networkFee) / (1 - feeShare)) * 1.01
  const cents = Math.ceil(Math.max(needed, Number(minimum)) * 100)
  return (cents / 100).toFixed(2)
}
