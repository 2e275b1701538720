// @vitest-environment jsdom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mounted } from '../../testing/dom.ts'
import EmailCode from './EmailCode.tsx'
import { viewTexts as texts } from './viewTexts.ts'

const start = Date.UTC(2025, 0, 1)
const code = (slice: Record<string, unknown> = {}) => ({
  email: 'ada@mail.example',
  retryAt: 0,
  verifying: false,
  opening: false,
  ...slice,
})

const dom = mounted()
const ui = { verifyEmailCode: vi.fn(async (_code: string) => {}), resendEmailCode: vi.fn() }

function render(slice: Record<string, unknown> = {}) {
  act(() => dom.root.render(<EmailCode snapshot={{ embeddedWallet: { code: code(slice) } }} ui={ui} />))
}
const field = () => dom.host.querySelector<HTMLInputElement>('[data-testid="email-code"]') as HTMLInputElement
const resend = () =>
  dom.host.querySelector<HTMLButtonElement>('[data-testid="email-resend"]') as HTMLButtonElement

/** Puts `text` in the field as a paste or the browser's autofill does: the value changes, one input event. */
function paste(text: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  act(() => {
    setValue?.call(field(), text)
    field().dispatchEvent(new Event('input', { bubbles: true }))
  })
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: start })
  ui.verifyEmailCode.mockClear()
  ui.resendEmailCode.mockClear()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the code view', () => {
  it('sends a pasted 6-digit code at once, without a click', () => {
    render()
    paste('482913')
    expect(ui.verifyEmailCode).toHaveBeenCalledExactlyOnceWith('482913')
    expect(field().value).toBe('482913')
  })

  it('keeps only the digits of a code pasted with spaces or dashes, and sends them', () => {
    render()
    paste('482 913')
    expect(ui.verifyEmailCode).toHaveBeenLastCalledWith('482913')
    paste('')
    paste('48-29-13')
    expect(ui.verifyEmailCode).toHaveBeenLastCalledWith('482913')
    expect(ui.verifyEmailCode).toHaveBeenCalledTimes(2)
  })

  it('waits for the sixth digit before it sends anything', () => {
    render()
    paste('48291')
    expect(field().value).toBe('48291')
    expect(ui.verifyEmailCode).not.toHaveBeenCalled()
  })

  it('holds Resend back until the throttle has passed, then resends on a click and shows the notice', () => {
    render({ retryAt: start + 30_000 })
    expect(resend().disabled).toBe(true)
    expect(resend().textContent).toBe(texts.code.resendIn(30))
    act(() => vi.advanceTimersByTime(29_000))
    expect(resend().textContent).toBe(texts.code.resendIn(1))
    expect(resend().disabled).toBe(true)
    act(() => vi.advanceTimersByTime(1_000))
    expect(resend().disabled).toBe(false)
    expect(resend().textContent).toBe(texts.code.resend)

    act(() => resend().click())
    expect(ui.resendEmailCode).toHaveBeenCalledOnce()
    // The runtime answered: a new code is on its way, and the next 30 s start.
    render({ retryAt: Date.now() + 30_000, notice: texts.code.resent })
    expect(dom.host.querySelector('[role="status"]')?.textContent).toBe(texts.code.resent)
    expect(resend().disabled).toBe(true)
    expect(resend().textContent).toBe(texts.code.resendIn(30))
  })
})
