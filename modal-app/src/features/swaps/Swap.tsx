import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { formatQuantity } from '../../shared/format.ts'
import * as LiveQuote from '../../shared/LiveQuote.ts'
import { AmountField, Form, Loading, Summary, Unavailable, useFieldIds } from '../../shared/ui/Form.tsx'
import { Picker } from '../../shared/ui/Picker.tsx'
import { balanceOf, type Side, slippageOf, type Token, tokenOptions } from './Form.ts'
import { formatUnits } from './Plan.ts'
import type { Quote } from './Quotes.ts'
import { routeText } from './Route.ts'
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

/**
 * The swap form: what the visitor pays and receives (an amount on either side, the other from the live
 * quote), each side's token chosen in the picker beside its amount, then the quote's rate, price impact, minimum received
 * and fee, and the slippage tolerance. Review builds and simulates the swap.
 */
export default function Swap({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SwapSlice>
  ui: Partial<SwapUi>
}) {
  const field = useFieldIds()
  const { swap } = snapshot
  if (!swap) return <Loading />
  if (swap.unsupported) return <Unavailable message={swap.unsupported} testId="swap-unsupported" />
  const { form, tokens, quote: state, step } = swap
  const from = tokens.find((token) => token.id === form.from)
  const to = tokens.find((token) => token.id === form.to)
  const quote = LiveQuote.shown(state)
  const ready = state.status === 'ready' && !state.stale
  const busy = step.step === 'form' && step.busy
  const error =
    (step.step === 'form' ? step.error : undefined) ??
    swap.problem ??
    (state.status === 'error' ? state.message : undefined)
  const amountOn = (side: Side, token: Token | undefined) => {
    if (form.side === side) return form.amount
    if (!quote || !token) return ''
    return shortAmount(side === 'from' ? quote.fromAmount : quote.toAmount, token.decimals)
  }
  return (
    <Form
      className="swap-form"
      busy={swap.loading || busy}
      onSubmit={() => void ui.reviewSwap?.()}
      error={error}
      errorId={field('error')}
      status={
        state.status === 'loading'
          ? swapTexts.quoting
          : state.status === 'ready' && state.stale
            ? swapTexts.stale
            : ''
      }
      testIds={{ error: 'swap-error', status: 'swap-quote-status' }}
      submit={{
        label: busy ? swapTexts.reviewing : swapTexts.review,
        disabled: busy || swap.loading || !ready,
      }}
    >
      <SideField
        id={field('from')}
        side="swap-from"
        label={swapTexts.pay}
        token={from}
        tokens={tokens}
        network={swap.network?.name ?? ''}
        value={amountOn('from', from)}
        error={error ? field('error') : undefined}
        onEdit={(value) => ui.editSwap?.('from', value)}
        onPick={(token) => ui.chooseSwapToken?.('from', token)}
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
        side="swap-to"
        label={swapTexts.receive}
        token={to}
        tokens={tokens}
        network={swap.network?.name ?? ''}
        value={amountOn('to', to)}
        error={error ? field('error') : undefined}
        onEdit={(value) => ui.editSwap?.('to', value)}
        onPick={(token) => ui.chooseSwapToken?.('to', token)}
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
    </Form>
  )
}

/**
 * One side of the swap: its amount and its token, chosen in the picker beside it among the network's
 * swap tokens (those the account holds first, with their balances), then the balance (and Max on the
 * paying side).
 */
function SideField(props: {
  id: string
  side: 'swap-from' | 'swap-to'
  label: string
  token: Token | undefined
  tokens: readonly Token[]
  /** The network's name, for a pasted address it does not swap. */
  network: string
  value: string
  error: string | undefined
  onEdit(value: string): void
  onPick(id: string): void
  onMax?: () => void
}) {
  const { id, side, token } = props
  return (
    <section className="swap-side" aria-labelledby={`${id}-label`}>
      <AmountField
        id={id}
        label={props.label}
        testId={`${side}-amount`}
        placeholder="0"
        value={props.value}
        describedBy={[`${id}-balance`, props.error]}
        onChange={props.onEdit}
      >
        <Picker
          id={`${id}-token`}
          label={swapTexts.selectToken(props.label)}
          labelHidden
          testId={`${side}-token`}
          value={token?.id ?? ''}
          recent="swap-token"
          placeholder={swapTexts.search}
          empty={(query) =>
            /^0x[0-9a-fA-F]{40}$/.test(query.trim())
              ? swapTexts.notSwappable(props.network)
              : swapTexts.noMatch
          }
          options={tokenOptions(props.tokens)}
          onChange={props.onPick}
        />
      </AmountField>
      <p className="muted swap-balance" id={`${id}-balance`}>
        {token ? swapTexts.balance(`${balanceOf(token)} ${token.symbol}`) : ''}
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
  const route = `${quote.venue.name}: ${routeText(quote.route, quote.fees, props.tokens)}`
  return (
    <>
      <Summary
        testId="swap-quote"
        stale={props.stale}
        terms={[
          { label: swapTexts.rate, value: `1 ${from.symbol} = ${rate} ${to.symbol}` },
          {
            label: swapTexts.priceImpact,
            value: `${quote.priceImpact.toFixed(2)} %`,
            testId: 'swap-impact',
          },
          {
            label: swapTexts.minimum,
            value: `${shortAmount(minimum, quote.toDecimals)} ${to.symbol}`,
            testId: 'swap-minimum',
            title: swapTexts.minimumNote(props.slippage),
          },
          {
            label: swapTexts.fee,
            value: currency ? `${shortAmount(quote.fee, currency.decimals)} ${currency.symbol}` : quote.fee,
          },
          { label: swapTexts.route, value: route },
        ]}
      />
      {quote.priceImpact >= highImpactPercent && (
        <p className="error-text" role="alert">
          {swapTexts.highImpact}
        </p>
      )}
    </>
  )
}
