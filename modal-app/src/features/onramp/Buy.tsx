import type * as Contract from '@airlock/api/contract'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import * as LiveQuote from '../../shared/LiveQuote.ts'
import { AmountField, Form, Loading, Summary, Unavailable, useFieldIds } from '../../shared/ui/Form.tsx'
import { Picker } from '../../shared/ui/Picker.tsx'
import { limitOf, networksOf, presets } from './Form.ts'
import type { OnrampSlice, OnrampUi } from './runtime.ts'
import { onrampTexts } from './texts.ts'

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
  const field = useFieldIds()
  const { onramp } = snapshot
  if (!onramp || (onramp.loading && !onramp.form)) return <Loading />
  const { options, form, quote: state } = onramp
  if (!options || !form)
    return <Unavailable message={onramp.error ?? onrampTexts.notSupported} testId="onramp-error" />
  const quote = LiveQuote.shown(state)
  const ready = state.status === 'ready' && !state.stale && !state.quote.estimate && !options.fallback
  const limit = limitOf(options, form.currency)
  const error = onramp.error ?? onramp.problem ?? (state.status === 'error' ? state.message : undefined)
  const pending = onramp.purchase?.stage.stage === 'paying' ? onramp.purchase : undefined
  const status = onramp.opening
    ? onrampTexts.opening
    : state.status === 'loading'
      ? onrampTexts.quoting
      : state.status === 'ready' && state.stale
        ? onrampTexts.stale
        : ''
  return (
    <Form
      busy={onramp.loading || onramp.opening}
      // Synchronously, inside the click: the checkout window may open only now.
      onSubmit={() => ui.continueOnramp?.()}
      error={error}
      errorId={field('error')}
      status={status}
      testIds={{ error: 'onramp-error', status: 'onramp-quote-status' }}
      submit={{
        label: onramp.blocked ? onrampTexts.retry : onrampTexts.continue,
        disabled: !ready || onramp.opening || !!onramp.problem,
        testId: 'onramp-continue',
      }}
      notes={
        <>
          {onramp.blocked && (
            <p className="notice" role="alert" data-testid="onramp-blocked">
              {onrampTexts.popupBlocked}
            </p>
          )}
          <p className="muted">{onrampTexts.popupNote}</p>
        </>
      }
    >
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
      <AmountField
        id={field('amount')}
        label={onrampTexts.amount}
        testId="onramp-amount"
        placeholder="0.00"
        value={form.amount}
        describedBy={[limit && field('limits'), field('error')]}
        invalid={!!onramp.problem}
        onChange={(value) => ui.editOnramp?.('amount', value)}
      >
        <Picker
          id={field('currency')}
          label={onrampTexts.currency}
          labelHidden
          testId="onramp-currency"
          value={form.currency}
          recent="currency"
          options={options.paymentCurrencies.map((currency) => ({ value: currency.id, label: currency.id }))}
          onChange={(value) => ui.editOnramp?.('currency', value)}
        />
      </AmountField>
      <fieldset className="presets">
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
      <Picker
        id={field('asset')}
        label={onrampTexts.asset}
        testId="onramp-asset"
        value={form.asset}
        recent="onramp-asset"
        options={options.purchaseCurrencies.map((currency) => ({
          value: currency.id,
          label: currency.symbol,
          detail: currency.name,
          icon: { seed: currency.id },
        }))}
        onChange={(value) => ui.editOnramp?.('asset', value)}
      />
      <Picker
        id={field('network')}
        label={onrampTexts.network}
        testId="onramp-network"
        value={form.network}
        options={networksOf(options, form.asset).map((network) => ({
          value: network.chainId,
          label: network.name,
          icon: { url: iconOf(snapshot, network.chainId), seed: network.chainId },
        }))}
        onChange={(value) => ui.editOnramp?.('network', value)}
      />
      {options.providers.length > 1 && (
        <Picker
          id={field('provider')}
          label={onrampTexts.provider}
          testId="onramp-provider"
          value={form.provider ?? ''}
          options={options.providers.map((provider) => ({ value: provider.id, label: provider.name }))}
          onChange={(value) => ui.editOnramp?.('provider', value)}
        />
      )}
      {quote && <Breakdown quote={quote} stale={!ready} />}
    </Form>
  )
}

/** A configured network's own icon (a custom network may bring one); a network the modal lacks gets its monogram. */
const iconOf = (snapshot: CoreSnapshot, chainId: string) =>
  snapshot.networks.find((network) => network.id === chainId)?.iconUrl

const money = (amount: { amount: string; currency: string }) => `${amount.amount} ${amount.currency}`

/** The quote: what the visitor gets, and what they pay, fees broken down; an estimate says so first. */
function Breakdown({ quote, stale }: { quote: Contract.OnrampQuoteAnswer; stale: boolean }) {
  return (
    <section aria-label={onrampTexts.total} data-testid="onramp-quote" aria-busy={stale}>
      {quote.estimate && (
        <p className="notice" role="status" data-testid="onramp-estimate">
          {onrampTexts.estimate}
        </p>
      )}
      <Summary
        terms={[
          {
            label: onrampTexts.youGet,
            value: `${quote.estimate ? '≈ ' : ''}${money(quote.purchaseAmount)}`,
            testId: 'onramp-receive',
          },
          { label: onrampTexts.subtotal, value: money(quote.paymentSubtotal) },
          { label: onrampTexts.fee, value: money(quote.coinbaseFee), testId: 'onramp-fee' },
          { label: onrampTexts.networkFee, value: money(quote.networkFee) },
          { label: onrampTexts.total, value: money(quote.paymentTotal), testId: 'onramp-total' },
        ]}
      />
    </section>
  )
}
