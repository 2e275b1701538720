/**
 * The wagmi example (examples/react-wagmi on http://localhost:5175): wagmi's connector list has Airlock
 * once and the page's own wallet once; connecting through `airlock()` opens the modal; a signature made
 * through it verifies; the chain switches; a reload reconnects wagmi to Airlock, not to the page wallet
 * the modal connected underneath.
 */
import { verifyMessage } from 'viem'
import { addresses, expect, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`
const example = 'http://localhost:5175/'

test('wagmi lists Airlock and the page wallet once each, connects through airlock(), signs and switches chain', async ({
  page,
  modal,
}) => {
  await page.goto(example)
  const wallets = page.getByRole('list', { name: 'Wallets' }).getByRole('button')
  await expect(wallets.filter({ hasText: /^Airlock Test Wallet$/ })).toHaveCount(1)
  await expect(wallets.filter({ hasText: /^Airlock$/ })).toHaveCount(1)
  expect(await wallets.allTextContents()).toEqual(['Airlock', 'Airlock Test Wallet'])

  await wallets.filter({ hasText: /^Airlock$/ }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(page.getByTestId('wagmi-status')).toHaveText('connected')
  await expect(page.getByTestId('wagmi-connector')).toHaveText('Airlock')
  await expect(page.getByTestId('wagmi-address')).toHaveText(evm)
  await expect(page.getByTestId('wagmi-chain')).toHaveText('31337')
  await expect(modal.getByRole('dialog')).toBeHidden()

  await page.getByRole('button', { name: 'Sign message' }).click()
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)
  const signature = (await page.getByTestId('signature').textContent()) as `0x${string}`
  expect(await verifyMessage({ address: evm, message: 'Hello from wagmi', signature })).toBe(true)

  await page.getByRole('button', { name: 'Switch to Airlock Devnet B' }).click()
  await expect(page.getByTestId('wagmi-chain')).toHaveText('31338')
  await expect(page.getByRole('button', { name: 'Network: Airlock Devnet B' })).toBeVisible()
})

test('after a reload wagmi reconnects to Airlock, not to the page wallet underneath', async ({
  page,
  modal,
}) => {
  await page.goto(example)
  await page
    .getByRole('list', { name: 'Wallets' })
    .getByRole('button', { name: 'Airlock', exact: true })
    .click()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(page.getByTestId('wagmi-connector')).toHaveText('Airlock')

  await page.reload()
  await expect(page.getByTestId('wagmi-status')).toHaveText('connected')
  await expect(page.getByTestId('wagmi-connector')).toHaveText('Airlock')
  await expect(page.getByTestId('wagmi-address')).toHaveText(evm)
  // Still Airlock's provider: a signature goes through the modal and verifies.
  await page.getByRole('button', { name: 'Sign message' }).click()
  const signature = page.getByTestId('signature')
  await expect(signature).toHaveText(/^0x[0-9a-f]{130}$/)
  expect(
    await verifyMessage({
      address: evm,
      message: 'Hello from wagmi',
      signature: (await signature.textContent()) as `0x${string}`,
    }),
  ).toBe(true)

  await page.getByRole('button', { name: 'Disconnect' }).click()
  await expect(page.getByTestId('wagmi-status')).toHaveText('disconnected')
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
})
