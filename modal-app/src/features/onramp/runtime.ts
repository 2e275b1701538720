/**
 * Buy as the modal runs it: the form with its live quote, the provider's checkout in a window of its own
 * (opened within the visitor's click, so pop-up blockers let it through; never inside the modal's frame,
 * which providers refuse and where a card form could be overlaid), then the purchase followed until the
 * tokens are on chain. An order left open (the window closed mid-payment, the modal closed, a reload) is
 * remembered, so Buy offers to resume it.
 */
import type * as Contract from '@airlock/api/contract'
import type { Caip } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import type { PendingPurchase } from '../../core/Storage.ts'
import * as LiveQuote from '../../shared/LiveQuote.ts'
import * as ChainAccess from './Chain.ts'
import * as Client from './Client.ts'
import * as Forms from './Form.ts'
import * as Purchases from './Purchase.ts'
import { onrampTexts } from './texts.ts'

/** The checkout window's size: a provider's page laid out for a phone. */
const features = 'popup,width=460,height=760'

/** What Pay (or any caller) asks Buy for: an asset on a network, and at least this much of it. */
export type Wanted = { asset: string; network: string; crypto?: number | undefined; returnTo?: string }

export type Purchase = PendingPurchase & { stage: Purchases.Stage }

/** What the Buy views render. */
export type OnrampSlice = {
  onramp: {
    options?: Forms.Options | undefined
    form?: Forms.Form | undefined
    quote: Forms.QuoteState
    loading: boolean
    /** Why Buy cannot run here, or what went wrong before a checkout opened. */
    error?: string | undefined
    /** What is wrong with the amount typed so far, in the API's words. */
    problem?: string | undefined
    /** Asking the API for the checkout. */
    opening: boolean
    /** The browser refused the checkout window. */
    blocked: boolean
    purchase?: Purchase | undefined
    /** The view Buy goes back to when done (Pay). */
    returnTo?: string | undefined
  }
}

export type OnrampUi = {
  showOnramp(wanted?: Wanted): void
  editOnramp(field: keyof Forms.Form, value: string): void
  continueOnramp(): void
  resumeOnramp(): void
  showPurchase(): void
  retryOnramp(): void
  doneOnramp(): void
  /** The account's purchases for Activity, read fresh from every provider (docs/behaviour.md §7: never cached). */
  onrampPurchases(account: { address: string; chainId: string }): Promise<Contract.HistoryItem[]>
}

export function setup(kernel: Kernel): Runtime {
  let options: Forms.Options | undefined
  let form: Forms.Form | undefined
  let loading = false
  let error: string | undefined
  let opening = false
  let blocked = false
  let returnTo: string | undefined
  let purchase: Purchase | undefined
  let popup: Window | null = null
  let tracking: { stop(): void } | undefined
  let generation = 0

  const client = () => {
    const { endpoint } = kernel.api
    return endpoint ? Client.create({ endpoint }) : undefined
  }
  const account = () => {
    const namespace = kernel.activeNamespace()
    const connection = namespace && kernel.connectionOf(namespace)
    const address = connection?.accounts[0]?.address
    return connection && address ? { address, chainId: connection.chainId, namespace } : undefined
  }
  const chainOf = (network: string) => {
    const { endpoint } = kernel.api
    return endpoint && network.startsWith('eip155:')
      ? ChainAccess.create({
          endpoint,
          chainId: network,
          timers: kernel.timers,
          unreachable: onrampTexts.unreachable,
        })
      : undefined
  }

  // Asked again every 15 s while the form shows, so Continue never opens a checkout on an old price.
  const quoter = LiveQuote.create<Contract.OnrampQuoteBody, Contract.OnrampQuoteAnswer>({
    timers: kernel.timers,
    changed: () => kernel.changed(),
    quote: async (ask) => {
      const api = client()
      if (!api) throw new Error(onrampTexts.unreachable)
      return api.quote(ask)
    },
  })

  function requote() {
    if (!form || !options) return quoter.ask(undefined)
    const checked = Forms.check(form, options)
    quoter.ask(
      checked.ok
        ? {
            purchaseCurrency: form.asset,
            paymentCurrency: form.currency,
            amount: checked.amount,
            network: form.network,
            paymentMethod: 'card',
            provider: form.provider,
          }
        : undefined,
    )
  }

  async function start(wanted?: Wanted) {
    const mine = ++generation
    quoter.stop()
    error = undefined
    blocked = false
    returnTo = wanted?.returnTo
    const api = client()
    const here = account()
    if (!api || !here) {
      error = onrampTexts.notSupported
      return kernel.changed()
    }
    loading = true
    kernel.changed()
    try {
      const answer = await api.options()
      if (mine !== generation) return
      options = answer
      form = Forms.initial(answer, here.chainId, wanted)
      if (!form) error = onrampTexts.notSupported
      else if (wanted?.crypto && !answer.fallback)
        form = { ...form, amount: await amountFor(api, form, wanted.crypto) }
    } catch (failure) {
      if (mine === generation) error = failure instanceof Error ? failure.message : onrampTexts.unreachable
    } finally {
      if (mine === generation) {
        loading = false
        requote()
        kernel.changed()
      }
    }
  }

  /** The fiat that buys at least `crypto` of the form's asset, from a quote of a round amount. */
  async function amountFor(api: Client.Client, current: Forms.Form, crypto: number): Promise<string> {
    const limit = options && Forms.limitOf(options, current.currency)
    const probe = await api
      .quote({
        purchaseCurrency: current.asset,
        paymentCurrency: current.currency,
        amount: '100.00',
        network: current.network,
        provider: current.provider,
      })
      .catch(() => undefined)
    return probe && !probe.estimate ? Forms.fiatFor(crypto, probe, limit?.min) : ''
  }

  function remember(next: Purchase | undefined) {
    purchase = next
    kernel.storage.setPendingPurchase(
      next && next.stage.stage === 'paying'
        ? {
            orderId: next.orderId,
            url: next.url,
            address: next.address,
            network: next.network,
            asset: next.asset,
          }
        : undefined,
    )
    kernel.changed()
  }

  function follow(current: Purchase) {
    tracking?.stop()
    const api = client()
    if (!api) return
    tracking = Purchases.track({
      orderId: current.orderId,
      order: (id) => api.order(id),
      chain: chainOf(current.network),
      timers: kernel.timers,
      window: () => popup ?? undefined,
      reverted: onrampTexts.failed,
      onStage(stage) {
        if (purchase?.orderId !== current.orderId) return
        remember({ ...current, stage })
        if (stage.stage === 'arrived') {
          kernel.snackbar.show('success', onrampTexts.steps.arrived)
          kernel.transacted(kernel.activeNamespace() ?? 'eip155')
        }
      },
    })
  }

  /** Opens an empty window now, within the click; the checkout's URL follows once the API answers. */
  function openWindow(): Window | null {
    const opened = window.open('', 'airlock-onramp', features)
    if (opened) {
      // The provider's page must not reach back into the modal (reverse tabnabbing).
      opened.opener = null
      blocked = false
    } else blocked = true
    return opened
  }

  function pendingFromStorage() {
    const stored = kernel.storage.getPendingPurchase()
    const here = account()
    if (!stored || purchase || !here || stored.address.toLowerCase() !== here.address.toLowerCase()) return
    purchase = { ...stored, stage: { stage: 'paying', windowOpen: false } }
    follow(purchase)
  }

  const ui: OnrampUi = {
    showOnramp(wanted) {
      pendingFromStorage()
      kernel.router.send({ type: 'PUSH', view: 'Onramp' })
      void start(wanted)
    },
    editOnramp(field, value) {
      if (!form || !options) return
      form =
        field === 'asset' ? Forms.withAsset(form, options, value) : { ...form, [field]: value || undefined }
      if (field === 'amount') form = { ...form, amount: value }
      error = undefined
      requote()
      kernel.changed()
    },
    continueOnramp() {
      const quoted = quoter.state()
      const here = account()
      const api = client()
      if (!form || !options || !here || !api || opening) return
      if (quoted.status !== 'ready' || quoted.stale || quoted.quote.estimate || options.fallback) {
        kernel.shake()
        return
      }
      popup = openWindow()
      if (!popup) return kernel.changed()
      const chosen = form
      const mine = generation
      opening = true
      error = undefined
      kernel.changed()
      api
        .checkout({
          destinationWallets: [
            { address: here.address, blockchains: [chosen.network], assets: [chosen.asset] },
          ],
          defaultNetwork: chosen.network,
          defaultAsset: chosen.asset,
          partnerUserId: here.address.slice(0, 50),
          defaultExperience: 'buy',
          presetFiatAmount: quoted.ask.amount,
          fiatCurrency: chosen.currency,
          provider: quoted.quote.provider,
          quoteId: quoted.quote.quoteId,
        })
        .then(
          ({ url, orderId }) => {
            opening = false
            if (popup && !popup.closed) popup.location.href = url
            const next: Purchase = {
              orderId,
              url,
              address: here.address,
              network: chosen.network,
              asset: chosen.asset,
              stage: { stage: 'paying', windowOpen: !!popup && !popup.closed },
            }
            remember(next)
            follow(next)
            if (mine === generation) kernel.router.send({ type: 'REPLACE', view: 'OnrampStatus' })
          },
          (failure: unknown) => {
            opening = false
            popup?.close()
            popup = null
            error = failure instanceof Error ? failure.message : onrampTexts.unexpected
            kernel.shake()
            kernel.changed()
          },
        )
    },
    resumeOnramp() {
      if (purchase?.stage.stage !== 'paying') return
      popup = openWindow()
      if (popup) popup.location.href = purchase.url
      remember({ ...purchase, stage: { stage: 'paying', windowOpen: !!popup } })
      follow(purchase)
    },
    showPurchase() {
      kernel.router.send({ type: 'PUSH', view: 'OnrampStatus' })
    },
    retryOnramp() {
      tracking?.stop()
      remember(undefined)
      kernel.router.send({ type: 'REPLACE', view: 'Onramp' })
      void start(returnTo ? { ...(form ?? { asset: '', network: '' }), returnTo } : undefined)
    },
    doneOnramp() {
      tracking?.stop()
      if (purchase?.stage.stage !== 'paying') remember(undefined)
      quoter.stop()
      kernel.router.send({ type: 'BACK' })
    },
    async onrampPurchases({ address, chainId }) {
      const api = client()
      if (!api) return []
      const listed = options ?? (await api.options().catch(() => undefined))
      const providers = listed?.fallback ? [] : (listed?.providers ?? [])
      const pages = await Promise.all(
        providers.map((provider) => api.purchases(address, chainId, provider.id).catch(() => [])),
      )
      return pages.flat()
    },
  }

  return {
    ui,
    snapshot: (): OnrampSlice => {
      const checked =
        form && options && form.amount.trim() && !loading ? Forms.check(form, options) : undefined
      return {
        onramp: {
          options,
          form,
          quote: quoter.state(),
          loading,
          error,
          problem: checked && !checked.ok ? checked.error : undefined,
          opening,
          blocked,
          purchase,
          returnTo,
        },
      }
    },
    back(view) {
      if (view === 'Onramp') {
        generation++
        quoter.stop()
      }
    },
    closed() {
      quoter.stop()
    },
    changed(namespace: Caip.Namespace) {
      // Another account: its purchases are its own.
      if (purchase && account()?.address.toLowerCase() !== purchase.address.toLowerCase()) {
        tracking?.stop()
        purchase = undefined
      }
      if (namespace && kernel.router.view() === 'Onramp') void start()
      return false
    },
  }
}
