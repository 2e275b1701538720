import { type FormEvent, useId } from 'react'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { formatQuantity, truncateAddress } from '../../shared/format.ts'
import { type Side, slippageOf, type Token } from './Form.ts'
import { formatUnits } from './Plan.ts'
import type { Quote, QuoteState } from './Quotes.ts'
import type { SwapSlice, SwapUi } from './runtime.ts'
import { swapTexts } from './texts.ts'

/** Price impact from which the form warns, in percent. */
const highImpactPercent = 5

/** Base units as the form shows them: up to 6 decimals, truncated, never rounded up. */
function shortAmount(value: bigint | string, decimals: number): string {
  const exact = formatUnits(BigInt(value), decimals)
  const [whole, fraction = ''] = exact.split('.')
  const kept = fraction.slice(0, 6).replace(/0+$/, '')
  return kept ? `${whole}.${kept}` : (whole ?? '0')
}

/** What a swap of `toAmount` gives at least at `slippage` percent; undefined for an invalid slippage. */
function minimumAt(toAmount: bigint, slippage: string): bigint | undefined {
  const percent = slippageOf(slippage)
  if (percent === undefined) return undefined
  // In millionths, so 0.0001 % steps stay exact in bigint.
  const kept = 1_000_000n - BigInt(Math.round(Number(percent) * 10_000))
  return (toAmount * kept) / 1_000_000n
}

/** A route step's symbol: a listed token's, else the contract's shortened address (a pool's wrapped token). */
function symbolOf(id: string, tokens: readonly Token[]): string {
  const listed = tokens.find((token) => token.id.toLowerCase() === id.toLowerCase())
  if (listed) return listed.symbol
  const address = id.slice(id.lastIndexOf(':') + 1)
  return truncateAddress(address)
}

/** The quote the form shows: the ready one, else the one being replaced (dimmed), else none. */
function shownQuote(state: QuoteState): Quote | undefined {
  if (state.status === 'ready') return state.quote
  if (state.status === 'loading') return state.previous
  return undefined
}

/**
 * The swap form: what the visitor pays and receives (an amount on either side, the other from the live
 * quote), each side's token chosen in its own view, then the quote's rate, price impact, minimum received
 * and fee, and the slippage tolerance. Review builds and simulates the swap.
 */
export default function Swap({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SwapSlice>
  ui: Partial<SwapUi>
}) {
  const ids = useId()
  const { swap } = snapshot
  if (!swap) return <div className="view view-loading" aria-busy="true" />
  if (swap.unsupported)
    return (
      <div className="view">
        <p className="error-text" role="alert" data-testid="swap-unsupported">
          {swap.unsupported}
        </p>
      </div>
    )
  const { form, tokens, quote: state, step } = swap
  const from = tokens.find((token) => token.id === form.from)
  const to = tokens.find((token) => token.id === form.to)
  const quote = shownQuote(state)
  const ready = state.status === 'ready' && !state.stale
  const busy = step.step === 'form' && step.busy
  const error =
    (step.step === 'form' ? step.error : undefined) ??
    swap.problem ??
    (state.status === 'error' ? state.message : undefined)
  const field = (name: string) => `${ids}-${name}`
  const amountOn = (side: Side, token: Token | undefined) => {
    if (form.side === side) return form.amount
    if (!quote || !token) return ''
    return shortAmount(side === 'from' ? quote.fromAmount : quote.toAmount, token.decimals)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void ui.reviewSwap?.()
  }
  return (
    <form className="view swap-form" onSubmit={submit} noValidate aria-busy={swap.loading || busy}>
      <SideField
        id={field('from')}
        label={swapTexts.pay}
        token={from}
        value={amountOn('from', from)}
        error={error ? field('error') : undefined}
        onEdit={(value) => ui.editSwap?.('from', value)}
        onPick={() => ui.pickSwapToken?.('from')}
        onMax={() => ui.maxSwap?.()}
      />
      <div className="swap-flip">
        <button
          type="button"
          className="icon-button"
          aria-label={swapTexts.flip}
          data-testid="swap-flip"
          onClick={() => ui.flipSwap?.()}
        >
          <span aria-hidden="true">⇅</span>
        </button>
      </div>
      <SideField
        id={field('to')}
        label={swapTexts.receive}
        token={to}
        value={amountOn('to', to)}
        error={error ? field('error') : undefined}
        onEdit={(value) => ui.editSwap?.('to', value)}
        onPick={() => ui.pickSwapToken?.('to')}
      />
      {quote && from && to && (
        <QuoteSummary
          quote={quote}
          from={from}
          to={to}
          tokens={tokens}
          currency={swap.network?.currency}
          stale={!ready}
          slippage={form.slippage}
        />
      )}
      <label className="label" htmlFor={field('slippage')}>
        {swapTexts.slippage}
      </label>
      <input
        id={field('slippage')}
        className="search swap-slippage"
        inputMode="decimal"
        autoComplete="off"
        value={form.slippage}
        onChange={(event) => ui.editSwap?.('slippage', event.target.value)}
      />
      <p className="error-text" role="alert" id={field('error')} data-testid="swap-error">
        {error ?? ''}
      </p>
      <p className="muted" role="status" data-testid="swap-quote-status">
        {state.status === 'loading'
          ? swapTexts.quoting
          : state.status === 'ready' && state.stale
            ? swapTexts.stale
            : ''}
      </p>
      <div className="actions">
        <button type="submit" className="button" disabled={busy || swap.loading || !ready}>
          {busy ? swapTexts.reviewing : swapTexts.review}
        </button>
      </div>
    </form>
  )
}

/** One side of the swap: its amount and its token, with the balance (and Max on the paying side). */
function SideField(props: {
  id: string
  label: string
  token: Token | undefined
  value: string
  error: string | undefined
  onEdit(value: string): void
  onPick(): void
  onMax?: () => void
}) {
  const { id, token } = props
  return (
    <section className="swap-side" aria-labelledby={`${id}-label`}>
      <label className="label" id={`${id}-label`} htmlFor={id}>
        {props.label}
      </label>
      <div className="swap-row">
        <input
          id={id}
          className="search swap-amount"
          data-testid={`${id.endsWith('from') ? 'swap-from' : 'swap-to'}-amount`}
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder="0"
          value={props.value}
          aria-describedby={[`${id}-balance`, props.error ?? ''].join(' ').trim()}
          onChange={(event) => props.onEdit(event.target.value)}
        />
        <button
          type="button"
          className="button button-secondary swap-token"
          aria-label={`${props.label}: ${token ? token.symbol : swapTexts.chooseToken}`}
          aria-haspopup="dialog"
          onClick={props.onPick}
        >
          {token?.logoUri ? (
            <img className="token-icon" src={token.logoUri} alt="" width={20} height={20} />
          ) : null}
          <span>{token?.symbol ?? swapTexts.chooseToken}</span>
        </button>
      </div>
      <p className="muted swap-balance" id={`${id}-balance`}>
        {token
          ? swapTexts.balance(`${formatQuantity(formatUnits(token.balance, token.decimals))} ${token.symbol}`)
          : ''}
        {props.onMax && token && token.balance > 0n && (
          <button type="button" className="link-button" onClick={props.onMax}>
            {swapTexts.max}
          </button>
        )}
      </p>
    </section>
  )
}

/** The quote's terms: rate, price impact (warned when high), minimum received, network fee, route. */
function QuoteSummary(props: {
  quote: Quote
  from: Token
  to: Token
  tokens: readonly Token[]
  currency: { symbol: string; decimals: number } | undefined
  stale: boolean
  slippage: string
}) {
  const { quote, from, to, currency } = props
  const paid = Number(formatUnits(BigInt(quote.fromAmount), quote.fromDecimals))
  const got = Number(formatUnits(BigInt(quote.toAmount), quote.toDecimals))
  const rate = paid > 0 ? formatQuantity(String(got / paid)) : '0'
  const minimum = minimumAt(BigInt(quote.toAmount), props.slippage) ?? BigInt(quote.minimumToAmount)
  const route = quote.route.map((id) => symbolOf(id, props.tokens)).join(' → ')
  return (
    <>
      <dl className="summary" data-testid="swap-quote" data-stale={props.stale} aria-busy={props.stale}>
        <dt>{swapTexts.rate}</dt>
        <dd>{`1 ${from.symbol} = ${rate} ${to.symbol}`}</dd>
        <dt>{swapTexts.priceImpact}</dt>
        <dd data-testid="swap-impact">{`${quote.priceImpact.toFixed(2)} %`}</dd>
        <dt>{swapTexts.minimum}</dt>
        <dd data-testid="swap-minimum" title={swapTexts.minimumNote(props.slippage)}>
          {`${shortAmount(minimum, quote.toDecimals)} ${to.symbol}`}
        </dd>
        <dt>{swapTexts.fee}</dt>
        <dd>{currency ? `${shortAmount(quote.fee, currency.decimals)} ${currency.symbol}` : quote.fee}</dd>
        <dt>{swapTexts.route}</dt>
        <dd>{route}</dd>
      </dl>
      {quote.priceImpact >= highImpactPercent && (
        <p className="error-text" role="alert">
          {swapTexts.highImpact}
        </p>
      )}
    </>
  )
}
