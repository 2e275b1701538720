/**
 * Names on the devnet's ENS, by keyboard: Send to `alice.eth` lands at her address on chain; a name
 * registered through the modal (RegisterAccountName, signed by the page's wallet) is the account's in the
 * Account view, and a plain viem client resolves it through the universal resolver and the API's CCIP-read
 * gateway (EIP-3668) — nothing of Airlock's in between.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA } from '@airlock/devnet/chains'
import type { Address } from 'viem'
import { createPublicClient, http, parseEther } from 'viem'
import { setWalletMode, type WalletOptions } from '../wallets/index.ts'
import { addressesFromOptions } from '../wallets/verify.ts'
import {
  axeViolations,
  clients,
  connectWallet,
  expect,
  tabTo,
  walletOptions,
  withWallets,
} from './fixtures.ts'

// Anvil's account 5, which the swap journey uses too (each reads only its own changes).
const holder = Accounts.all()[5]
const alice = Accounts.all()[1]?.address as Address
if (!holder) throw new Error('anvil has no account 5')
const options: WalletOptions = {
  ...walletOptions,
  ...(walletOptions.evm && { evm: { ...walletOptions.evm, privateKey: holder.privateKey as `0x${string}` } }),
}
const from = addressesFromOptions(options).evm?.address as Address
const test = withWallets(options)

test('Send to alice.eth lands at her address; newcomer.airlock.id, registered in the modal, resolves in plain viem', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?networks=eip155:31337')
  await connectWallet(page, modal, 'Airlock Test Wallet', from)

  // A name as receiver: resolved before the review, which shows both.
  const before = await clients.a.getBalance({ address: alice })
  await tabTo(page, modal.getByRole('button', { name: 'Send', exact: true }))
  await page.keyboard.press('Enter')
  await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
  await tabTo(page, modal.getByLabel('Amount'))
  await page.keyboard.type('0.5')
  await tabTo(page, modal.getByLabel('Receiver'))
  await page.keyboard.type('nobody-here.eth')
  await page.keyboard.press('Enter')
  await expect(modal.locator('form.send-form [role="alert"]')).toHaveText(
    'nobody-here.eth does not resolve to an address',
  )
  await modal.getByLabel('Receiver').fill('alice.eth')
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('send-summary')).toContainText('alice.eth', { timeout: 15_000 })
  await expect(modal.getByTestId('send-preview-to').locator(`[title="${alice}"]`)).toBeVisible()
  const send = modal.getByRole('button', { name: 'Send', exact: true })
  await tabTo(page, send)
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('send-status')).toHaveAttribute('data-status', 'confirmed', {
    timeout: 60_000,
  })
  expect(await clients.a.getBalance({ address: alice })).toBe(before + parseEther('0.5'))
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')

  // A name of the project's own: free while typing, signed by the wallet, then the account's.
  await tabTo(page, modal.getByRole('button', { name: 'Choose a name for this account' }))
  await page.keyboard.press('Enter')
  const input = modal.getByTestId('name-input')
  await tabTo(page, input)
  await page.keyboard.type('new')
  await expect(modal.getByRole('button', { name: 'Register' })).toBeDisabled()
  await page.keyboard.type('comer')
  await expect(modal.getByTestId('name-status')).toHaveText('newcomer.airlock.id is available')
  expect(await axeViolations(page)).toEqual([])
  // A refused signature registers nothing and says SPEC's words.
  await setWalletMode(page, 'reject')
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('name-error')).toContainText('Error registering name newcomer.airlock.id')
  await setWalletMode(page, 'approve')
  const register = modal.getByRole('button', { name: 'Register' })
  await expect(register).toBeEnabled()
  await tabTo(page, register)
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('name-registered')).toHaveText('newcomer.airlock.id is yours')
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  await expect(modal.locator('.account-name')).toHaveText('newcomer.airlock.id', { timeout: 15_000 })

  // ENS clients find it with no Airlock code: the universal resolver and the API's gateway (CCIP-read).
  const ens = createPublicClient({ chain: devnetA, transport: http(devnetA.rpcUrls.default.http[0]) })
  expect(await ens.getEnsAddress({ name: 'newcomer.airlock.id' })).toBe(from)
  expect(await ens.getEnsAddress({ name: 'alice.eth' })).toBe(alice)
  // And the API's reverse route names the address by it.
  const reverse = await fetch(`http://127.0.0.1:8787/v1/profile/reverse/${from}?projectId=demo`)
  expect(((await reverse.json()) as { name: string }[]).map((record) => record.name)).toContain(
    'newcomer.airlock.id',
  )
  // The account has its name: Account no longer offers to choose one.
  await tabTo(page, modal.getByRole('tab', { name: 'Tokens' }))
  await expect(modal.getByRole('button', { name: 'Choose a name for this account' })).toHaveCount(0)
})
