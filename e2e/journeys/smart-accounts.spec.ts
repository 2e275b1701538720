/**
 * Smart accounts end to end (issue 19): on the wagmi example, an embedded-wallet visitor with zero ETH sends
 * an approve + transfer batch with `useSendCalls`; the modal shows one approval for both calls, the API's
 * paymaster sponsors it, the bundler includes it, `wallet_getCallsStatus` reports success and the effects
 * are on chain, with the AirlockAccount deployed by that first operation. The same visitor then switches
 * to EIP-7702 in the wallet's Settings and repeats from their own address, which the chain shows delegated.
 * A fresh visitor's still undeployed smart account signs a message that verifies (ERC-6492), and signs in
 * with the demo dApp's sign-in: the API verifies the ERC-6492 signature and keeps the session.
 */
import type { FrameLocator, Page } from '@playwright/test'
import { type Address, createWalletClient, erc20Abi, http, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import * as Accounts from '../../devnet/src/Accounts.ts'
import { accountAbstraction, testTokenAddress } from '../../devnet/src/Chains.ts'
import { createWalletByEmail } from './emailFixtures.ts'
import { clients, expect, test } from './fixtures.ts'

const example = 'http://localhost:5175/'
const api = 'http://127.0.0.1:8787'
/** EIP-6492's suffix: the signature of an account not deployed yet, with what would deploy it. */
const erc6492Suffix = '6492'.repeat(16)
const token = { address: testTokenAddress, abi: erc20Abi } as const

/** Connects wagmi's `airlock()` with a new email login, its wallet created; resolves with the address wagmi sees. */
async function emailLogin(page: Page, modal: FrameLocator, email: string): Promise<Address> {
  await page.goto(example)
  await page
    .getByRole('list', { name: 'Wallets' })
    .getByRole('button', { name: 'Airlock', exact: true })
    .click()
  const asked = new Date()
  await createWalletByEmail(modal, email, asked)
  await expect(page.getByTestId('wagmi-status')).toHaveText('connected')
  await expect(page.getByTestId('wagmi-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return (await page.getByTestId('wagmi-address').textContent()) as Address
}

/** Sends `amount` ALT from anvil's account 0 (it holds a million) on chain A. */
async function fund(to: Address, amount: bigint) {
  const first = Accounts.all()[0]
  if (!first) throw new Error('anvil has no account 0')
  const wallet = createWalletClient({
    account: privateKeyToAccount(first.privateKey as `0x${string}`),
    chain: anvil,
    transport: http(clients.a.transport.url),
  })
  const hash = await wallet.writeContract({ ...token, functionName: 'transfer', args: [to, amount] })
  await clients.a.waitForTransactionReceipt({ hash })
}

/** Approve + transfer of `amount` ALT to a fresh address from the example, approved in the modal. */
async function sendBatch(page: Page, modal: FrameLocator, recipient: Address, amount: string) {
  await page.getByLabel('Token').fill(testTokenAddress)
  await page.getByLabel('Recipient').fill(recipient)
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'Approve and transfer' }).click()
  await expect(modal.getByRole('heading', { name: 'Send 2 calls at once' })).toBeVisible()
  await expect(modal.getByText('Call 1', { exact: true })).toBeVisible()
  await expect(modal.getByText('Call 2', { exact: true })).toBeVisible()
  await expect(modal.getByText('Paid by the app')).toBeVisible()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByTestId('calls-status')).toHaveText('success', { timeout: 30_000 })
  await expect(page.getByTestId('calls-atomic')).toHaveText('true')
}

test('a zero-ETH embedded user sends a sponsored atomic batch with useSendCalls, then upgrades to 7702 and repeats', async ({
  page,
  modal,
}) => {
  test.setTimeout(180_000)
  const smart = await emailLogin(page, modal, `smart-${Date.now()}@example.test`)
  expect(await clients.a.getCode({ address: smart })).toBeUndefined()
  expect(await clients.a.getBalance({ address: smart })).toBe(0n)
  await fund(smart, parseUnits('10', 18))

  const first = privateKeyToAccount(generatePrivateKey()).address
  await sendBatch(page, modal, first, '4')
  const allowance = await clients.a.readContract({
    ...token,
    functionName: 'allowance',
    args: [smart, first],
  })
  expect(allowance).toBe(parseUnits('4', 18))
  expect(await clients.a.readContract({ ...token, functionName: 'balanceOf', args: [first] })).toBe(
    parseUnits('4', 18),
  )
  expect(await clients.a.readContract({ ...token, functionName: 'balanceOf', args: [smart] })).toBe(
    parseUnits('6', 18),
  )
  // Deployed by its first operation, and still no ETH: the paymaster paid.
  expect(await clients.a.getCode({ address: smart })).toMatch(/^0x[0-9a-f]{10,}/)
  expect(await clients.a.getBalance({ address: smart })).toBe(0n)

  // EIP-7702 from the wallet's Settings: the address becomes the key's own.
  await page
    .getByRole('region', { name: 'Airlock' })
    .getByRole('button', { name: new RegExp(`, account ${smart}$`) })
    .click()
  await modal.getByRole('button', { name: /^Airlock wallet:/ }).click()
  await modal.getByRole('radio', { name: 'Smart account at your own address (EIP-7702)' }).check()
  await expect(page.getByTestId('wagmi-address')).not.toHaveText(smart)
  const eoa = (await page.getByTestId('wagmi-address').textContent()) as Address
  expect(await clients.a.getCode({ address: eoa })).toBeUndefined()
  await page.keyboard.press('Escape')
  await fund(eoa, parseUnits('3', 18))
  const second = privateKeyToAccount(generatePrivateKey()).address
  await sendBatch(page, modal, second, '2')
  expect(await clients.a.getCode({ address: eoa })).toBe(
    `0xef0100${accountAbstraction.account7702.slice(2).toLowerCase()}`,
  )
  expect(await clients.a.readContract({ ...token, functionName: 'balanceOf', args: [second] })).toBe(
    parseUnits('2', 18),
  )
  expect(await clients.a.readContract({ ...token, functionName: 'allowance', args: [eoa, second] })).toBe(
    parseUnits('2', 18),
  )
  expect(await clients.a.getBalance({ address: eoa })).toBe(0n)
})

test('a fresh user’s undeployed smart account signs a message that verifies (ERC-6492)', async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  const smart = await emailLogin(page, modal, `sign-${Date.now()}@example.test`)
  await page.getByRole('button', { name: 'Sign message' }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]+$/)
  const signature = (await page.getByTestId('signature').textContent()) as `0x${string}`
  expect(await clients.a.getCode({ address: smart })).toBeUndefined()
  expect(await clients.a.verifyMessage({ address: smart, message: 'Hello from wagmi', signature })).toBe(true)
})

test('a fresh user’s undeployed smart account signs in with the dApp’s sign-in: the API verifies it (ERC-6492) and keeps the session', async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  await page.goto('/module.html?siwx=optional&networks=eip155:31337')
  const email = `siwe-${Date.now()}@example.test`
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, email, asked)
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  const state = await page.evaluate(() => window.airlock?.getState())
  expect(state?.user?.preferredAccountType).toBe('smartAccount')
  const smart = state?.address as Address
  expect(await clients.a.getCode({ address: smart })).toBeUndefined()

  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  const session = await page.evaluate(() => window.airlock?.getSession())
  expect(session?.address).toBe(`eip155:31337:${smart.toLowerCase()}`)
  // The smart account's signature, wrapped as one of an account not on chain yet; and it still is not.
  expect(session?.signature.endsWith(erc6492Suffix)).toBe(true)
  expect(await clients.a.getCode({ address: smart })).toBeUndefined()
  const listed = await fetch(
    `${api}/v1/sessions/${encodeURIComponent(session?.address ?? '')}?projectId=demo`,
  )
  expect(((await listed.json()) as { sessions: { id: string }[] }).sessions.map(({ id }) => id)).toContain(
    session?.id,
  )
  const verified = await fetch(`${api}/v1/sessions/verify?projectId=demo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: session?.token }),
  })
  expect(verified.status).toBe(200)
  expect(((await verified.json()) as { id: string }).id).toBe(session?.id)
})
