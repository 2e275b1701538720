import { type FormEvent, useId } from 'react'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { limitOf, networksOf, presets } from './Form.ts'
import type { Quote, QuoteState } from './Quote.ts'
import type { OnrampSlice, OnrampUi } from './runtime.ts'
import { onrampTexts } from './texts.ts'

/** The quote the form shows: the ready one, else the one being replaced (dimmed), else none. */
function shownQuote(state: QuoteState): Quote | undefined {
  if (state.status === 'ready') return state.quote
  if (state.status === 'loading') return state.previous
  return undefined
}

/**
 * Buy: an amount in fiat (presets or typed) and its currency, the asset and its network, the provider when
 * there are several, the live quote with its fees, and Continue, which opens the provider's checkout in a
 * window of its own. A purchase left open is offered for resuming first.
 */
export default function Buy({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<OnrampSlice>
  ui: Partial<OnrampUi>
}) {
  const ids = useId()
  const field = (name: string) => `${ids}-${name}`
  const { onramp } = snapshot
  if (!onramp || (onramp.loading && !onramp.form))
    return <div className="view view-loading" aria-busy="true" />
  const { options, form, quote: state } = onramp
  if (!options || !form)
    return (
      <div className="view">
        <p className="error-text" role="alert" data-testid="onramp-error">
          {onramp.error ?? onrampTexts.notSupported}
        </p>
      </div>
    )
  const quote = shownQuote(state)
  const ready = state.status === 'ready' && !state.stale && !state.quote.estimate && !options.fallback
  const limit = limitOf(options, form.currency)
  const error = onramp.error ?? onramp.problem ?? (state.status === 'error' ? state.message : undefined)
  const pending = onramp.purchase?.stage.stage === 'paying' ? onramp.purchase : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // Synchronously, inside the click: the checkout window may open only now.
    ui.continueOnramp?.()
  }
  return (
    <form className="view" onSubmit={submit} noValidate aria-busy={onramp.loading || onramp.opening}>
      {pending && (
        <div className="notice" role="status" data-testid="onramp-pending">
          <p>{onrampTexts.pendingOffer}</p>
          <button type="button" className="button button-secondary" onClick={() => ui.showPurchase?.()}>
            {onrampTexts.view}
          </button>
        </div>
      )}
      {options.fallback && (
        <p className="notice" role="alert" data-testid="onramp-fallback">
          {onrampTexts.fallback}
        </p>
      )}
      <label className="label" htmlFor={field('amount')}>
        {onrampTexts.amount}
      </label>
      <div className="swap-row">
        <input
          id={field('amount')}
          className="search swap-amount"
          data-testid="onramp-amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={form.amount}
          aria-describedby={`${field('limits')} ${field('error')}`}
          aria-invalid={!!onramp.problem}
          onChange={(event) => ui.editOnramp?.('amount', event.target.value)}
        />
        <select
          className="search"
          aria-label={onrampTexts.currency}
          data-testid="onramp-currency"
          value={form.currency}
          onChange={(event) => ui.editOnramp?.('currency', event.target.value)}
        >
          {options.paymentCurrencies.map((currency) => (
            <option key={currency.id} value={currency.id}>
              {currency.id}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="tags">
        <legend className="sr-only">{onrampTexts.presets}</legend>
        {presets.map((amount) => (
          <button
            key={amount}
            type="button"
            className="button button-secondary"
            aria-pressed={form.amount === amount}
            onClick={() => ui.editOnramp?.('amount', amount)}
          >
            {`${amount} ${form.currency}`}
          </button>
        ))}
      </fieldset>
      {limit && (
        <p className="muted" id={field('limits')} data-testid="onramp-limits">
          {onrampTexts.limits(limit.min, limit.max, form.currency)}
        </p>
      )}
      <label className="label" htmlFor={field('asset')}>
        {onrampTexts.asset}
      </label>
      <select
        id={field('asset')}
        className="search"
        data-testid="onramp-asset"
        value={form.asset}
        onChange={(event) => ui.editOnramp?.('asset', event.target.value)}
      >
        {options.purchaseCurrencies.map((currency) => (
          <option key={currency.id} value={currency.id}>
            {`${currency.symbol} · ${currency.name}`}
          </option>
        ))}
      </select>
      <label className="label" htmlFor={field('network')}>
        {onrampTexts.network}
      </label>
      <select
        id={field('network')}
        className="search"
        data-testid="onramp-network"
        value={form.network}
        onChange={(event) => ui.editOnramp?.('network', event.target.value)}
      >
        {networksOf(options, form.asset).map((network) => (
          <option key={network.chainId} value={network.chainId}>
            {network.name}
          </option>
        ))}
      </select>
      {options.providers.length > 1 && (
        <>
          <label className="label" htmlFor={field('provider')}>
            {onrampTexts.provider}
          </label>
          <select
            id={field('provider')}
            className="search"
            value={form.provider}
            onChange={(event) => ui.editOnramp?.('provider', event.target.value)}
          >
            {options.providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </>
      )}
      {quote && <Breakdown quote={quote} stale={!ready} />}
      <p className="error-text" role="alert" id={field('error')} data-testid="onramp-error">
        {error ?? ''}
      </p>
      {onramp.blocked && (
        <p className="notice" role="alert" data-testid="onramp-blocked">
          {onrampTexts.popupBlocked}
        </p>
      )}
      <p className="muted" role="status" data-testid="onramp-quote-status">
        {onramp.opening
          ? onrampTexts.opening
          : state.status === 'loading'
            ? onrampTexts.quoting
            : state.status === 'ready' && state.stale
              ? onrampTexts.stale
              : ''}
      </p>
      <p className="muted">{onrampTexts.popupNote}</p>
      <div className="actions">
        <button
          type="submit"
          className="button"
          data-testid="onramp-continue"
          disabled={!ready || onramp.opening || !!onramp.problem}
        >
          {onramp.blocked ? onrampTexts.retry : onrampTexts.continue}
        </button>
      </div>
    </form>
  )
}

/** The quote: what the visitor gets, and what they pay, fees broken down; an estimate says so first. */
function Breakdown({ quote, stale }: { quote: Quote; stale: boolean }) {
  const money = (amount: { amount: string; currency: string }) => `${amount.amount} ${amount.currency}`
  return (
    <section aria-label={onrampTexts.total} data-testid="onramp-quote" aria-busy={stale}>
      {quote.estimate && (
        <p className="notice" role="status" data-testid="onramp-estimate">
          {onrampTexts.estimate}
        </p>
      )}
      <dl className="facts">
        <div className="fact">
          <dt>{onrampTexts.youGet}</dt>
          <dd data-testid="onramp-receive">{`${quote.estimate ? '≈ ' : ''}${money(quote.purchaseAmount)}`}</dd>
        </div>
        <div className="fact">
          <dt>{onrampTexts.subtotal}</dt>
          <dd>{money(quote.paymentSubtotal)}</dd>
        </div>
        <div className="fact">
          <dt>{onrampTexts.fee}</dt>
          <dd data-testid="onramp-fee">{money(quote.coinbaseFee)}</dd>
        </div>
        <div className="fact">
          <dt>{onrampTexts.networkFee}</dt>
          <dd>{money(quote.networkFee)}</dd>
        </div>
        <div className="fact">
          <dt>{onrampTexts.total}</dt>
          <dd data-testid="onramp-total">{money(quote.paymentTotal)}</dd>
        </div>
      </dl>
    </section>
  )
}
