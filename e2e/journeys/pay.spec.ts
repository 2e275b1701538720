/**
 * Pay, end to end: a dApp's `airlock.pay` shows the payment in the modal, the page's wallet sends it, and
 * the dApp's promise resolves with the hash only once it is confirmed on chain (the recipient's balance
 * asserted on anvil), in ETH or in an ERC-20 token. An account too poor to pay buys the shortfall through the
 * sandbox provider first. Pay switched off, bad input and a closed modal each reject with their code.
 */
import { testTokenAddress } from '@airlock/devnet/chains'
import { type Address, erc20Abi, type Hash, parseEther } from 'viem'
import { axeViolations, clients, expect } from './fixtures.ts'
import {
  cards,
  connectFunded,
  fundAlt,
  type Outcome,
  openCheckout,
  outcome,
  pay,
  payPage,
  payWithCard,
  recipient,
  reviewing,
  stage,
  test,
} from './onrampFixtures.ts'

test("a dApp's payment resolves with a hash the chain confirmed, after the recipient has the ETH", async ({
  page: tab,
  modal,
  account,
}) => {
  const to = await reviewing(tab, modal, account, '0.05')
  await expect(modal.getByTestId('pay-to')).toHaveText(to)
  await expect(modal.getByTestId('pay-amount')).toContainText('0.05 ETH')
  await expect(modal.getByTestId('pay-funding')).toHaveText('Enough to pay')
  expect(await axeViolations(tab)).toEqual([])
  // Nothing settles before the visitor confirms.
  expect(await tab.evaluate(() => (window as { paid?: unknown }).paid)).toBeUndefined()
  await modal.getByTestId('pay-confirm').click()
  const { hash } = await outcome(tab)
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect((await clients.a.getTransactionReceipt({ hash: hash as Hash })).status).toBe('success')
  expect(await clients.a.getBalance({ address: to })).toBe(parseEther('0.05'))
  await expect(modal.getByTestId('pay-status')).toHaveAttribute('data-status', 'confirmed')
})

const altOf = (address: Address) =>
  clients.a.readContract({
    address: testTokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })

test("an ERC-20 payment: the recipient's token balance grows by the amount on chain, the payer's falls by it", async ({
  page: tab,
  modal,
  account,
}) => {
  await fundAlt(account, parseEther('10'))
  await connectFunded(tab, modal, account, { path: payPage })
  const to = recipient()
  await pay(tab, { to, amount: '2.5', asset: testTokenAddress, chain: 'eip155:31337' })
  await expect(modal.getByTestId('pay')).toHaveAttribute('data-step', 'review')
  await expect(modal.getByTestId('pay-amount')).toContainText('2.5 ALT')
  await expect(modal.getByTestId('pay-funding')).toHaveText('Enough to pay')
  await modal.getByTestId('pay-confirm').click()
  const { hash } = await outcome(tab)
  const receipt = await clients.a.getTransactionReceipt({ hash: hash as Hash })
  expect(receipt.status).toBe('success')
  expect(receipt.to?.toLowerCase()).toBe(testTokenAddress.toLowerCase())
  expect(await altOf(to)).toBe(parseEther('2.5'))
  expect(await altOf(account)).toBe(parseEther('7.5'))
  await expect(modal.getByTestId('pay-status')).toHaveAttribute('data-status', 'confirmed')
})

test("the demo dApp's Pay button: account #1 gets 0.01 ETH and the page shows the confirmed hash", async ({
  page: tab,
  modal,
  account,
}) => {
  await connectFunded(tab, modal, account, { path: payPage })
  const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const before = await clients.a.getBalance({ address: to })
  // The page's own button, under the modal until it closes.
  await tab.evaluate(() => window.airlock?.close())
  await expect.poll(() => tab.evaluate(() => window.airlock?.getState().open)).toBe(false)
  await tab.getByRole('button', { name: 'Pay 0.01 ETH to account #1' }).click()
  await modal.getByTestId('pay-confirm').click()
  await expect(tab.locator('#paid')).toHaveText(/^paid 0x[0-9a-f]{64}$/, { timeout: 60_000 })
  expect((await clients.a.getBalance({ address: to })) - before).toBe(parseEther('0.01'))
})

test('an account short of the amount buys the shortfall with the sandbox, then pays', async ({
  page: tab,
  modal,
  account,
}) => {
  await connectFunded(tab, modal, account, { path: payPage, balance: parseEther('0.002') })
  const to = recipient()
  await pay(tab, { to, amount: '0.02', chain: 'eip155:31337' })
  await expect(modal.getByTestId('pay-funding')).toHaveText('You need 0.018 ETH more')
  await expect(modal.getByTestId('pay-confirm')).toHaveCount(0)
  await modal.getByTestId('pay-buy').click()
  // Buy starts on the shortfall: ETH on this chain, an amount in dollars that buys at least that much.
  await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'ETH')
  await expect(modal.getByTestId('onramp-amount')).toHaveValue(/^\d+\.\d\d$/)
  const popup = await openCheckout(tab, modal)
  await payWithCard(popup, cards.succeeds)
  await stage(modal, 'arrived')
  await modal.getByRole('button', { name: 'Back to the payment' }).click()
  await expect(modal.getByTestId('pay-funding')).toHaveText('Enough to pay')
  await modal.getByTestId('pay-confirm').click()
  const { hash } = await outcome(tab)
  expect((await clients.a.getTransactionReceipt({ hash: hash as Hash })).status).toBe('success')
  expect(await clients.a.getBalance({ address: to })).toBe(parseEther('0.02'))
})

test('Pay is off unless the host switches it on: a clear 4200', async ({ page: tab }) => {
  await tab.goto('/module.html?networks=eip155:31337')
  await pay(tab, { to: recipient(), amount: '0.01', chain: 'eip155:31337' })
  expect(await outcome(tab)).toEqual({
    error: { code: 4200, message: 'Pay is not enabled: create Airlock with `features: { pay: true }`.' },
  })
})

test('bad input is refused with -32602 naming the field, an unconfigured network with 4902', async ({
  page: tab,
}) => {
  await tab.goto(payPage)
  const cases: [Record<string, unknown>, Outcome['error']][] = [
    [
      { to: '0x1234', amount: '1', chain: 'eip155:31337' },
      { code: -32602, message: 'Invalid parameters: `to` must be an EVM address: 0x and 40 hex digits.' },
    ],
    [
      { to: recipient(), amount: '-1', chain: 'eip155:31337' },
      {
        code: -32602,
        message:
          'Invalid parameters: `amount` must be a positive decimal number in the asset\'s units, such as "0.05".',
      },
    ],
    [
      { to: recipient(), amount: '1', chain: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
      {
        code: -32602,
        message: 'Invalid parameters: `chain` must be an EVM network id (CAIP-2), such as "eip155:1".',
      },
    ],
    [
      { to: recipient(), amount: '1', chain: 'eip155:999' },
      { code: 4902, message: 'The network eip155:999 is not one this dApp configured.' },
    ],
  ]
  for (const [payment, error] of cases) {
    await pay(tab, payment)
    expect(await outcome(tab), JSON.stringify(payment)).toEqual({ error })
  }
})

test('closing the modal before paying rejects with 4001, and nothing is sent', async ({
  page: tab,
  modal,
  account,
}) => {
  const to = await reviewing(tab, modal, account, '0.01')
  await modal.getByRole('button', { name: 'Close' }).click()
  const { error } = await outcome(tab)
  expect(error?.code).toBe(4001)
  expect(await clients.a.getBalance({ address: to })).toBe(0n)
})
