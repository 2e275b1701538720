/**
 * The clickjacking guard: a page that hides the modal (nearly transparent) or draws a decoy over it, and
 * gets the visitor to click where an approval button is, approves nothing; nor does a decoy lifted just
 * before the click, or a request the page slips in between the two clicks of a double-click: an approval
 * waits until it has been in plain sight for a while. The visitor can still go on in a window of the modal's
 * own origin, which no page can draw over: a connect and a sign-in complete there, and Enter there cancels.
 * Where money would move, the chain says nothing did.
 */
import type { FrameLocator, Page } from '@playwright/test'
import { type Address, parseEther, toHex } from 'viem'
import { walletCalls } from '../wallets/index.ts'
import { createWalletByEmail } from './emailFixtures.ts'
import { addresses, clients, expect, inSight, request, rpc, test } from './fixtures.ts'
import { type Outcome, test as payTest, recipient, reviewing } from './onrampFixtures.ts'

const wallet = 'Airlock Test Wallet'
const unverified = 'Airlock cannot confirm that it is fully visible on this page, so approving here is off.'

type Box = { x: number; y: number; width: number; height: number }

/**
 * Clicks the middle of `box` as a person does: wherever the pointer is, whatever covers it. `clickCount` 2
 * is the second click of a double-click (one press, counted as the second).
 */
async function clickThrough(page: Page, box: Box, clickCount = 1) {
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down({ clickCount })
  await page.mouse.up({ clickCount })
}

/** Fades the modal's frame to opacity 0.1, as a page hiding it would; with `open`, opens it in that moment. */
function fade(page: Page, open = false) {
  return page.evaluate((open) => {
    if (open) void window.airlock?.open()
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.style.opacity = '0.1'
  }, open)
}

/** Takes the faded modal's way round: its approval window, opened in the click. */
async function continueInWindow(page: Page, modal: FrameLocator): Promise<Page> {
  const popup = page.context().waitForEvent('page')
  await modal.getByRole('button', { name: 'Continue in a new window' }).click()
  return popup
}

/** Draws a decoy over `box` in the top layer, above the modal's dialog, letting clicks through to it. */
function drawDecoy(page: Page, box: Box) {
  return page.evaluate((box) => {
    const decoy = document.createElement('div')
    decoy.id = 'decoy'
    decoy.popover = 'manual'
    decoy.textContent = 'Claim your prize'
    decoy.style.cssText = `position:fixed;margin:0;inset:auto;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;background:gold;pointer-events:none;border:0`
    document.body.append(decoy)
    decoy.showPopover()
  }, box)
}

/**
 * Closes the modal from the page and reads how the payment ended: a payment the wallet was never asked for
 * is 4001; one a click confirmed goes on to the chain whatever the modal does.
 */
async function endPayment(page: Page): Promise<Outcome> {
  await page.evaluate(() => window.airlock?.close())
  await expect.poll(() => page.evaluate(() => (window as { paid?: unknown }).paid)).toBeTruthy()
  return page.evaluate(() => (window as unknown as { paid: Outcome }).paid)
}

/** Nothing left `account` for `to`: the wallet was never asked, and both balances are as they were. */
async function nothingPaid(page: Page, account: Address, to: Address) {
  expect((await endPayment(page)).error?.code).toBe(4001)
  expect((await walletCalls(page)).map((call) => call.method)).not.toContain('eth_sendTransaction')
  expect(await clients.a.getBalance({ address: to })).toBe(0n)
  expect(await clients.a.getBalance({ address: account })).toBe(parseEther('1'))
}

test('a modal made nearly transparent approves nothing, even when clicked', async ({ page, modal }) => {
  await page.goto('/')
  await fade(page, true)
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
  await fade(page, true)
  const window1 = await continueInWindow(page, modal)
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
  const window2 = await continueInWindow(page, modal)
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
  await fade(page, true)
  const window1 = await continueInWindow(page, modal)
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

payTest(
  'a payment the page makes nearly transparent pays nothing when clicked',
  async ({ page, modal, account }) => {
    const to = await reviewing(page, modal, account, '0.05')
    const box = (await modal.getByTestId('pay-confirm').boundingBox()) as Box
    await fade(page)
    await expect(modal.locator('.notice')).toContainText(unverified)
    await clickThrough(page, box)
    await nothingPaid(page, account, to)
  },
)

payTest(
  'a decoy over a payment, clicked through, then lifted just before another click, pays nothing',
  async ({ page, modal, account }) => {
    await page.clock.install()
    const to = await reviewing(page, modal, account, '0.05')
    const confirm = modal.getByTestId('pay-confirm')
    const box = (await confirm.boundingBox()) as Box
    // From here the page's clocks stand still, so the lifted decoy is only just gone however slow the machine.
    await page.clock.pauseAt(Date.now() + 1_000)
    await drawDecoy(page, box)
    await expect(modal.locator('.notice')).toContainText(unverified)
    await clickThrough(page, box)
    await page.evaluate(() => document.getElementById('decoy')?.remove())
    await expect(modal.locator('.notice')).toHaveCount(0)
    await clickThrough(page, box)
    await expect(confirm).toBeDisabled()
    await page.clock.resume()
    await nothingPaid(page, account, to)
  },
)

test('a request slipped in between the two clicks of a double-click approves nothing: the second click lands on an approval not yet seen', async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  await page.clock.install()
  await page.goto('/module.html?networks=eip155:31337&accountType=eoa')
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, `double-click-${Date.now()}@example.test`, asked)
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  const account = ((await request(page, 'eth_accounts')).result as Address[])[0] as Address
  await rpc(clients.a.transport.url as string, 'anvil_setBalance', [account, toHex(parseEther('1'))])
  await page.evaluate(() => window.airlock?.close())
  const thief = recipient()
  const transfer = { from: account, to: thief, value: toHex(parseEther('0.5')) }

  // Where Approve shows for that transfer: the page learns it once, from a transfer the visitor rejects.
  const asking = request(page, 'eth_sendTransaction', [transfer])
  const approve = modal.getByRole('button', { name: 'Approve' })
  await expect(approve).toBeEnabled()
  const box = (await approve.boundingBox()) as Box
  await modal.getByRole('button', { name: 'Reject' }).click()
  expect((await asking).error?.code).toBe(4001)
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().open)).toBe(false)

  // "Double-click to claim", right where Approve will show: its first click asks for the transfer.
  await page.evaluate(
    ({ box, transfer }) => {
      const bait = document.createElement('button')
      bait.textContent = 'Double-click to claim'
      bait.style.cssText = `position:fixed;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;z-index:1`
      bait.addEventListener('click', () => {
        const page = window as unknown as { sent?: unknown }
        void window.airlock?.providers.eip155
          .request({ method: 'eth_sendTransaction', params: [transfer] })
          .then(
            (hash) => {
              page.sent = { hash }
            },
            (error: { code?: number }) => {
              page.sent = { code: error.code }
            },
          )
      })
      document.body.append(bait)
    },
    { box, transfer },
  )
  // The page's clocks stand still from here: the second click comes as soon after the first as can be.
  await page.clock.pauseAt(Date.now() + 1_000)
  await clickThrough(page, box)
  await expect(modal.getByRole('heading', { name: 'Send a transaction' })).toBeVisible()
  await inSight(page, true)
  await clickThrough(page, box, 2)
  // The second click came where Approve sits once the view has its simulation (exactly where the first
  // transfer had it), and whatever it landed on approved nothing: Approve waits, the page's clocks stopped.
  await expect.poll(() => approve.boundingBox()).toEqual(box)
  await expect(approve).toBeDisabled()
  expect(await page.evaluate(() => (window as { sent?: unknown }).sent)).toBeUndefined()

  // Once the card has been in sight long enough Approve works; the visitor, who never meant it, rejects.
  await page.clock.resume()
  await expect(approve).toBeEnabled()
  await modal.getByRole('button', { name: 'Reject' }).click()
  await expect.poll(() => page.evaluate(() => (window as { sent?: unknown }).sent)).toEqual({ code: 4001 })
  expect(await clients.a.getBalance({ address: thief })).toBe(0n)
  expect(await clients.a.getBalance({ address: account })).toBe(parseEther('1'))
})

test('Enter in the approval window approves nothing: the window focuses Cancel, never a choice', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await fade(page, true)
  const window1 = await continueInWindow(page, modal)
  await expect(window1.getByRole('heading')).toHaveText('Connect Wallet')
  await expect(window1.getByRole('button', { name: 'Cancel' })).toBeFocused()
  const closed = window1.waitForEvent('close')
  // A keypress the page tricked out of the visitor, meant for the page, lands in the window.
  await window1.keyboard.press('Enter').catch(() => {})
  await closed
  await expect(modal.getByRole('button', { name: 'Continue in a new window' })).toBeEnabled()
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await walletCalls(page)).toEqual([])
})
