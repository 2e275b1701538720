/**
 * Send as the modal runs it: the form, the preview (the family's simulation), the wallet's signature, the
 * broadcast and the wait for the chain. One send at a time; its state lives here while the views render it.
 */
import type { Caip } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { onScreen } from '../../core/Snackbar.ts'
import { isName, resolve as resolveName } from '../../shared/Names.ts'
import type { Network } from '../../shared/Network.ts'
import type { RecentSend, RecentSendsSlice } from '../../shared/RecentSend.ts'
import * as ChainAccess from './chain.ts'
import { type Chain, type Family, type Preview, SendFailure } from './Family.ts'
import { assetOf, check, type Form, type Holding, holdingsOf, type Step } from './Flow.ts'
import { sendTexts } from './texts.ts'

/** The families, each its own chunk: a visitor who sends ETH never loads the Solana or Bitcoin code. */
const loaders: Record<Caip.Namespace, () => Promise<{ family: Family }>> = {
  eip155: () => import('./families/evm.ts'),
  solana: () => import('./families/solana.ts'),
  bip122: () => import('./families/bitcoin.ts'),
}
const loadFamily = async (namespace: Caip.Namespace) => (await loaders[namespace]()).family

/** How many of this page load's sends are kept for Activity; older ones are in the API's history long since. */
const keptSends = 20

/** A fee rate the visitor may choose (Bitcoin). */
type FeeRate = Awaited<ReturnType<NonNullable<Family['feeRates']>>>[number]

/** What the Send views render. */
export type SendSlice = {
  send: {
    form: Form
    step: Step
    holdings: Holding[]
    /** Loading the balances or the family. */
    loading: boolean
    /** The reason Send cannot run on this account ('Unsupported chain'). */
    unsupported?: string | undefined
    feeRates: FeeRate[]
    network?: Network | undefined
    /** A send is waiting for the wallet's answer: no other can be reviewed or signed meanwhile. */
    waiting: boolean
  }
}

export type SendUi = {
  showSend(): void
  editSend(field: 'asset' | 'amount' | 'to' | 'feeRate', value: string): void
  maxSend(): Promise<void>
  reviewSend(): Promise<void>
  confirmSend(): Promise<void>
  /** Leaves a finished send for the Account view. */
  doneSend(): void
}

const emptyForm: Form = { asset: 'native', amount: '', to: '' }

/** Send on the kernel: {@link SendSlice} for its views, {@link RecentSendsSlice} for the Activity tab. */
export function setup(kernel: Kernel, load = loadFamily): Runtime {
  let form: Form = emptyForm
  let step: Step = { step: 'form', busy: false }
  let holdings: Holding[] = []
  let feeRates: FeeRate[] = []
  let loading = false
  let recent: RecentSend[] = []
  /** Bumped whenever the send starts over, so an answer for an older one is dropped. */
  let generation = 0
  /** Where the previewed send goes out: the account's namespace and chain when it was reviewed. */
  let reviewed: { namespace: Caip.Namespace; chainId: Caip.ChainId } | undefined
  /**
   * The send waiting for the wallet. One at a time: until the wallet answers, no other preview can be
   * signed, so a visitor who went back and reviewed again cannot end up with two transactions.
   */
  let signing: Preview | undefined

  const namespace = () => kernel.activeNamespace()
  const connection = () => {
    const ns = namespace()
    return ns ? kernel.connectionOf(ns) : undefined
  }
  const network = () => kernel.configured(connection()?.chainId)
  const from = () => connection()?.accounts[0]?.address

  function chainOf(target: Network): Chain {
    const endpoint = kernel.api.endpoint
    if (!endpoint) throw new SendFailure('unavailable', sendTexts.unavailable(target.name))
    return ChainAccess.create({ network: target, endpoint })
  }

  /** The active namespace's family; undefined (Send says 'Unsupported chain') when none or its chunk failed. */
  async function family(): Promise<Family | undefined> {
    const ns = namespace()
    try {
      return ns ? await load(ns) : undefined
    } catch (error) {
      console.error('[airlock] The send feature could not load.', error)
      return undefined
    }
  }

  function set(next: Step) {
    step = next
    kernel.changed()
  }

  function fail(error: unknown, keep: (message: string) => Step) {
    const message =
      error instanceof SendFailure ? error.message : error instanceof Error ? error.message : String(error)
    if (!(error instanceof SendFailure)) console.error('[airlock] Send failed.', error)
    kernel.shake()
    set(keep(message))
  }

  async function start() {
    const mine = ++generation
    form = emptyForm
    holdings = []
    feeRates = []
    step = { step: 'form', busy: false }
    const target = network()
    const address = from()
    if (!target || !address) return kernel.changed()
    loading = true
    kernel.changed()
    try {
      const [entries, loaded] = await Promise.all([kernel.api.balances(target.id, address), family()])
      if (mine !== generation) return
      holdings = holdingsOf(entries, target)
      feeRates = (await loaded?.feeRates?.(chainOf(target)).catch(() => [])) ?? []
    } catch (error) {
      if (mine !== generation) return
      console.warn('[airlock] Could not read what the account holds.', error)
      holdings = [
        {
          key: 'native',
          name: target.nativeCurrency.name,
          symbol: target.nativeCurrency.symbol,
          decimals: target.nativeCurrency.decimals,
          balance: 0n,
        },
      ]
    } finally {
      if (mine === generation) {
        loading = false
        kernel.changed()
      }
    }
  }

  const ui: SendUi = {
    showSend() {
      // A send still waiting for the wallet is what Send shows until the wallet answers.
      kernel.router.send({ type: 'PUSH', view: signing ? 'SendPreview' : 'Send' })
      if (!signing) void start()
    },
    editSend(field, value) {
      form =
        field === 'feeRate' ? { ...form, feeRate: Number(value) || undefined } : { ...form, [field]: value }
      if (step.step === 'form' && step.error) step = { step: 'form', busy: false }
      kernel.changed()
    },
    async maxSend() {
      const target = network()
      const address = from()
      const holding = holdings.find((h) => h.key === form.asset)
      const loaded = await family()
      if (!target || !address || !holding || !loaded) return
      try {
        const asset = assetOf(holding)
        const max = await loaded.max(chainOf(target), {
          from: address,
          asset,
          to: form.to.trim() || undefined,
          publicKey: connection()?.accounts[0]?.publicKey,
          feeRate: form.feeRate,
        })
        const { formatUnits } = await import('../../shared/Amount.ts')
        form = { ...form, amount: formatUnits(max > 0n ? max : 0n, holding.decimals) }
        kernel.changed()
      } catch (error) {
        fail(error, (message) => ({ step: 'form', busy: false, error: message }))
      }
    },
    async reviewSend() {
      if (step.step !== 'form' || step.busy) return
      const loaded = await family()
      const target = network()
      // A name as receiver (docs/behaviour.md §9: names are EVM's) is resolved first; the review shows both.
      const named = namespace() === 'eip155' && isName(form.to) ? form.to.trim() : undefined
      let receiver = form.to
      if (named && target && kernel.api.endpoint) {
        set({ step: 'form', busy: true })
        try {
          receiver = await resolveName(kernel.api.endpoint, named, target.id)
        } catch (error) {
          return fail(error, (message) => ({ step: 'form', busy: false, error: message }))
        }
      }
      const checked = check(
        { ...form, to: receiver },
        {
          namespace: namespace(),
          from: from(),
          publicKey: connection()?.accounts[0]?.publicKey,
          network: target,
          supported: Boolean(loaded),
          holdings,
          checkAddress: (address, on) => loaded?.checkAddress(address, on),
        },
      )
      if (!checked.ok || !loaded || !target) {
        kernel.shake()
        return set({
          step: 'form',
          busy: false,
          error: checked.ok ? sendTexts.unsupportedChain : checked.error,
        })
      }
      const mine = generation
      set({ step: 'form', busy: true })
      try {
        const previewed = await loaded.preview(chainOf(target), checked.draft)
        if (mine !== generation) return
        const preview = named
          ? { ...previewed, details: [{ label: sendTexts.name, value: named }, ...previewed.details] }
          : previewed
        reviewed = { namespace: loaded.namespace, chainId: target.id }
        set({ step: 'preview', preview, busy: false })
        kernel.router.send({ type: 'PUSH', view: 'SendPreview' })
      } catch (error) {
        if (mine === generation) fail(error, (message) => ({ step: 'form', busy: false, error: message }))
      }
    },
    async confirmSend() {
      if (step.step !== 'preview' || step.busy || signing) return
      const { preview } = step
      const current = connection()
      const target = network()
      const loaded = await family()
      // The account or chain may have changed since the review: a preview goes out only from where it was made.
      const same =
        current?.accounts[0]?.address === preview.draft.from &&
        target?.id === reviewed?.chainId &&
        loaded?.namespace === reviewed?.namespace
      if (!current || !target || !loaded || !same || !reviewed) {
        kernel.shake()
        return set({ step: 'form', busy: false, error: sendTexts.accountChanged })
      }
      const { namespace: sentOn } = reviewed
      const mine = generation
      signing = preview
      set({ ...step, busy: true, error: undefined })
      kernel.snackbar.show('loading', sendTexts.signing)
      const tracked = { network: target.id, symbol: preview.draft.asset.symbol }
      kernel.track({ event: 'SEND_INITIATED', properties: tracked })
      let id: string
      let chain: Chain
      try {
        chain = chainOf(target)
        id = await loaded.submit(chain, preview, (request) => kernel.walletRequest(current, request))
      } catch (error) {
        const message = error instanceof SendFailure ? error.message : sendTexts.failed
        kernel.track({ event: 'SEND_ERROR', properties: { ...tracked, message } })
        // The preview says why beside Send; the snackbar only where the visitor is elsewhere.
        kernel.snackbar.show('error', message, {
          inView: mine === generation && onScreen(kernel.router, 'SendPreview'),
        })
        // The preview stays, unless the send started over meanwhile: the family never sends one preview twice.
        signing = undefined
        if (mine === generation)
          fail(error, (message) => ({ step: 'preview', preview, busy: false, error: message }))
        else kernel.changed()
        return
      }
      signing = undefined
      kernel.track({ event: 'SEND_SUCCESS', properties: tracked })
      const { from, to, amount, asset } = preview.draft
      const { symbol, decimals } = asset
      const sent = { id, chainId: target.id, from, to, amount, symbol, decimals, status: 'pending' as const }
      recent = [{ ...sent, time: kernel.now() }, ...recent].slice(0, keptSends)
      if (mine === generation) set({ step: 'sent', preview, id, status: 'pending' })
      else kernel.changed()
      kernel.snackbar.show('loading', sendTexts.submitted)
      await settle(loaded, chain, preview, id, sentOn)
    },
    doneSend() {
      generation++
      step = { step: 'form', busy: false }
      form = emptyForm
      kernel.router.send({ type: 'REPLACE', view: 'Account' })
    },
  }

  async function settle(loaded: Family, chain: Chain, preview: Preview, id: string, sentOn: Caip.Namespace) {
    let status: 'confirmed' | 'failed'
    try {
      status = await loaded.settle(chain, id)
    } catch (error) {
      console.warn('[airlock] Could not follow the transaction.', error)
      return
    }
    recent = recent.map((send) => (send.id === id ? { ...send, status } : send))
    if (step.step === 'sent' && step.id === id) step = { step: 'sent', preview, id, status }
    kernel.changed()
    // The result's status says it where it shows.
    const shown = step.step === 'sent' && step.id === id && onScreen(kernel.router, 'SendPreview')
    kernel.snackbar.show(
      status === 'confirmed' ? 'success' : 'error',
      status === 'confirmed' ? sendTexts.confirmed : sendTexts.failedOnChain,
      { inView: shown },
    )
    kernel.transacted(sentOn)
  }

  return {
    ui,
    snapshot: (): SendSlice & RecentSendsSlice => ({
      sends: { recent },
      send: {
        form,
        step,
        holdings,
        loading,
        feeRates,
        network: network(),
        unsupported: network() ? undefined : sendTexts.unsupportedChain,
        waiting: signing !== undefined,
      },
    }),
    back(view) {
      // Back from the preview edits the same form again; one waiting for the wallet stays as it is.
      if (view === 'SendPreview' && step.step === 'preview' && !signing) set({ step: 'form', busy: false })
      if (view === 'Send' && !signing) generation++
    },
    changed(changedNamespace) {
      // Another account or chain of the send's namespace: a form for the old one must not be sent from the
      // new one. A send already in the wallet's hands goes on; only its answer no longer updates the views.
      const ours = reviewed?.namespace ?? namespace()
      if (step.step !== 'sent' && changedNamespace === ours) {
        generation++
        reviewed = undefined
        step = { step: 'form', busy: false, ...(signing ? {} : { error: sendTexts.accountChanged }) }
      }
      return false
    },
  }
}
