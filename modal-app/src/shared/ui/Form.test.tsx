// @vitest-environment jsdom
import { act, type ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { mounted } from '../../testing/dom.ts'
import { AmountField, Form, type FormProps, Summary } from './Form.tsx'

const dom = mounted()
const render = (node: ReactNode) => act(() => dom.root.render(node))
const one = <T extends Element>(selector: string) => dom.host.querySelector(selector) as T

const form = (props: Partial<FormProps> = {}) => (
  <Form
    busy={false}
    onSubmit={() => {}}
    error={undefined}
    errorId="f-error"
    status=""
    submit={{ label: 'Review', disabled: false }}
    {...props}
  >
    <AmountField id="f-amount" label="Amount" value="1.5" onChange={() => {}}>
      <button type="button">Max</button>
    </AmountField>
  </Form>
)

describe('a form', () => {
  it('submits through onSubmit only: the browser does not navigate', () => {
    const onSubmit = vi.fn()
    render(form({ onSubmit }))
    let prevented: boolean | undefined
    dom.host.addEventListener('submit', (event) => {
      prevented = event.defaultPrevented
    })
    act(() => one<HTMLButtonElement>('button[type="submit"]').click())
    expect(onSubmit).toHaveBeenCalledOnce()
    expect(prevented).toBe(true)
  })

  it('keeps its error line in place as an alert, empty or not, its status polite, its button as told', () => {
    render(form({ status: 'Getting a quote…', submit: { label: 'Review', disabled: true, testId: 'go' } }))
    const alert = one<HTMLElement>('[role="alert"]')
    expect(alert.id).toBe('f-error')
    expect(alert.textContent).toBe('')
    expect(one('[role="status"]').textContent).toBe('Getting a quote…')
    expect(one<HTMLButtonElement>('[data-testid="go"]').disabled).toBe(true)
    render(form({ error: 'Insufficient ETH balance', busy: true }))
    expect(one('[role="alert"]').textContent).toBe('Insufficient ETH balance')
    expect(one('form').getAttribute('aria-busy')).toBe('true')
    expect(one('form').className).toBe('view')
  })

  it('names the amount by its label, types it with the decimal keypad, and reports what is typed', () => {
    const onChange = vi.fn()
    render(
      <AmountField
        id="a"
        label="You pay"
        value=""
        onChange={onChange}
        describedBy={['a-balance', undefined, false, 'a-error']}
        invalid
      >
        <span />
      </AmountField>,
    )
    const input = one<HTMLInputElement>('input')
    expect(one<HTMLLabelElement>('label').htmlFor).toBe('a')
    expect(one('label').id).toBe('a-label')
    expect(input.inputMode).toBe('decimal')
    expect(input.getAttribute('aria-describedby')).toBe('a-balance a-error')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    act(() => {
      setValue?.call(input, '2.5')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(onChange).toHaveBeenCalledWith('2.5')
  })

  it('describes an amount by nothing when no line describes it, and says nothing of validity unless invalid', () => {
    render(
      <AmountField id="a" label="Amount" value="" onChange={() => {}} describedBy={[undefined]}>
        <span />
      </AmountField>,
    )
    expect(one('input').hasAttribute('aria-describedby')).toBe(false)
    expect(one('input').hasAttribute('aria-invalid')).toBe(false)
  })

  it('lists terms as label and value, marked busy while stale', () => {
    render(
      <Summary
        testId="quote"
        stale
        terms={[
          { label: 'Fee', value: '1.50 USD', testId: 'fee' },
          { label: 'Minimum received', value: '0.9 ETH', title: 'At 0.5 % slippage' },
        ]}
      />,
    )
    const list = one<HTMLElement>('[data-testid="quote"]')
    expect(list.tagName).toBe('DL')
    expect(list.getAttribute('aria-busy')).toBe('true')
    expect([...list.querySelectorAll('dt')].map((term) => term.textContent)).toEqual([
      'Fee',
      'Minimum received',
    ])
    expect(one('[data-testid="fee"]').textContent).toBe('1.50 USD')
    expect(list.querySelectorAll('dd')[1]?.getAttribute('title')).toBe('At 0.5 % slippage')
  })
})
