// @vitest-environment jsdom
import type * as Contract from '@airlock/api/contract'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import Buy from './Buy.tsx'
import type { OnrampSlice } from './runtime.ts'
import { onrampTexts } from './texts.ts'

// React's `act` warns unless the environment says it is a test's.
Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

const options: Contract.OnrampOptionsAnswer = {
  paymentCurrencies: [
    { id: 'USD', limits: [{ id: 'card', min: '10.00', max: '7500.00' }] },
    { id: 'EUR', limits: [{ id: 'card', min: '10.00', max: '7500.00' }] },
  ],
  purchaseCurrencies: [
    {
      id: 'ETH',
      symbol: 'ETH',
      name: 'Ether',
      networks: [{ chainId: 'eip155:31337', name: 'Airlock Devnet A', contractAddress: null }],
    },
  ],
  providers: [{ id: 'sandbox', name: 'Sandbox' }],
}
const form = { amount: '100', currency: 'USD', asset: 'ETH', network: 'eip155:31337', provider: 'sandbox' }
const ask = {
  purchaseCurrency: 'ETH',
  paymentCurrency: 'USD',
  amount: '100',
  network: 'eip155:31337',
}
const usd = (amount: string) => ({ amount, currency: 'USD' })
const quote: Contract.OnrampQuoteAnswer = {
  coinbaseFee: usd('1.50'),
  networkFee: usd('0.10'),
  paymentSubtotal: usd('98.40'),
  paymentTotal: usd('100.00'),
  purchaseAmount: { amount: '0.0328', currency: 'ETH' },
  quoteId: 'q-1',
  provider: 'sandbox',
}
type Onramp = OnrampSlice['onramp']
const ready: Onramp = {
  options,
  form,
  quote: { status: 'ready', ask, quote, stale: false },
  loading: false,
  opening: false,
  blocked: false,
}

let root: Root
let host: HTMLElement
const ui = { continueOnramp: vi.fn(), editOnramp: vi.fn(), showPurchase: vi.fn() }
const render = (onramp: Onramp) =>
  act(() => root.render(<Buy snapshot={{ onramp, networks: [] } as never} ui={ui} />))
const byTestId = <T extends Element>(id: string) => host.querySelector(`[data-testid="${id}"]`) as T
const labelled = (text: string) => {
  const label = [...host.querySelectorAll('label')].find((l) => l.textContent === text)
  return label && host.ownerDocument.getElementById(label.htmlFor)
}

beforeEach(() => {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  for (const call of Object.values(ui)) call.mockClear()
})
afterEach(() => {
  act(() => root.unmount())
  host.remove()
})

describe('the Buy form', () => {
  it('names its fields by their labels, and opens the checkout within the press on Continue', () => {
    render(ready)
    expect(labelled(onrampTexts.amount)).toBe(byTestId('onramp-amount'))
    expect(labelled(onrampTexts.asset)).toBe(byTestId('onramp-asset'))
    expect(labelled(onrampTexts.network)).toBe(byTestId('onramp-network'))
    // The currency beside the amount has a label read out only.
    expect(labelled(onrampTexts.currency)).toBe(byTestId('onramp-currency'))
    const amount = byTestId<HTMLInputElement>('onramp-amount')
    // The limits and the error line say what the amount may be.
    const described = amount.getAttribute('aria-describedby')?.split(' ') ?? []
    expect(described.map((id) => host.ownerDocument.getElementById(id)?.dataset.testid)).toEqual([
      'onramp-limits',
      'onramp-error',
    ])
    expect(byTestId('onramp-total').textContent).toBe('100.00 USD')
    expect(byTestId('onramp-fee').textContent).toBe('1.50 USD')
    const button = byTestId<HTMLButtonElement>('onramp-continue')
    expect(button.disabled).toBe(false)
    act(() => button.click())
    expect(ui.continueOnramp).toHaveBeenCalledOnce()
  })

  it('offers no checkout on a stale quote, an estimate or an amount outside the limits, and says why', () => {
    render({ ...ready, quote: { status: 'ready', ask, quote, stale: true } })
    expect(byTestId<HTMLButtonElement>('onramp-continue').disabled).toBe(true)
    expect(byTestId('onramp-quote-status').textContent).toBe(onrampTexts.stale)
    expect(byTestId('onramp-quote').getAttribute('aria-busy')).toBe('true')

    render({ ...ready, quote: { status: 'ready', ask, quote: { ...quote, estimate: true }, stale: false } })
    expect(byTestId<HTMLButtonElement>('onramp-continue').disabled).toBe(true)
    expect(byTestId('onramp-receive').textContent).toBe('≈ 0.0328 ETH')

    render({ ...ready, problem: 'The minimum purchase is 10.00 USD', quote: { status: 'idle' } })
    expect(byTestId<HTMLButtonElement>('onramp-continue').disabled).toBe(true)
    expect(byTestId('onramp-error').textContent).toBe('The minimum purchase is 10.00 USD')
    expect(byTestId('onramp-amount').getAttribute('aria-invalid')).toBe('true')
    expect(byTestId('onramp-quote')).toBeNull()
  })

  it('keeps the quote being replaced on screen, marked busy, while the next one is asked', () => {
    render({ ...ready, quote: { status: 'loading', ask, previous: quote } })
    expect(byTestId('onramp-quote-status').textContent).toBe(onrampTexts.quoting)
    expect(byTestId('onramp-total').textContent).toBe('100.00 USD')
    expect(byTestId('onramp-quote').getAttribute('aria-busy')).toBe('true')
  })

  it('says why Buy cannot run here, with no form', () => {
    render({ ...ready, options: undefined, form: undefined, error: undefined })
    expect(byTestId('onramp-error').textContent).toBe(onrampTexts.notSupported)
    expect(byTestId('onramp-error').getAttribute('role')).toBe('alert')
    expect(host.querySelector('form')).toBeNull()
  })
})
