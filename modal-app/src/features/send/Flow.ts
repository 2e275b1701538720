/**
 * Send's rules, apart from the views and the chains: what the visitor filled in becomes a {@link Draft} or
 * the one error to show (docs/behaviour.md §5's texts first, in its order), and the steps a send goes through.
 */
import type { Caip } from '@airlock/bridge-protocol'
import type * as Api from '../../api/Api.ts'
import { parseAmount } from '../../shared/Amount.ts'
import type { Network } from '../../shared/Network.ts'
import type { Asset, Draft, Preview } from './Family.ts'
import { sendTexts } from './texts.ts'

/** An asset the sender holds, as the form offers it. */
export type Holding = Asset & {
  /** The option's key: `native` or the token's address. */
  key: string
  name: string
  /** The balance, in base units. */
  balance: bigint
  /** US dollars per whole unit, when the API knows a price. */
  price?: number | undefined
  /** The token's icon, from the API's registry of tokens; none draws its monogram. */
  iconUrl?: string | undefined
}

/** What a send moves of a holding: the asset alone, without what the form shows beside it. */
export function assetOf(holding: Holding): Asset {
  const { key: _key, name: _name, balance: _balance, price: _price, iconUrl: _icon, ...asset } = holding
  return asset
}

/** The form as the visitor filled it in: text, as typed. */
export type Form = { asset: string; amount: string; to: string; feeRate?: number | undefined }

/** Where a send is. */
export type Step =
  | { step: 'form'; busy: boolean; error?: string | undefined }
  | { step: 'preview'; preview: Preview; busy: boolean; error?: string | undefined }
  | { step: 'sent'; preview: Preview; id: string; status: 'pending' | 'confirmed' | 'failed' }

export type Context = {
  namespace: Caip.Namespace | undefined
  from: string | undefined
  publicKey?: Uint8Array | undefined
  /** The account's network; undefined when the wallet is on one the dApp did not configure. */
  network: Network | undefined
  /** Whether a family can send on the namespace. */
  supported: boolean
  holdings: readonly Holding[]
  checkAddress(address: string, network: Network): string | undefined
  locale?: string | undefined
}

export type Checked = { ok: true; draft: Draft; holding: Holding } | { ok: false; error: string }

/** The form's one error, or the draft to preview. */
export function check(form: Form, context: Context): Checked {
  const to = form.to.trim()
  if (!form.amount.trim() || !to) return { ok: false, error: sendTexts.required }
  const holding = context.holdings.find((h) => h.key === form.asset)
  if (!form.asset) return { ok: false, error: sendTexts.tokenRequired }
  const { network, from } = context
  if (!network || !from || !context.supported) return { ok: false, error: sendTexts.unsupportedChain }
  if (!holding) return { ok: false, error: sendTexts.unknownToken }
  const amount = parseAmount(form.amount, holding.decimals, holding.symbol, context.locale)
  if (!amount.ok) return amount
  const invalid = context.checkAddress(to, network)
  if (invalid) return { ok: false, error: invalid }
  // EVM addresses are the same whatever their case (EIP-55 only checks it); base58 and bech32 are not.
  const same = (a: string, b: string) =>
    context.namespace === 'eip155' ? a.toLowerCase() === b.toLowerCase() : a === b
  if (same(to, from)) return { ok: false, error: sendTexts.ownAddress }
  if (holding.address && same(to, holding.address))
    return { ok: false, error: sendTexts.tokenContract(holding.symbol) }
  const asset = assetOf(holding)
  return {
    ok: true,
    holding,
    draft: {
      from,
      to,
      asset,
      amount: amount.value,
      ...(context.publicKey ? { publicKey: context.publicKey } : {}),
      ...(form.feeRate ? { feeRate: form.feeRate } : {}),
    },
  }
}

/** A balance answer as the form offers it; token addresses come as CAIP-10, the family wants the bare one. */
export function holdingsOf(entries: readonly Api.TokenBalance[], network: Network): Holding[] {
  return entries.map((entry) => {
    const decimals = entry.address ? Number(entry.quantity.decimals) : network.nativeCurrency.decimals
    const [whole = '0', fraction = ''] = entry.quantity.numeric.split('.')
    const balance = BigInt(`${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}`)
    const address = entry.address?.slice(entry.address.lastIndexOf(':') + 1)
    return {
      key: address ?? 'native',
      name: entry.name,
      symbol: entry.symbol,
      decimals,
      balance,
      price: entry.price > 0 ? entry.price : undefined,
      iconUrl: entry.iconUrl || undefined,
      ...(address ? { address } : {}),
    }
  })
}
