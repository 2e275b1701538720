/**
 * Every form view laid out at 360 px (a phone) and 1100 px: Connect's email field, Send, Swap, Buy, a name's
 * registration and Pay. In each, every visible input, select and picker is measured against what it must show: its
 * label's text, and its value (an amount, a choice's whole name) or its placeholder, in the control's own font,
 * inside its padding. A control narrower than that (Buy's amount squeezed to 26 px by the currency beside
 * it) fails with its name and both widths.
 */
import type { Page } from '@playwright/test'
import { expect, modalFrame } from './fixtures.ts'
import { connectFunded, pay, payPage, recipient, test } from './onrampFixtures.ts'

type Squeezed = { control: string; width: number; needs: number; text: string }

/** The visible inputs, selects and pickers of the modal narrower than their content. */
async function squeezed(page: Page): Promise<Squeezed[]> {
  const frame = await modalFrame(page)
  return frame.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
    const px = (value: string) => Number.parseFloat(value) || 0
    const widthOf = (element: Element, text: string) => {
      const style = getComputedStyle(element)
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      return context.measureText(text).width
    }
    const found: Squeezed[] = []
    const controls = document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>(
      'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), select, button[aria-haspopup="listbox"]',
    )
    for (const control of controls) {
      if (control.getClientRects().length === 0 || getComputedStyle(control).visibility === 'hidden') continue
      const label = control.labels?.[0]
      const name = (label?.textContent ?? control.getAttribute('aria-label') ?? control.id).trim()
      // A select shows its choice beside its arrow; an input its value, or its placeholder while empty. A long
      // free text (an address, an email) may scroll inside its field: what it needs is its label's width.
      const shown =
        control instanceof HTMLSelectElement
          ? (control.selectedOptions[0]?.textContent ?? '')
          : control instanceof HTMLInputElement && control.inputMode === 'decimal'
            ? control.value || control.placeholder
            : control instanceof HTMLInputElement
              ? control.placeholder
              : ''
      const style = getComputedStyle(control)
      const inner = control.clientWidth - px(style.paddingInlineStart) - px(style.paddingInlineEnd)
      const arrow = control instanceof HTMLSelectElement ? 16 : 0
      // A visible label above the control sets its least width; one read out only (a currency beside an
      // amount) is not shown, so it asks nothing.
      const labelWidth = label && !label.classList.contains('sr-only') ? widthOf(label, name) : 0
      const needs = Math.ceil(Math.max(widthOf(control, shown) + arrow, labelWidth))
      if (inner < needs) found.push({ control: name, width: Math.round(inner), needs, text: shown })
      // A picker's choice has the room its icon, balance and arrow leave: its whole name must fit there (to
      // half a pixel: the text's width is fractional, the room the layout gives it too).
      const choice = control.querySelector('.picker-value')
      if (choice) {
        const text = choice.textContent ?? ''
        const room = choice.getBoundingClientRect().width
        const wants = widthOf(choice, text)
        if (room < wants - 0.5)
          found.push({ control: name, width: Math.round(room), needs: Math.ceil(wants), text })
      }
    }
    return found
  })
}

for (const width of [360, 1100]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: 800 } })

    test('no input or select in a form view is narrower than its label and value', async ({
      page,
      modal,
      account,
    }) => {
      test.setTimeout(120_000)
      const check = async (view: string) =>
        expect({ view, squeezed: await squeezed(page) }).toEqual({ view, squeezed: [] })
      const back = () => modal.getByRole('button', { name: 'Back' }).click()

      await page.goto(payPage)
      await page.evaluate(() => window.airlock?.open())
      await modal.getByLabel('Email', { exact: true }).fill('someone.with.a.long.name@example.test')
      await check('email')
      await page.keyboard.press('Escape')

      await connectFunded(page, modal, account, { path: payPage })
      const to = recipient()

      await modal.getByRole('button', { name: 'Send', exact: true }).click()
      await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
      await modal.getByTestId('send-amount').fill('1234.5678')
      await check('Send')
      await back()

      await modal.getByRole('button', { name: 'Swap', exact: true }).click()
      await expect(modal.locator('form.swap-form')).toHaveAttribute('aria-busy', 'false')
      await check('Swap')
      await back()

      await modal.getByRole('button', { name: 'Buy', exact: true }).click()
      await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'ETH')
      await modal.getByRole('button', { name: '100 USD' }).click()
      await expect(modal.getByTestId('onramp-amount')).toHaveValue('100')
      await check('Buy')
      await back()

      await modal.getByRole('button', { name: 'Choose a name for this account' }).click()
      await modal.getByTestId('name-input').fill('newcomer')
      await check('name registration')
      await back()

      await pay(page, { to, amount: '0.02', chain: 'eip155:31337' })
      await expect(modal.getByTestId('pay')).toBeVisible()
      await check('Pay')
    })
  })
}
