/**
 * Swap as the modal runs it: the form with its live quote, the review (allowance, the built swap, a
 * simulation of approval and swap together), then the wallet's signatures (the approval first, when the
 * allowance is short) and the wait for the chain. Its state lives here while the views render it.
 */
import type { Caip } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { onScreen } from '../../core/Snackbar.ts'
import type { Network } from '../../shared/Network.ts'
import type { RecentSend, RecentSwapsSlice } from '../../shared/RecentSend.ts'
import * as ChainAccess from './Chain.ts'
import * as Client from './Client.ts'
import { check, emptyForm, type Form, type Side, type Token, tokensOf } from './Form.ts'
import * as Plans from './Plan.ts'
import * as Quotes from './Quotes.ts'
import { swapTexts } from './texts.ts'

/** How many of this page load's swaps are kept for Activity. */
const keptSwaps = 20

export type Step =
  | { step: 'form'; busy: boolean; error?: string | undefined }
  | { step: 'review'; plan: Plans.Plan; busy: boolean; error?: string | undefined }
  | { step: 'sent'; plan: Plans.Plan; id: string; status: RecentSend['status'] }

/** What the swap views render. */
export type SwapSlice = {
  swap: {
    form: Form
    tokens: Token[]
    quote: Quotes.QuoteState
    step: Step
    /** Reading the tokens and balances. */
    loading: boolean
    /** Why swaps cannot run here ('Network not supported for Swaps'). */
    unsupported?: string | undefined
    /** What is wrong with the amount typed so far (over the balance, too many decimals), said while typing. */
    problem?: string | undefined
    /** The approval the visitor chose when the allowance is short: exactly the amount, or unlimited. */
    approval: 'exact' | 'unlimited'
    network?:
      | {
          name: string
          explorer?: Network['explorer'] | undefined
          currency: { symbol: string; decimals: number }
        }
      | undefined
  }
}

export type SwapUi = {
  showSwap(): void
  editSwap(field: 'from' | 'to' | 'slippage', value: string): void
  maxSwap(): void
  flipSwap(): void
  /** A side's token; the other side's token swaps the two, as every swap form does. */
  chooseSwapToken(side: Side, id: string): void
  chooseApproval(kind: 'exact' | 'unlimited'): void
  reviewSwap(): Promise<void>
  confirmSwap(): Promise<void>
  doneSwap(): void
  /** After a swap that failed on chain: the same form again, with a fresh quote. */
  retrySwap(): void
}

export function setup(kernel: Kernel): Runtime {
  let form: Form = emptyForm
  let tokens: Token[] = []
  let step: Step = { step: 'form', busy: false }
  let loading = false
  let unsupported: string | undefined
  let approval: 'exact' | 'unlimited' = 'exact'
  let recent: RecentSend[] = []
  /** Bumped whenever the swap starts over, so an answer for an older one is dropped. */
  let generation = 0

  const connection = () => kernel.connectionOf('eip155')
  const account = () => connection()?.accounts[0]?.address
  const network = () => kernel.configured(connection()?.chainId)
  const accountId = () => `${network()?.id}:${account()}`

  const client = () => {
    const { endpoint } = kernel.api
    return endpoint ? Client.create({ endpoint }) : undefined
  }
  const chain = () => {
    const { endpoint } = kernel.api
    const target = network()
    return endpoint && target
      ? ChainAccess.create({ endpoint, chainId: target.id, timers: kernel.timers })
      : undefined
  }

  const quoter = Quotes.create({
    timers: kernel.timers,
    now: kernel.now,
    changed: () => kernel.changed(),
    quote: async (from, to, amount) => {
      const api = client()
      if (!api) throw new Client.SwapFailure(swapTexts.unreachable)
      return api.quote({ amount, from, to, userAddress: accountId() })
    },
  })

  const stepNow = (): Step => step

  function set(next: Step) {
    step = next
    kernel.changed()
  }

  /** Asks for a quote of what the form says, or clears it while the form is incomplete. */
  function requote() {
    const checked = check(form, tokens)
    quoter.ask(checked.ok ? checked.ask : undefined)
  }

  async function start() {
    const mine = ++generation
    form = emptyForm
    tokens = []
    approval = 'exact'
    step = { step: 'form', busy: false }
    quoter.stop()
    const target = network()
    const address = account()
    const api = client()
    // docs/behaviour.md §9: swaps are EVM's; a Solana or Bitcoin account is told so in the view.
    const evm = kernel.activeNamespace() === 'eip155'
    unsupported = !evm || !target || !address || !api ? swapTexts.unsupported : undefined
    if (unsupported || !target || !address || !api) return kernel.changed()
    loading = true
    kernel.changed()
    try {
      const [listed, held] = await Promise.all([
        api.tokens(target.id),
        kernel.api.balances(target.id, address).catch(() => []),
      ])
      if (mine !== generation) return
      tokens = tokensOf(listed, held)
      // Ready to type: the account's biggest holding to pay with, the next token to receive.
      form = { ...form, from: tokens[0]?.id, to: tokens.find((token) => token.id !== tokens[0]?.id)?.id }
    } catch (error) {
      if (mine !== generation) return
      unsupported = error instanceof Client.SwapFailure ? error.message : swapTexts.unsupported
    } finally {
      if (mine === generation) {
        loading = false
        kernel.changed()
      }
    }
  }

  function fail(error: unknown, keep: (message: string) => Step) {
    const message = Plans.messageOf(error)
    kernel.shake()
    set(keep(message))
  }

  const ui: SwapUi = {
    showSwap() {
      kernel.router.send({ type: 'PUSH', view: 'Swap' })
      if (step.step === 'review' && step.busy) return
      void start()
    },
    editSwap(field, value) {
      form = field === 'slippage' ? { ...form, slippage: value } : { ...form, side: field, amount: value }
      if (step.step === 'form') step = { step: 'form', busy: false }
      requote()
      kernel.changed()
    },
    maxSwap() {
      const from = tokens.find((token) => token.id === form.from)
      if (!from) return
      const quoted = quoter.state()
      const fee = quoted.status === 'ready' ? BigInt(quoted.quote.fee) : undefined
      form = { ...form, side: 'from', amount: Plans.formatUnits(Plans.spendable(from, fee), from.decimals) }
      requote()
      kernel.changed()
    },
    flipSwap() {
      form = { ...form, from: form.to, to: form.from, side: form.side === 'from' ? 'to' : 'from' }
      requote()
      kernel.changed()
    },
    chooseSwapToken(side, id) {
      const other = side === 'from' ? form.to : form.from
      form = other === id ? { ...form, from: form.to, to: form.from } : { ...form, [side]: id }
      requote()
      kernel.changed()
    },
    chooseApproval(kind) {
      approval = kind
      kernel.changed()
    },
    async reviewSwap() {
      if (step.step !== 'form' || step.busy) return
      const checked = check(form, tokens)
      const quoted = quoter.state()
      if (!checked.ok) {
        kernel.shake()
        return set({ step: 'form', busy: false, error: checked.error })
      }
      if (quoted.status !== 'ready' || quoted.stale) {
        quoter.refresh()
        return set({
          step: 'form',
          busy: false,
          error: quoted.status === 'error' ? quoted.message : undefined,
        })
      }
      const api = client()
      const access = chain()
      const target = network()
      const address = account()
      if (!api || !access || !target || !address)
        return set({ step: 'form', busy: false, error: swapTexts.unsupported })
      const mine = generation
      set({ step: 'form', busy: true })
      try {
        const plan = await Plans.make({
          client: api,
          chain: access,
          network: target,
          account: address,
          accountId: accountId(),
          ask: checked.ask,
          quote: quoted.quote,
          slippage: checked.slippage,
        })
        if (mine !== generation) return
        set({ step: 'review', plan, busy: false })
        kernel.router.send({ type: 'PUSH', view: 'SwapPreview' })
      } catch (error) {
        if (mine === generation) fail(error, (message) => ({ step: 'form', busy: false, error: message }))
      }
    },
    async confirmSwap() {
      if (step.step !== 'review' || step.busy) return
      const current = connection()
      const access = chain()
      const api = client()
      let { plan } = step
      if (!current || !access || !api || account() !== plan.account || network()?.id !== plan.network.id) {
        kernel.shake()
        return set({ step: 'form', busy: false, error: swapTexts.accountChanged })
      }
      const mine = generation
      const wallet = (tx: Plans.Transaction) =>
        kernel.walletRequest(current, {
          namespace: 'eip155',
          method: 'eth_sendTransaction',
          params: [Plans.walletTransaction(tx)],
        } as never) as Promise<unknown>
      set({ ...step, busy: true, error: undefined })
      try {
        if (plan.approval && !plan.approval.done) {
          kernel.snackbar.show('loading', swapTexts.signing)
          plan = await Plans.approve(plan, {
            client: api,
            chain: access,
            wallet,
            unlimited: approval === 'unlimited',
          })
          // The swap is a step of its own: the visitor presses Swap once the approval is mined, so each
          // wallet prompt follows a press of theirs, and a refused swap leaves the approval done.
          kernel.snackbar.show('success', swapTexts.approved)
          if (mine === generation) set({ step: 'review', plan, busy: false })
          return
        }
        kernel.snackbar.show('loading', swapTexts.signing)
        kernel.track({ event: 'SWAP_INITIATED', properties: swapProperties(plan) })
        const id = await Plans.send(plan, { client: api, wallet })
        kernel.track({ event: 'SWAP_SUCCESS', properties: swapProperties(plan) })
        const sent: RecentSend = {
          id,
          chainId: plan.network.id,
          from: plan.account,
          to: plan.swap.tx.to,
          symbol: plan.ask.from.symbol,
          amount: BigInt(plan.quote.fromAmount),
          decimals: plan.ask.from.decimals,
          status: 'pending',
          time: kernel.now(),
          received: {
            symbol: plan.ask.to.symbol,
            amount: BigInt(plan.swap.minimumToAmount),
            decimals: plan.ask.to.decimals,
          },
        }
        recent = [sent, ...recent].slice(0, keptSwaps)
        if (mine === generation) set({ step: 'sent', plan, id, status: 'pending' })
        kernel.snackbar.show('loading', swapTexts.submitted)
        const status = await access.receipt(id)
        recent = recent.map((swap) => (swap.id === id ? { ...swap, status } : swap))
        // Read afresh: the visitor may have left the result meanwhile (Done, another swap).
        const shown = stepNow()
        const here = shown.step === 'sent' && shown.id === id
        if (here) step = { ...shown, status }
        kernel.snackbar.show(
          status === 'confirmed' ? 'success' : 'error',
          status === 'confirmed' ? swapTexts.confirmed : swapTexts.failedOnChain,
          { inView: here && onScreen(kernel.router, 'SwapPreview') },
        )
        kernel.changed()
        kernel.transacted('eip155')
      } catch (error) {
        kernel.track({
          event: 'SWAP_ERROR',
          properties: { ...swapProperties(plan), message: Plans.messageOf(error) },
        })
        // The review stays (an approval mined stays done) and says why; the snack, where it is not on screen.
        const review = mine === generation && step.step === 'review'
        kernel.snackbar.show('error', Plans.messageOf(error), {
          inView: review && onScreen(kernel.router, 'SwapPreview'),
        })
        if (review) fail(error, (message) => ({ step: 'review', plan, busy: false, error: message }))
      }
    },
    retrySwap() {
      if (step.step !== 'sent' || step.status !== 'failed') return
      generation++
      set({ step: 'form', busy: false })
      kernel.router.send({ type: 'BACK' })
      requote()
    },
    doneSwap() {
      generation++
      quoter.stop()
      step = { step: 'form', busy: false }
      form = emptyForm
      kernel.router.send({ type: 'REPLACE', view: 'Account' })
    },
  }

  return {
    ui,
    snapshot: (): SwapSlice & RecentSwapsSlice => {
      const target = network()
      const checked = form.amount.trim() && !loading ? check(form, tokens) : undefined
      return {
        swapped: { recent },
        swap: {
          form,
          tokens,
          quote: quoter.state(),
          step,
          loading,
          unsupported,
          problem: checked && !checked.ok ? checked.error : undefined,
          approval,
          network: target && {
            name: target.name,
            explorer: target.explorer,
            currency: target.nativeCurrency,
          },
        },
      }
    },
    back(view) {
      // Back from the review edits the same form, with a fresh quote; back from the form ends the swap.
      if (view === 'SwapPreview' && step.step === 'review' && !step.busy) {
        set({ step: 'form', busy: false })
        quoter.refresh()
      }
      if (view === 'Swap' && !(step.step === 'review' && step.busy)) {
        generation++
        quoter.stop()
      }
    },
    closed() {
      if (!(step.step === 'review' && step.busy)) quoter.stop()
    },
    changed(namespace: Caip.Namespace) {
      // Another account or chain: a quote or review for the old one must not be sent from the new one.
      if (namespace !== 'eip155' || step.step === 'sent' || (step.step === 'review' && step.busy))
        return false
      generation++
      quoter.stop()
      if (kernel.router.view().startsWith('Swap'))
        void start().then(() => set({ step: 'form', busy: false, error: swapTexts.accountChanged }))
      return false
    },
  }
}

/** What a swap's analytics events say: the network and the pair, never amounts or addresses. */
function swapProperties(plan: Plans.Plan) {
  return { network: plan.network.id, from: plan.ask.from.symbol, to: plan.ask.to.symbol }
}
