/**
 * `append: false` on two real origins (the dApp at localhost:5173, the modal at airlock.localhost:5174): the
 * dApp gets the modal's element from `airlock.element` and places it itself, here in a shadow root of a
 * right-to-left container of its own. Before it is placed the modal cannot exist, and saying so beats
 * waiting; placed, it connects and signs as usual; moved (which reloads the frame), the connection stays.
 */
import type { Page } from '@playwright/test'
import { verifyMessage } from 'viem'
import { walletCalls } from '../wallets/index.ts'
import { addresses, expect, request, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`
const notPlaced = 'Place `airlock.element` in the page before using Airlock (append: false).'

/** The ES-module demo with `append: false`; the console's Airlock errors are collected. */
async function open(page: Page) {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('Airlock')) errors.push(message.text())
  })
  await page.goto(`/module.html?options=${encodeURIComponent(JSON.stringify({ append: false }))}`)
  await page.waitForFunction(() => document.readyState === 'complete')
  return errors
}

/**
 * What a dApp with its own root does: a right-to-left container holding an open shadow root, its own
 * Connect button inside, and the modal's element placed beside that button.
 */
function placeInShadowRoot(page: Page) {
  return page.evaluate(() => {
    const host = document.createElement('div')
    host.id = 'app'
    host.dir = 'rtl'
    document.body.append(host)
    const root = host.attachShadow({ mode: 'open' })
    const button = document.createElement('button')
    button.textContent = 'Connect in the app'
    button.onclick = () => window.airlock?.open()
    root.append(button, window.airlock?.element as HTMLDialogElement)
  })
}

/** Where the placed dialog is, and what it inherits there. */
function whereIsTheDialog(page: Page) {
  return page.evaluate(() => {
    const dialog = window.airlock?.element as HTMLDialogElement
    return {
      inShadowRoot: dialog.getRootNode() === document.getElementById('app')?.shadowRoot,
      inBody: dialog.parentElement === document.body,
      direction: getComputedStyle(dialog).direction,
      modal: dialog.matches(':modal'),
    }
  })
}

test('unplaced, open() and a wallet request fail at once with 4900 and the fix, and nothing is appended', async ({
  page,
}) => {
  const errors = await open(page)
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(0)
  expect(await page.evaluate(() => window.airlock?.element?.isConnected)).toBe(false)
  const opened = await page.evaluate(() =>
    window.airlock?.open().then(
      () => 'opened',
      (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
    ),
  )
  expect(opened).toEqual({ code: 4900, message: notPlaced })
  expect((await request(page, 'eth_requestAccounts')).error).toEqual({ code: 4900, message: notPlaced })
  expect(errors).toEqual([`Airlock: ${notPlaced}`, `Airlock: ${notPlaced}`])
})

test('placed in a shadow root of an RTL container: opens in the top layer, connects and signs; moved, the connection stays', async ({
  page,
  modal,
}) => {
  const errors = await open(page)
  await placeInShadowRoot(page)
  const opener = page.getByRole('button', { name: 'Connect in the app' })
  await opener.click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  // In the dApp's own tree (so it inherits its direction), yet shown modally in the top layer.
  expect(await whereIsTheDialog(page)).toEqual({
    inShadowRoot: true,
    inBody: false,
    direction: 'rtl',
    modal: true,
  })
  await page.keyboard.press('Escape')
  await expect(modal.getByRole('dialog')).toBeHidden()
  // Focus comes back to the button inside the shadow root, not to the root's host.
  await expect(opener).toBeFocused()

  await opener.click()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  await page.evaluate(() => window.airlock?.close())
  const message = 'Placed by the dApp'
  const signed = await request(page, 'personal_sign', [`0x${Buffer.from(message).toString('hex')}`, evm])
  expect(await verifyMessage({ address: evm, message, signature: signed.result as `0x${string}` })).toBe(true)

  // The dApp moves the element out of the shadow root into a plain container: the frame reloads.
  const loads = await page.evaluate(() => {
    const frame = window.airlock?.element?.querySelector('iframe') as HTMLIFrameElement
    const counted = { loads: 0 }
    frame.addEventListener('load', () => counted.loads++)
    Object.assign(window, { counted })
    const plain = document.createElement('div')
    plain.id = 'moved'
    document.body.append(plain)
    plain.append(window.airlock?.element as HTMLDialogElement)
    return counted
  })
  expect(loads.loads).toBe(0)
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { counted: { loads: number } }).counted.loads))
    .toBe(1)
  // The bridge greets the new document and the modal comes back connected, with no prompt to the wallet.
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  expect((await request(page, 'eth_accounts')).result).toEqual([evm])
  const again = await request(page, 'personal_sign', [`0x${Buffer.from('moved').toString('hex')}`, evm])
  expect(
    await verifyMessage({ address: evm, message: 'moved', signature: again.result as `0x${string}` }),
  ).toBe(true)
  expect((await walletCalls(page)).filter((call) => call.method === 'eth_requestAccounts')).toHaveLength(1)
  expect(await page.evaluate(() => window.airlock?.element?.parentElement?.id)).toBe('moved')
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', evm)
  expect(errors).toEqual([])
})
