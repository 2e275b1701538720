/**
 * Buy, end to end with the dev stack's sandbox provider: the checkout opens in a window of the provider's
 * own origin (never in the modal's frame), the provider's signed webhook completes the order, and the ETH
 * is asserted on anvil before the journey believes the modal. Then the ways it goes wrong: a 3-D-Secure
 * step, a declined card, a provider that is down (docs/behaviour.md §8's fallback options and an estimate), a window
 * closed mid-payment and resumed after a reload, an amount outside the limits, a blocked window.
 */
import { formatEther } from 'viem'
import { axeViolations, clients, expect } from './fixtures.ts'
import {
  cards,
  connectFunded,
  deliveredOnA,
  openCheckout,
  payWithCard,
  sandboxDown,
  stage,
  test,
} from './onrampFixtures.ts'

test.beforeEach(async ({ page: tab, modal, account }) => {
  await connectFunded(tab, modal, account, { path: '/module.html?networks=eip155:31337' })
  await modal.getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'ETH')
})

test('buys ETH with the test card: the webhook completes the order, the ETH is on anvil, Activity lists it', async ({
  page: tab,
  modal,
  account,
}) => {
  await expect(modal.getByTestId('onramp-network')).toHaveAttribute('data-value', 'eip155:31337')
  await modal.getByRole('button', { name: '100 USD' }).click()
  await expect(modal.getByTestId('onramp-total')).toHaveText('100.00 USD')
  await expect(modal.getByTestId('onramp-fee')).toHaveText('1.50 USD')
  expect(await axeViolations(tab)).toEqual([])
  const before = await clients.a.getBalance({ address: account })

  const popup = await openCheckout(tab, modal)
  await stage(modal, 'paying')
  await expect(modal.getByTestId('onramp-stage')).toHaveText('Waiting for your payment')
  await payWithCard(popup, cards.succeeds)
  await expect(popup.getByRole('heading', { name: 'Payment complete' })).toBeVisible({ timeout: 30_000 })
  await stage(modal, 'arrived')
  expect(await axeViolations(tab)).toEqual([])

  // The chain's word: the delivery is mined, to this account, and the balance grew by exactly its value.
  const delivery = await deliveredOnA(modal, account, before)
  await expect(modal.getByTestId('onramp-stage')).toHaveText(
    `${formatEther(delivery.value)} ETH is in your account.`,
  )

  await modal.getByTestId('onramp-done').click()
  await modal.getByRole('tab', { name: 'Activity' }).click()
  const bought = modal.getByTestId('activity').getByRole('listitem').filter({ hasText: 'Bought' })
  await expect(bought).toHaveCount(1)
  await expect(bought).toContainText('ETH')
})

test('a card that asks for 3-D Secure completes once the visitor authenticates', async ({
  page: tab,
  modal,
  account,
}) => {
  await modal.getByTestId('onramp-amount').fill('50')
  const before = await clients.a.getBalance({ address: account })
  const popup = await openCheckout(tab, modal)
  await payWithCard(popup, cards.authenticates)
  await expect(popup.getByRole('heading', { name: 'Confirm this payment with your bank' })).toBeVisible()
  await stage(modal, 'paying')
  await popup.getByRole('button', { name: 'Complete authentication' }).click()
  await stage(modal, 'arrived')
  expect(await clients.a.getBalance({ address: account })).toBeGreaterThan(before)
})

test('a declined card fails the order with the reason, and Try again starts over; nothing arrives', async ({
  page: tab,
  modal,
  account,
}) => {
  await modal.getByTestId('onramp-amount').fill('50')
  const before = await clients.a.getBalance({ address: account })
  const popup = await openCheckout(tab, modal)
  await payWithCard(popup, cards.declined)
  await stage(modal, 'failed')
  await expect(modal.getByTestId('onramp-failed')).toContainText('Your card was declined.')
  expect(await axeViolations(tab)).toEqual([])
  expect(await clients.a.getBalance({ address: account })).toBe(before)
  await modal.getByRole('button', { name: 'Try again' }).click()
  await expect(modal.getByTestId('onramp-amount')).toBeVisible()
})

test('a provider that is down: the fallback options, an estimate said as such, and no checkout', async ({
  page: tab,
  modal,
}) => {
  await sandboxDown(true)
  try {
    // Opened again, so the options are asked for while the provider is down.
    await modal.getByRole('button', { name: 'Back' }).click()
    await modal.getByRole('button', { name: 'Buy', exact: true }).click()
    await expect(modal.getByTestId('onramp-fallback')).toBeVisible()
    // docs/behaviour.md §8's list: ETH and USDC on Ethereum and Polygon, USD and EUR.
    await modal.getByTestId('onramp-asset').click()
    await expect(modal.getByRole('option')).toHaveText([/USDC USD Coin$/, /ETH Ethereum$/])
    await tab.keyboard.press('Escape')
    await modal.getByTestId('onramp-currency').click()
    await expect(modal.getByRole('option')).toHaveText(['USD', 'EUR'])
    await tab.keyboard.press('Escape')
    await expect(modal.getByRole('listbox')).toHaveCount(0)
    await modal.getByTestId('onramp-amount').fill('100')
    await expect(modal.getByTestId('onramp-estimate')).toBeVisible()
    await expect(modal.getByTestId('onramp-receive')).toHaveText('≈ 100 USD')
    await expect(modal.getByTestId('onramp-continue')).toBeDisabled()
    expect(await axeViolations(tab)).toEqual([])
  } finally {
    await sandboxDown(false)
  }
})

test('the checkout window closed mid-payment: the order stays open, survives a reload, and resumes', async ({
  page: tab,
  modal,
  account,
}) => {
  await modal.getByTestId('onramp-amount').fill('60')
  const first = await openCheckout(tab, modal)
  await first.close()
  await expect(modal.getByTestId('onramp-stage')).toHaveText(
    'The checkout window was closed before the payment ended. Your order is still open.',
  )
  await expect(modal.getByTestId('onramp-resume')).toHaveText('Resume checkout')

  // A reload: the modal remembers the open order and offers it on Buy.
  await tab.reload()
  await tab.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(modal.getByTestId('onramp-pending')).toBeVisible()
  await modal.getByRole('button', { name: 'View purchase' }).click()
  const before = await clients.a.getBalance({ address: account })
  const [popup] = await Promise.all([tab.waitForEvent('popup'), modal.getByTestId('onramp-resume').click()])
  await payWithCard(popup, cards.succeeds)
  await stage(modal, 'arrived')
  expect(await clients.a.getBalance({ address: account })).toBeGreaterThan(before)
})

test("amounts outside the card limits are refused in the API's exact words", async ({ modal }) => {
  const amount = modal.getByTestId('onramp-amount')
  await amount.fill('5')
  await expect(modal.getByTestId('onramp-error')).toHaveText('The minimum purchase is 10.00 USD')
  await expect(modal.getByTestId('onramp-continue')).toBeDisabled()
  await amount.fill('7500.01')
  await expect(modal.getByTestId('onramp-error')).toHaveText('The maximum purchase is 7500.00 USD')
  await amount.fill('7500')
  await expect(modal.getByTestId('onramp-error')).toHaveText('')
})

test('a blocked checkout window says how to allow it, and Try again opens it', async ({
  page: tab,
  modal,
}) => {
  await modal.getByTestId('onramp-amount').fill('50')
  await expect(modal.getByTestId('onramp-continue')).toBeEnabled()
  // A pop-up blocker, as the browser's own answers: window.open gives nothing.
  const frame =
    tab.frames().find((f) => f.url().startsWith('http://airlock.localhost:5174')) ?? tab.mainFrame()
  await frame.evaluate(() => {
    const open = window.open
    window.open = () => {
      window.open = open
      return null
    }
  })
  await modal.getByTestId('onramp-continue').click()
  await expect(modal.getByTestId('onramp-blocked')).toHaveText(
    'Your browser blocked the checkout window. Allow pop-ups for this site in the address bar, then press Try again.',
  )
  const popup = await openCheckout(tab, modal)
  await expect(popup.getByRole('heading', { name: 'Buy crypto' })).toBeVisible()
  await popup.close()
})
