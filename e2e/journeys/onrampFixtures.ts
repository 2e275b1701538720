/**
 * What the Buy and Pay journeys share: a fresh EVM key per test (funded with `anvil_setBalance`, so no
 * other journey's account moves under them) and a fresh Solana key (holding nothing) connected on the demo
 * dApp, a dApp's payment asked for, the sandbox provider's checkout filled in as a visitor does, the order as
 * the API has it, and the sandbox's loopback switch that makes it answer 503. Also the devnet's ALT token for
 * such a key.
 */
import { randomBytes } from 'node:crypto'
import { Accounts } from '@airlock/devnet'
import { devnetA, testTokenAddress } from '@airlock/devnet/chains'
import { test as base, type FrameLocator, type Page } from '@playwright/test'
import { Keypair } from '@solana/web3.js'
import { type Address, createWalletClient, erc20Abi, type Hash, type Hex, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { walletInitScript } from '../wallets/index.ts'
import { clients, connectWallet, expect, rpc, walletOptions } from './fixtures.ts'

/** The sandbox provider on the dev stack. */
export const sandboxUrl = 'http://127.0.0.1:8797'
const apiUrl = 'http://127.0.0.1:8787'

/** The sandbox's test cards. */
export const cards = {
  succeeds: '4242 4242 4242 4242',
  authenticates: '4000 0000 0000 3220',
  declined: '4000 0000 0000 0002',
} as const

type Fixtures = {
  /** This test's own EVM key, the test wallet's. */
  key: Hex
  account: Address
  /** This test's own Solana key's seed (hex), the test wallet's, and its address. */
  solanaSeed: string
  solanaAccount: string
  modal: FrameLocator
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  key: async ({}, use) => use(generatePrivateKey()),
  account: async ({ key }, use) => use(privateKeyToAccount(key).address),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  solanaSeed: async ({}, use) => use(randomBytes(32).toString('hex')),
  solanaAccount: async ({ solanaSeed }, use) =>
    use(Keypair.fromSeed(Buffer.from(solanaSeed, 'hex')).publicKey.toBase58()),
  page: async ({ page, key, solanaSeed }, use) => {
    const evm = walletOptions.evm && { ...walletOptions.evm, privateKey: key }
    const solana = { secretKeySeedHex: solanaSeed }
    await page.addInitScript({ content: await walletInitScript({ ...walletOptions, evm, solana }) })
    await use(page)
  },
  modal: async ({ page }, use) => use(page.frameLocator('iframe[title="Airlock"]')),
})

/** Gives `address` exactly `wei` on devnet A. */
async function fund(address: Address, wei: bigint) {
  await rpc(devnetA.rpcUrls.default.http[0] as string, 'anvil_setBalance', [address, `0x${wei.toString(16)}`])
}

/** Gives `account` `amount` ALT from anvil's account 0, which the devnet mints a million to. */
export async function fundAlt(account: Address, amount: bigint) {
  const holder = Accounts.all()[0]
  if (!holder) throw new Error('anvil has no account 0')
  const wallet = createWalletClient({
    account: privateKeyToAccount(holder.privateKey as Hex),
    chain: devnetA,
    transport: http(devnetA.rpcUrls.default.http[0]),
  })
  const hash = await wallet.writeContract({
    address: testTokenAddress,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account, amount],
  })
  await clients.a.waitForTransactionReceipt({ hash })
}

/**
 * This test's account, holding exactly `balance` on devnet A (1 ETH unless said), connected through the
 * modal on the demo dApp's `path`, the modal on Account.
 * @example await connectFunded(page, modal, account, { path: '/module.html?pay=on', balance: parseEther('0.002') })
 */
export async function connectFunded(
  page: Page,
  modal: FrameLocator,
  account: Address,
  { path, balance = parseEther('1') }: { path: string; balance?: bigint },
) {
  await fund(account, balance)
  await page.goto(path)
  await connectWallet(page, modal, 'Airlock Test Wallet', account)
}

/** How a dApp's `airlock.pay` settled: the hash, or the error's code and message. */
export type Outcome = { hash?: string; error?: { code?: number; message?: string } }

/** Asks for a payment from the dApp page; the outcome lands on `window.paid` when it settles. */
export function pay(tab: Page, payment: Record<string, unknown>) {
  return tab.evaluate((payment) => {
    const page = window as unknown as { paid?: Outcome }
    page.paid = undefined
    void window.airlock
      ?.pay(payment as never)
      .then(
        (hash) => ({ hash }),
        (error: { code?: number; message?: string }) => ({
          error: { code: error.code, message: error.message },
        }),
      )
      .then((outcome) => {
        page.paid = outcome
      })
  }, payment)
}

/** Waits for the payment asked with {@link pay} to settle. */
export async function outcome(tab: Page): Promise<Outcome> {
  await expect
    .poll(() => tab.evaluate(() => (window as { paid?: unknown }).paid), { timeout: 60_000 })
    .toBeTruthy()
  return tab.evaluate(() => (window as unknown as { paid: Outcome }).paid)
}

/** The demo dApp with Pay switched on. */
export const payPage = '/module.html?networks=eip155:31337&pay=on'

export const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address

/** This test's account, connected with 1 ETH, asked to pay `amount` ETH to a fresh recipient: Pay on review. */
export async function reviewing(tab: Page, modal: FrameLocator, account: Address, amount: string) {
  await connectFunded(tab, modal, account, { path: payPage })
  const to = recipient()
  await pay(tab, { to, amount, chain: 'eip155:31337' })
  await expect(modal.getByTestId('pay')).toHaveAttribute('data-step', 'review')
  return to
}

/** Pays on the sandbox's checkout page with `card`, as a visitor types it. */
export async function payWithCard(popup: Page, card: string) {
  await expect(popup.getByRole('heading', { name: 'Buy crypto' })).toBeVisible()
  await popup.getByLabel('Card number').fill(card)
  await popup.getByLabel('Expiry (MM/YY)').fill('12/34')
  await popup.getByLabel('CVC').fill('123')
  await popup.getByLabel('Name on card').fill('Ada Lovelace')
  await popup.getByRole('button', { name: /^Pay / }).click()
}

/** Makes the sandbox answer 503 to everything (`down`), or serve again. Loopback only. */
export async function sandboxDown(down: boolean) {
  const response = await fetch(`${sandboxUrl}/__control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ down }),
  })
  expect(response.ok).toBe(true)
}

/** Presses Continue on Buy and answers the checkout window it opens, on the provider's own origin. */
export async function openCheckout(page: Page, modal: FrameLocator): Promise<Page> {
  const continued = modal.getByTestId('onramp-continue')
  await expect(continued).toBeEnabled()
  const [popup] = await Promise.all([page.waitForEvent('popup'), continued.click()])
  await popup.waitForURL((url) => url.origin === sandboxUrl)
  return popup
}

/** The purchase's stage in the status view, once it reaches `stage`. */
export async function stage(modal: FrameLocator, stage: string, timeout = 60_000) {
  await expect(modal.getByTestId('onramp-status')).toHaveAttribute('data-stage', stage, { timeout })
}

/** Chooses the provider Buy goes through, by the name the modal shows. */
export async function chooseProvider(modal: FrameLocator, name: string) {
  const provider = modal.getByTestId('onramp-provider')
  await provider.click()
  await modal.getByRole('option').filter({ hasText: name }).click()
  await expect(modal.getByRole('listbox')).toHaveCount(0)
  await expect(provider.locator('.picker-value')).toHaveText(name)
}

/** The order as the API has it now (the demo project's). */
export async function orderOf(orderId: string): Promise<{ status: string; txHash?: string }> {
  const response = await fetch(`${apiUrl}/v1/onramp/orders/${orderId}?projectId=demo`)
  expect(response.status).toBe(200)
  return (await response.json()) as { status: string; txHash?: string }
}

/** Posts `body` to the API's webhook route of `provider` with `headers`, as a provider (or anyone) can. */
export function postWebhook(provider: string, body: string, headers: Record<string, string>) {
  return fetch(`${apiUrl}/v1/onramp/webhooks/${provider}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
}

/**
 * The chain's word on the purchase the status view names: its delivery is mined on devnet A, to `account`,
 * and `account`'s balance grew by exactly its value since `before`.
 */
export async function deliveredOnA(modal: FrameLocator, account: Address, before: bigint) {
  const hash = (await modal.getByTestId('onramp-status').getAttribute('data-tx')) as Hash
  const delivery = await clients.a.getTransaction({ hash })
  expect(delivery.to?.toLowerCase()).toBe(account.toLowerCase())
  expect((await clients.a.getTransactionReceipt({ hash })).status).toBe('success')
  expect(delivery.value).toBeGreaterThan(0n)
  expect((await clients.a.getBalance({ address: account })) - before).toBe(delivery.value)
  return { hash, value: delivery.value }
}
