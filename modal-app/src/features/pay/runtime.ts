/**
 * Pay as the modal runs it: a dApp's `airlock.pay` (checked by the bridge's shape, then here against the
 * networks the dApp configured and the asset's decimals) opens the Pay view; the visitor connects or
 * switches if needed, sees whom they pay, the amount and their balance, buys a shortfall through Buy, and
 * confirms; the wallet sends the transfer and the dApp's promise resolves with its hash only once the
 * chain says it succeeded. Closing before the wallet is asked rejects with 4001; after, the dApp gets the
 * wallet's answer.
 */
import { Async, Errors, type Payment as PaymentInput } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { onScreen } from '../../core/Snackbar.ts'
import type { Network } from '../../shared/Network.ts'
import * as ChainAccess from '../onramp/Chain.ts'
import * as Payment from './Payment.ts'
import { payTexts } from './texts.ts'

export type Step =
  | { step: 'connect' }
  | { step: 'switch' }
  | { step: 'loading' }
  | { step: 'unreachable' }
  | { step: 'review'; balance: bigint; busy: boolean; error?: string | undefined }
  | { step: 'sent'; hash: string; status: 'pending' | 'confirmed' | 'failed' }

type Current = {
  payment: PaymentInput
  network: Network
  origin?: string | undefined
  asset?: Payment.Asset | undefined
  /** In base units, once the asset's decimals are known. */
  amount?: bigint | undefined
  /** The recipient's name, when the API knows one. */
  name?: string | undefined
  from?: string | undefined
  step: Step
  answer: Async.Deferred<string>
}

/** What the Pay view renders. */
export type PaySlice = {
  pay?:
    | (Omit<Current, 'answer' | 'amount' | 'step'> & {
        step: Step
        amount?: string | undefined
        fiat?: string | undefined
        /** What the account lacks, in whole units, when it lacks anything. */
        short?: string | undefined
        shortValue?: number | undefined
      })
    | undefined
}

export type PayUi = {
  confirmPay(): Promise<void>
  connectForPay(): void
  switchForPay(): Promise<void>
  retryPay(): void
  donePay(): void
}

export function setup(kernel: Kernel): Runtime {
  let current: Current | undefined
  let generation = 0

  const connection = () => kernel.connectionOf('eip155')
  const chainOf = (network: Network) => {
    const { endpoint } = kernel.api
    return endpoint
      ? ChainAccess.create({
          endpoint,
          chainId: network.id,
          timers: kernel.timers,
          unreachable: payTexts.unreachable,
        })
      : undefined
  }
  const set = (step: Step) => {
    if (current) current = { ...current, step }
    kernel.changed()
  }

  /** Ends the payment: the dApp's promise settles once, the view goes. */
  function settle(outcome: { hash: string } | { error: Error }) {
    const ending = current
    current = undefined
    generation++
    if (!ending) return
    if ('hash' in outcome) ending.answer.resolve(outcome.hash)
    else ending.answer.reject(outcome.error)
    kernel.changed()
  }

  /** Reads what the view needs: the connection's state, the asset, the balance. */
  async function load() {
    const payment = current
    if (!payment) return
    const mine = ++generation
    const here = connection()
    const address = here?.accounts[0]?.address
    if (!here || !address) return set({ step: 'connect' })
    if (here.chainId !== payment.payment.chain) return set({ step: 'switch' })
    const chain = chainOf(payment.network)
    if (!chain) return set({ step: 'unreachable' })
    set({ step: 'loading' })
    try {
      const token = Payment.tokenOf(payment.payment)
      const listed = await kernel.api.balances(payment.network.id, address, { fresh: true }).catch(() => [])
      const entry = listed.find((balance) =>
        token ? balance.address?.toLowerCase().endsWith(token.toLowerCase()) : !balance.address,
      )
      const asset: Payment.Asset = token
        ? {
            token,
            symbol: entry?.symbol ?? token,
            decimals: entry ? Number(entry.quantity.decimals) : await chain.decimals(token),
            price: entry?.price,
          }
        : { ...payment.network.nativeCurrency, price: entry?.price }
      const amount = Payment.baseUnits(payment.payment.amount, asset.decimals)
      if (amount === undefined) {
        kernel.router.send({ type: 'CLOSE', force: true })
        return settle({ error: new Errors.InvalidParamsError(payTexts.tooPrecise(asset.decimals)) })
      }
      const balance = await chain.balance(address, token)
      if (mine !== generation || current?.answer !== payment.answer) return
      current = { ...payment, asset, amount, from: address, step: { step: 'review', balance, busy: false } }
      kernel.changed()
    } catch {
      if (mine === generation) set({ step: 'unreachable' })
    }
  }

  const ui: PayUi = {
    async confirmPay() {
      const payment = current
      const here = connection()
      if (payment?.step.step !== 'review' || payment.step.busy || !here || !payment.from) return
      if (payment.amount === undefined || !payment.asset) return
      const { balance } = payment.step
      if (Payment.shortfall(payment.amount, balance) > 0n) return kernel.shake()
      set({ step: 'review', balance, busy: true })
      const chain = chainOf(payment.network)
      let hash: string
      try {
        const sent = await kernel.walletRequest(here, {
          namespace: 'eip155',
          method: 'eth_sendTransaction',
          params: [
            Payment.transaction({
              from: payment.from,
              to: payment.payment.to,
              amount: payment.amount,
              token: payment.asset.token,
            }),
          ],
        })
        if (typeof sent !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(sent))
          throw new Error(payTexts.unreachable)
        hash = sent
      } catch (error) {
        const declined = Errors.codeOf(error) === Errors.UserRejectedRequestError.code
        // The modal closed while the wallet asked: the dApp still learns the wallet's answer.
        if (current?.answer !== payment.answer)
          return payment.answer.reject(
            declined ? new Errors.UserRejectedRequestError() : new Errors.InternalError(payTexts.unreachable),
          )
        kernel.shake()
        return set({
          step: 'review',
          balance,
          busy: false,
          error: declined ? payTexts.declined : error instanceof Error ? error.message : payTexts.unreachable,
        })
      }
      set({ step: 'sent', hash, status: 'pending' })
      kernel.snackbar.show('loading', payTexts.pending)
      const status = chain ? await chain.receipt(hash).catch(() => 'failed' as const) : 'failed'
      const shown = current?.answer === payment.answer
      if (shown) set({ step: 'sent', hash, status })
      kernel.transacted('eip155')
      // The view's status says it where it shows.
      kernel.snackbar.show(
        status === 'confirmed' ? 'success' : 'error',
        status === 'confirmed' ? payTexts.confirmed : payTexts.failedOnChain,
        { inView: shown && onScreen(kernel.router, 'Pay') },
      )
      // Resolved only now, with the chain's word: a dApp may ship goods on it.
      if (status === 'confirmed') payment.answer.resolve(hash)
      else payment.answer.reject(new Errors.InternalError(payTexts.failedOnChain))
    },
    connectForPay() {
      kernel.router.send({ type: 'PUSH', view: 'Connect' })
    },
    async switchForPay() {
      if (!current) return
      try {
        await kernel.switchTo(current.network)
      } catch {
        // The wallet said no or could not: the view still offers the switch.
      }
      void load()
    },
    retryPay() {
      void load()
    },
    donePay() {
      const ending = current
      if (ending?.step.step === 'sent') {
        current = undefined
        generation++
      }
      kernel.router.send({ type: 'CLOSE' })
    },
  }

  return {
    ui,
    host: {
      async pay(payment) {
        if (current) throw new Errors.InternalError(payTexts.busy())
        const network = kernel.configured(payment.chain)
        if (network?.namespace !== 'eip155')
          throw new Errors.UnrecognizedChainError(payTexts.unknownNetwork(payment.chain))
        const answer = Async.deferred<string>()
        current = { payment, network, origin: kernel.origin(), step: { step: 'loading' }, answer }
        const to = payment.to
        kernel.api
          .identity?.(to)
          .then((identity) => {
            if (current?.payment.to === to && identity.name) current = { ...current, name: identity.name }
            kernel.changed()
          })
          .catch(() => {})
        kernel.router.send({ type: 'OPEN', view: 'Pay' })
        void load()
        return answer.promise
      },
    },
    snapshot: (): PaySlice => {
      if (!current) return { pay: undefined }
      const { answer: _, amount, step, ...rest } = current
      const asset = current.asset
      const short =
        step.step === 'review' && amount !== undefined ? Payment.shortfall(amount, step.balance) : undefined
      return {
        pay: {
          ...rest,
          step,
          amount: amount !== undefined && asset ? Payment.whole(amount, asset.decimals) : undefined,
          fiat: amount !== undefined && asset ? Payment.fiat(amount, asset) : undefined,
          short: short && asset ? Payment.whole(short, asset.decimals) : undefined,
          shortValue: short && asset ? Number(Payment.whole(short, asset.decimals)) : undefined,
        },
      }
    },
    connected() {
      if (!current) return false
      kernel.router.send({ type: 'OPEN', view: 'Pay' })
      void load()
      return true
    },
    changed() {
      if (current && current.step.step !== 'sent') void load()
      return false
    },
    transacted() {
      // A purchase or another transfer settled: the balance is read again.
      if (current && current.step.step !== 'sent') void load()
    },
    closed() {
      if (!current) return
      const { step } = current
      // Once the wallet holds the transfer (asking the visitor, or sent), closing only hides it: the wallet
      // may still send, and the dApp must learn how it ended rather than a 4001 for money that moved.
      if (step.step === 'sent' || (step.step === 'review' && step.busy)) {
        current = undefined
        generation++
      } else settle({ error: new Errors.UserRejectedRequestError() })
    },
  }
}
