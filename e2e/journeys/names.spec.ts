/**
 * Names on the devnet's ENS, by keyboard: Send to `alice.eth` lands at her address on chain; a name
 * registered through the modal (RegisterAccountName, signed by the page's wallet) and made the address's
 * primary name is the account's in the Account view, and a plain viem client resolves it both ways through
 * the universal resolver and the API's CCIP-read gateway (EIP-3668) — nothing of Airlock's in between. A name
 * someone else takes between the check and the signature is refused with the API's 409 and its words, and a
 * check that cannot reach the API says so and keeps what was typed.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA } from '@airlock/devnet/chains'
import type { Address } from 'viem'
import { createPublicClient, http, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { setWalletMode } from '../wallets/index.ts'
import { axeViolations, clients, connectWallet, expect, tabTo, withAnvilAccount } from './fixtures.ts'

// Anvil's account 5, which the swap journey uses too (each reads only its own changes).
const { evm: from, test } = withAnvilAccount(5)
const alice = Accounts.all()[1]?.address as Address
// Anvil's account 7, which only receives in chains.spec: here it signs and moves nothing.
const visitor = withAnvilAccount(7)
const api = 'http://127.0.0.1:8787'

/** The names of `address` the API's reverse route lists. */
async function namesOf(address: Address): Promise<string[]> {
  const answer = await fetch(`${api}/v1/profile/reverse/${address}?projectId=demo`)
  return ((await answer.json()) as { name: string }[]).map((record) => record.name)
}

visitor.test(
  'a name taken between the check and the signature: the API’s 409 in the view, nothing registered; a check that cannot reach the API says so',
  async ({ page, modal }) => {
    await page.goto('/module.html?networks=eip155:31337')
    await connectWallet(page, modal, 'Airlock Test Wallet', visitor.evm)
    await tabTo(page, modal.getByRole('button', { name: 'Choose a name for this account' }))
    await page.keyboard.press('Enter')
    const input = modal.getByTestId('name-input')
    const register = modal.getByRole('button', { name: 'Register' })

    // The check cannot reach the API: its words, Register stays off, what was typed stays.
    const label = `taken${Date.now().toString(36)}`
    const suggestions = `${api}/v1/profile/suggestions/**`
    await page.route(suggestions, (route) => route.abort('connectionrefused'))
    await tabTo(page, input)
    await page.keyboard.type(label)
    await expect(modal.getByTestId('name-error')).toHaveText('The Airlock API cannot be reached')
    await expect(register).toBeDisabled()
    await expect(input).toHaveValue(label)
    await page.unroute(suggestions)

    // Typed again with the API back: free.
    await page.keyboard.press('Backspace')
    await page.keyboard.type(label.slice(-1))
    const name = `${label}.airlock.id`
    await expect(modal.getByTestId('name-status')).toHaveText(`${name} is available`)
    await expect(modal.getByTestId('name-error')).toHaveText('')

    // Someone else registers it first, signed with their own key, as the modal would send it.
    const rival = privateKeyToAccount(generatePrivateKey())
    const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const taken = await fetch(`${api}/v1/profile/account?projectId=demo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        // ENSIP-11's coin type of chain 31337.
        coin_type: (0x8000_0000 | 31337) >>> 0,
        address: rival.address,
        message,
        signature: await rival.signMessage({ message: { raw: toHex(message) } }),
      }),
    })
    expect(taken.status).toBe(201)

    await expect(register).toBeEnabled()
    await tabTo(page, register)
    await page.keyboard.press('Enter')
    await expect(modal.getByTestId('name-error')).toHaveText(
      `Error registering name ${name}: Name already taken`,
    )
    await expect(input).toHaveValue(label)
    expect(await namesOf(visitor.evm)).toEqual([])
    expect(await namesOf(rival.address)).toEqual([name])
  },
)

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
  await expect(modal.getByTestId('send-summary')).toContainText('alice.eth')
  await expect(modal.getByTestId('send-preview-to').locator(`[title="${alice}"]`)).toBeVisible()
  const send = modal.getByRole('button', { name: 'Send', exact: true })
  await tabTo(page, send)
  await page.keyboard.press('Enter')
  const status = modal.getByTestId('send-status')
  await expect(status).toHaveAttribute('data-status', 'confirmed', { timeout: 60_000 })
  expect(await clients.a.getBalance({ address: alice })).toBe(before + parseEther('0.5'))
  const hash = await status.getAttribute('data-id')
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  // Activity names her too (her primary name, through the identity route).
  await tabTo(page, modal.getByRole('tab', { name: 'Tokens' }))
  await page.keyboard.press('End')
  await expect(modal.locator(`[data-testid="transaction"][data-id="${hash}"]`).first()).toContainText(
    'To alice.eth',
  )
  await page.keyboard.press('Home')

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
  // A refused signature registers nothing and says the product's words (docs/behaviour.md §8).
  await setWalletMode(page, 'reject')
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('name-error')).toContainText('Error registering name newcomer.airlock.id')
  await setWalletMode(page, 'approve')
  const register = modal.getByRole('button', { name: 'Register' })
  await expect(register).toBeEnabled()
  await tabTo(page, register)
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('name-registered')).toHaveText('newcomer.airlock.id is yours')
  expect(await axeViolations(page)).toEqual([])
  // Made the address's primary name on chain (ENS's reverse record), one transaction of the wallet's.
  await tabTo(page, modal.getByRole('button', { name: 'Make it this address’s primary name' }))
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('name-primary')).toHaveText('It is your primary name now', {
    timeout: 30_000,
  })
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  await expect(modal.locator('.account-name')).toHaveText('newcomer.airlock.id')

  // ENS clients find it with no Airlock code: the universal resolver and the API's gateway (CCIP-read).
  const ens = createPublicClient({ chain: devnetA, transport: http(devnetA.rpcUrls.default.http[0]) })
  expect(await ens.getEnsAddress({ name: 'newcomer.airlock.id' })).toBe(from)
  expect(await ens.getEnsAddress({ name: 'alice.eth' })).toBe(alice)
  // Reverse too: the address's primary name, checked forward through the gateway by the universal resolver.
  expect(await ens.getEnsName({ address: from })).toBe('newcomer.airlock.id')
  // And the API's reverse route names the address by it.
  const reverse = await fetch(`http://127.0.0.1:8787/v1/profile/reverse/${from}?projectId=demo`)
  expect(((await reverse.json()) as { name: string }[]).map((record) => record.name)).toContain(
    'newcomer.airlock.id',
  )
  // The account has its name: Account no longer offers to choose one.
  await tabTo(page, modal.getByRole('tab', { name: 'Tokens' }))
  await expect(modal.getByRole('button', { name: 'Choose a name for this account' })).toHaveCount(0)
})
