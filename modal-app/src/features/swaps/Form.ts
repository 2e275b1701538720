/**
 * The swap form's rules, apart from React and the network: which tokens the account can swap and holds,
 * what the visitor typed (on either side), and whether it can be quoted and reviewed. Amounts never pass
 * through a float: they are base units in `bigint` from the keyboard to the transaction.
 */
import type * as Contract from '@airlock/api/contract'
import type * as Api from '../../api/Api.ts'
import { baseUnits, formatUnits, parseAmount } from '../../shared/Amount.ts'
import { formatQuantity } from '../../shared/format.ts'
import type { PickerOption } from '../../shared/ui/choices.ts'
import { swapTexts } from './texts.ts'

/** A token the chain swaps, with what the account holds of it. */
export type Token = {
  /** CAIP-10 (`eip155:31337:0x…`; `0xeeee…` for the native currency). */
  id: string
  name: string
  symbol: string
  decimals: number
  logoUri: string
  /** USD, 0 when unknown. */
  price: number
  native: boolean
  balance: bigint
}

/** The side the visitor typed an amount on: what they pay (`from`) or what they want (`to`). */
export type Side = 'from' | 'to'

export type Form = {
  from: string | undefined
  to: string | undefined
  /** The text of the side the visitor typed on; the other side shows the quote. */
  amount: string
  side: Side
  /** Percent, as typed. */
  slippage: string
}

export const emptyForm: Form = { from: undefined, to: undefined, amount: '', side: 'from', slippage: '1' }

/** What a form asks the pools: `amount` in the base units of the typed side's token. */
export type Ask = { from: Token; to: Token; side: Side; amount: bigint }

export type Checked = { ok: true; ask: Ask; slippage: string } | { ok: false; error: string }

const nativeSentinel = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/**
 * The chain's swap tokens with the account's balances from the balance route: tokens the account holds
 * first (by their worth), then the rest in the API's order.
 * @example tokensOf(await client.tokens('eip155:1'), await api.balances('eip155:1', address))
 */
export function tokensOf(listed: readonly Contract.SwapToken[], held: readonly Api.TokenBalance[]): Token[] {
  const balances = new Map<string, bigint>()
  for (const entry of held) {
    const key = entry.address ? entry.address.toLowerCase() : 'native'
    balances.set(key, baseUnits(entry.quantity.numeric, Number(entry.quantity.decimals)))
  }
  const tokens = listed.map((token): Token => {
    const native = token.address.toLowerCase().endsWith(nativeSentinel)
    return {
      id: token.address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      logoUri: token.logoUri,
      price: token.price,
      native,
      balance: balances.get(native ? 'native' : token.address.toLowerCase()) ?? 0n,
    }
  })
  const worth = (token: Token) => (Number(token.balance) / 10 ** token.decimals) * token.price
  const holding = tokens.filter((token) => token.balance > 0n).sort((a, b) => worth(b) - worth(a))
  return [...holding, ...tokens.filter((token) => token.balance === 0n)]
}

/** A token's balance as the form shows it (3 decimals, truncated). */
export const balanceOf = (token: Token) => formatQuantity(formatUnits(token.balance, token.decimals))

/**
 * The tokens as a side's picker lists them: symbol, name, the balance where the account holds some, the
 * API's icon (a monogram without one); the search finds a token by its symbol, name or pasted address.
 */
export function tokenOptions(tokens: readonly Token[]): PickerOption[] {
  return tokens.map((token) => ({
    value: token.id,
    label: token.symbol,
    detail: token.name,
    amount: token.balance > 0n ? balanceOf(token) : undefined,
    icon: { url: token.logoUri || undefined, seed: token.id },
    keywords: [token.id.split(':').at(-1) ?? token.id],
  }))
}

/**
 * Whether the form can be quoted: two different tokens and an amount, and on the paying side no more
 * than the balance. `final` is the review's check, which also refuses what typing leaves for later (an
 * empty amount).
 */
export function check(form: Form, tokens: readonly Token[], options: { locale?: string } = {}): Checked {
  const from = tokens.find((token) => token.id === form.from)
  const to = tokens.find((token) => token.id === form.to)
  if (!from || !to) return { ok: false, error: swapTexts.chooseTokens }
  if (from.id.toLowerCase() === to.id.toLowerCase()) return { ok: false, error: swapTexts.sameToken }
  const typed = form.side === 'from' ? from : to
  const parsed = parseAmount(form.amount, typed.decimals, typed.symbol, options.locale)
  if (!parsed.ok) return parsed
  if (form.side === 'from' && parsed.value > from.balance)
    return { ok: false, error: swapTexts.insufficient(from.symbol) }
  const slippage = slippageOf(form.slippage)
  if (slippage === undefined) return { ok: false, error: swapTexts.invalidSlippage }
  return { ok: true, ask: { from, to, side: form.side, amount: parsed.value }, slippage }
}

/** The slippage tolerance in percent, as the API takes it (`0.5`), or undefined outside 0.01–50. */
export function slippageOf(text: string): string | undefined {
  const plain = text.trim().replace(',', '.')
  if (!/^\d{1,2}(\.\d{1,4})?$/.test(plain)) return undefined
  const value = Number(plain)
  return value >= 0.01 && value <= 50 ? String(value) : undefined
}
