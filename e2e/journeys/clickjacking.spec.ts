/**
 * The clickjacking guard: a page that hides the modal (nearly transparent) or draws a decoy over it, and
 * gets the visitor to click where an approval button is, approves nothing. The visitor can still go on in a
 * window of the modal's own origin, which no page can draw over: a connect and a sign-in complete there.
 */
import type { Page } from '@playwright/test'
import { addresses, expect, request, test } from './fixtures.ts'

const wallet = 'Airlock Test Wallet'
const unverified = 'Airlock cannot confirm that it is fully visible on this page, so approving here is off.'

/** Clicks the middle of the modal's wallet button as a person does: wherever the pointer is, whatever covers it. */
async function clickThrough(page: Page, box: { x: number; y: number; width: number; height: number }) {
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
}

test('a modal made nearly transparent approves nothing, even when clicked', async ({ page, modal }) => {
  await page.goto('/')
  await page.evaluate(() => {
    void window.airlock?.open()
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.style.opacity = '0.1'
  })
  const button = modal.getByRole('button', { name: wallet })
  // The guard has looked and said no before the click: the notice is its word.
  await expect(modal.locator('.notice')).toContainText(unverified)
  await expect(button).toBeDisabled()
  await clickThrough(
    page,
    (await button.boundingBox()) as NonNullable<Awaited<ReturnType<typeof button.boundingBox>>>,
  )
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
})

test('a decoy drawn over the modal, letting clicks through to it, approves nothing', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  const button = modal.getByRole('button', { name: wallet })
  await expect(button).toBeEnabled()
  const box = (await button.boundingBox()) as NonNullable<Awaited<ReturnType<typeof button.boundingBox>>>
  // A popover is in the top layer above the modal's dialog; pointer-events: none sends the click beneath.
  await page.evaluate((box) => {
    const decoy = document.createElement('div')
    decoy.popover = 'manual'
    decoy.textContent = 'Claim your prize'
    decoy.style.cssText = `position:fixed;margin:0;inset:auto;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;background:gold;pointer-events:none;border:0`
    document.body.append(decoy)
    decoy.showPopover()
  }, box)
  await expect(modal.locator('.notice')).toContainText(unverified)
  await expect(button).toBeDisabled()
  await clickThrough(page, box)
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
})

test('in a window of its own the visitor connects and signs in, though the frame is hidden', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?siwx=optional')
  await page.evaluate(() => {
    void window.airlock?.open()
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.style.opacity = '0.1'
  })
  const popup = page.context().waitForEvent('page')
  await modal.getByRole('button', { name: 'Continue in a new window' }).click()
  const window1 = await popup
  await expect(window1.getByRole('heading')).toHaveText('Connect Wallet')
  await expect(window1.getByText('http://localhost:5173')).toBeVisible()
  const closed = window1.waitForEvent('close')
  // The window closes itself in the click; its closing is what is asserted.
  await window1
    .getByRole('button', { name: wallet })
    .click({ noWaitAfter: true })
    .catch(() => {})
  await closed
  const evm = addresses.evm?.address as string
  await expect.poll(async () => (await request(page, 'eth_accounts')).result).toEqual([evm])

  // Sign-in follows the connect, guarded the same way.
  await expect(modal.getByTestId('signin-origin')).toHaveText('http://localhost:5173')
  await expect(modal.getByRole('button', { name: 'Sign', exact: true })).toBeDisabled()
  const popup2 = page.context().waitForEvent('page')
  await modal.getByRole('button', { name: 'Continue in a new window' }).click()
  const window2 = await popup2
  const closed2 = window2.waitForEvent('close')
  // The window closes itself in the click; its closing is what is asserted.
  await window2
    .getByRole('button', { name: 'Sign' })
    .click({ noWaitAfter: true })
    .catch(() => {})
  await closed2
  await expect
    .poll(() => page.evaluate(() => window.airlock?.getSession()?.address))
    .toBe(`eip155:31337:${evm.toLowerCase()}`)
})

test('cancelling in the window approves nothing', async ({ page, modal }) => {
  await page.goto('/')
  await page.evaluate(() => {
    void window.airlock?.open()
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.style.opacity = '0.1'
  })
  const popup = page.context().waitForEvent('page')
  await modal.getByRole('button', { name: 'Continue in a new window' }).click()
  const window1 = await popup
  const closed = window1.waitForEvent('close')
  // The window closes itself in the click; its closing is what is asserted.
  await window1
    .getByRole('button', { name: 'Cancel' })
    .click({ noWaitAfter: true })
    .catch(() => {})
  await closed
  // The frame still offers the window (the question was answered, not left hanging), and nothing connected.
  await expect(modal.getByRole('button', { name: 'Continue in a new window' })).toBeEnabled()
  await expect(modal.getByRole('button', { name: wallet })).toBeDisabled()
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
})
