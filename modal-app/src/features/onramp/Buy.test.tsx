// @vitest-environment jsdom
import type * as Contract from '@airlock/api/contract'
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mounted } from '../../testing/dom.ts'
import Buy from './Buy.tsx'
import type { OnrampSlice } from './runtime.ts'
import { onrampTexts } from './texts.ts'

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

const dom = mounted()
const ui = { continueOnramp: vi.fn(), editOnramp: vi.fn(), showPurchase: vi.fn() }
const render = (onramp: Onramp) =>
  act(() => dom.root.render(<Buy snapshot={{ onramp, networks: [] } as never} ui={ui} />))
const byTestId = <T extends Element>(id: string) => dom.host.querySelector(`[data-testid="${id}"]`) as T
const labelled = (text: string) => {
  const label = [...dom.host.querySelectorAll('label')].find((l) => l.textContent === text)
  return label && dom.host.ownerDocument.getElementById(label.htmlFor)
}

beforeEach(() => {
  for (const call of Object.values(ui)) call.mockClear()
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
    expect(described.map((id) => dom.host.ownerDocument.getElementById(id)?.dataset.testid)).toEqual([
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
    expect(dom.host.querySelector('form')).toBeNull()
  })
})
