/**
 * Send, end to end on the devnet's real chains, with the keyboard alone: ETH and the ALT token on anvil, SOL
 * and the USDC-like SPL token on the Solana chain, rLTC on Litecoin regtest. Each send shows its simulated
 * balance changes before the wallet signs, lands on chain (asserted there, not only on screen) and appears in
 * the Activity tab. A refused signature keeps the preview, and sending after it sends once.
 */
import * as Regtest from '@airlock/devnet/bitcoin-regtest'
import { solanaDevnetId } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import { Keypair } from '@solana/web3.js'
import { payments } from 'bitcoinjs-lib'
import { type Address, erc20Abi, parseEther, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { setWalletMode } from '../wallets/index.ts'
import {
  axeViolations,
  clients,
  connectWallet,
  displayBalance,
  expect,
  rpc,
  snackLog,
  tabTo,
  withAnvilAccount,
} from './fixtures.ts'

const apiUrl = 'http://127.0.0.1:8787'
const solanaRpc = 'http://127.0.0.1:8899'
const esplora = `${apiUrl}/v1/bip122/${Regtest.caipNetworkId.slice('bip122:'.length)}/esplora`
const altToken: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const usdcMint = '3BstcRQ9cc9NBFaKRoDDsRhaFX5ow4FQdm6HU6fC6t4B'
const networks = ['eip155:31337', solanaDevnetId, Regtest.caipNetworkId].join(',')

// The EVM sender is anvil's account 9, which no other journey reads: the API caches balances for 30 s.
const { addresses, test } = withAnvilAccount(9)

/**
 * Fills the Send form with the keyboard alone (the token found by typing in its picker), then opens the
 * preview with Enter; resolves once the preview shows.
 */
async function fillSend(
  page: Page,
  modal: FrameLocator,
  fill: { token?: string; amount: string; to: string },
) {
  await tabTo(page, modal.getByRole('button', { name: 'Send', exact: true }))
  await page.keyboard.press('Enter')
  const token = modal.getByLabel('Token')
  await expect(token).toBeVisible()
  await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
  if (fill.token) {
    // The token picker: the arrow opens it, typing finds the token, Enter takes it.
    await tabTo(page, token)
    await page.keyboard.press('ArrowDown')
    await expect(modal.getByRole('listbox', { name: 'Token' })).toBeVisible()
    await page.keyboard.type(fill.token)
    await expect(modal.getByRole('option').first()).toContainText(fill.token)
    await page.keyboard.press('Enter')
    await expect(modal.getByRole('listbox')).toHaveCount(0)
    await expect(token.locator('.picker-value')).toHaveText(fill.token)
  }
  await tabTo(page, modal.getByLabel('Amount'))
  await page.keyboard.type(fill.amount)
  await tabTo(page, modal.getByLabel('Receiver'))
  await page.keyboard.type(fill.to)
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('send-summary')).toBeVisible()
}

/** Sends the previewed transaction with the keyboard and waits until the chain confirms it; its id. */
async function confirm(page: Page, modal: FrameLocator): Promise<string> {
  const send = modal.getByRole('button', { name: 'Send', exact: true })
  await expect(send).toBeEnabled()
  await tabTo(page, send)
  await page.keyboard.press('Enter')
  const status = modal.getByTestId('send-status')
  await expect(status).toHaveAttribute('data-status', 'confirmed', { timeout: 60_000 })
  return (await status.getAttribute('data-id')) as string
}

/** The simulated change shown for an address, as text. */
const change = (modal: FrameLocator, address: string, symbol: string) =>
  modal
    .getByTestId('send-changes')
    .getByRole('listitem')
    .filter({ has: modal.locator(`[title="${address}"]`), hasText: ` ${symbol}` })

/** Back to Account with Done and on to the Activity tab, by keyboard; the row of the transaction there. */
async function activityRow(page: Page, modal: FrameLocator, id: string) {
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  await tabTo(page, modal.getByRole('tab', { name: 'Tokens' }))
  await page.keyboard.press('End')
  await expect(modal.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true')
  return modal.locator(`[data-testid="transaction"][data-id="${id}"]`).first()
}

/** The transaction is in Activity; then Tokens again, for the next send in this page. */
async function inActivity(page: Page, modal: FrameLocator, id: string) {
  await expect(await activityRow(page, modal, id)).toBeVisible()
  await page.keyboard.press('Home')
}

test('ETH and the ALT token: the form checks its input, the preview simulates, the wallet signs, anvil has it', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.evm?.address as Address
  await connectWallet(page, modal, 'Airlock Test Wallet', from)
  const to = privateKeyToAccount(`0x${'ab'.repeat(31)}01`).address

  // Bad input: the product's text (docs/behaviour.md §8) when something is missing, then each field's own.
  await tabTo(page, modal.getByRole('button', { name: 'Send', exact: true }))
  await page.keyboard.press('Enter')
  await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
  await tabTo(page, modal.getByRole('button', { name: 'Review' }))
  await page.keyboard.press('Enter')
  const alert = modal.locator('form.send-form [role="alert"]')
  await expect(alert).toHaveText('An amount and receiver address are required')
  for (const [amount, receiver, text] of [
    ['1e3', to, 'Enter an amount as digits, like 1.5'],
    ['-1', to, 'Enter an amount as digits, like 1.5'],
    ['0.0000000000000000001', to, 'ETH has at most 18 decimals'],
    ['1', '0x1234', 'This is not an address on Airlock Devnet A'],
    ['1', from.toLowerCase(), 'This is your own address'],
    ['100000', to, 'Insufficient funds for this amount and the network fee'],
  ] as const) {
    await modal.getByLabel('Amount').fill(amount)
    await modal.getByLabel('Receiver').fill(receiver)
    await modal.getByLabel('Receiver').press('Enter')
    await expect(alert).toHaveText(text)
  }
  expect(await axeViolations(page)).toEqual([])
  await page.keyboard.press('Escape')
  await page.evaluate(() => window.airlock?.open())

  // ETH.
  const before = await clients.a.getBalance({ address: to })
  await fillSend(page, modal, { amount: '1.25', to })
  await expect(change(modal, to, 'ETH')).toContainText('+1.25 ETH')
  await expect(change(modal, from, 'ETH')).toContainText('−1.25')
  expect(await axeViolations(page)).toEqual([])
  const hash = await confirm(page, modal)
  expect(await clients.a.getBalance({ address: to })).toBe(before + parseEther('1.25'))
  const receipt = await clients.a.getTransactionReceipt({ hash: hash as `0x${string}` })
  expect(receipt.from.toLowerCase()).toBe(from.toLowerCase())
  await inActivity(page, modal, hash)
  // Sent from here and settled: its row says so, whether it is still the modal's own or already the API's.
  await page.keyboard.press('End')
  await expect(modal.locator(`[data-id="${hash}"]`).first()).toHaveAttribute('data-status', 'confirmed')
  await page.keyboard.press('Home')
  // The Account view read the balance again once the chain confirmed it.
  await expect(modal.getByTestId('account-balance')).toHaveText(
    displayBalance(await clients.a.getBalance({ address: from })),
  )

  // The ALT token.
  const altBefore = await clients.a.readContract({
    address: altToken,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [to],
  })
  await fillSend(page, modal, { token: 'ALT', amount: '42.5', to })
  await expect(change(modal, to, 'ALT')).toContainText('+42.5 ALT')
  await expect(change(modal, from, 'ALT')).toContainText('−42.5 ALT')
  const altHash = await confirm(page, modal)
  const altAfter = await clients.a.readContract({
    address: altToken,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [to],
  })
  expect(altAfter - altBefore).toBe(parseUnits('42.5', 18))
  await inActivity(page, modal, altHash)
})

test('a refused signature keeps the preview with the product’s text (docs/behaviour.md §8); sending again sends once', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.evm?.address as Address
  await connectWallet(page, modal, 'Airlock Test Wallet', from)
  const to = privateKeyToAccount(`0x${'cd'.repeat(31)}02`).address
  const nonce = await clients.a.getTransactionCount({ address: from })
  await fillSend(page, modal, { amount: '0.5', to })
  await setWalletMode(page, 'reject')
  const snacks = await snackLog(page)
  await modal.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(modal.locator('.send-preview [role="alert"]')).toHaveText('Signature declined')
  // Its progress closes with it.
  await expect(modal.getByTestId('snackbar')).toHaveText('')
  await expect(modal.getByTestId('send-summary')).toBeVisible()
  expect(await clients.a.getTransactionCount({ address: from })).toBe(nonce)
  await setWalletMode(page, 'approve')
  await confirm(page, modal)
  expect(await clients.a.getBalance({ address: to })).toBe(parseEther('0.5'))
  expect(await clients.a.getTransactionCount({ address: from })).toBe(nonce + 1)
  // Said once (docs/behaviour.md): beside Send, never in the snackbar as well, then or since.
  expect((await snacks.shown()).filter((said) => said.startsWith('error'))).toEqual([])
})

test('SOL and the USDC token on the Solana chain: simulated, signed by the wallet, on chain', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.solana?.address as string
  await connectWallet(page, modal, 'Airlock Test Solana', from)
  const to = Keypair.generate().publicKey.toBase58()

  await fillSend(page, modal, { amount: '0.75', to })
  await expect(change(modal, to, 'SOL')).toContainText('+0.75 SOL')
  expect(await axeViolations(page)).toEqual([])
  const signature = await confirm(page, modal)
  const balance = await rpc<{ value: number }>(solanaRpc, 'getBalance', [to, { commitment: 'confirmed' }])
  expect(balance.value).toBe(750_000_000)
  await inActivity(page, modal, signature)

  await fillSend(page, modal, { token: 'USDC', amount: '12.5', to })
  await expect(change(modal, to, 'USDC')).toContainText('+12.5 USDC')
  const usdcSignature = await confirm(page, modal)
  const accounts = await rpc<{
    value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[]
  }>(solanaRpc, 'getTokenAccountsByOwner', [
    to,
    { mint: usdcMint },
    { encoding: 'jsonParsed', commitment: 'confirmed' },
  ])
  expect(accounts.value.map((a) => a.account.data.parsed.info.tokenAmount.amount)).toEqual(['12500000'])
  await inActivity(page, modal, usdcSignature)
})

test('rLTC on Litecoin regtest: the PSBT previewed and signed by the wallet; Activity shows it pending until the node mines it', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.bitcoin?.address as string
  await connectWallet(page, modal, 'Airlock Test Bitcoin', from)
  const to = payments.p2wpkh({ hash: crypto.getRandomValues(new Uint8Array(20)), network: Regtest.network })
    .address as string
  await fillSend(page, modal, { amount: '0.3', to })
  await expect(change(modal, to, 'rLTC')).toContainText('+0.3 rLTC')
  expect(await axeViolations(page)).toEqual([])

  // Sent right after a block: litecoind mines the next one 5 s later, so the transaction stays pending a
  // while, and the API's index (mined transactions only) cannot list it yet: the pending row is the modal's.
  const height = async () => Number(await (await fetch(`${esplora}/blocks/tip/height`)).text())
  const tip = await height()
  await expect.poll(height, { intervals: [100] }).toBeGreaterThan(tip)
  await tabTo(page, modal.getByRole('button', { name: 'Send', exact: true }))
  await page.keyboard.press('Enter')
  const status = modal.getByTestId('send-status')
  await expect(status).toHaveAttribute('data-status', 'pending')
  const txid = (await status.getAttribute('data-id')) as string
  const row = await activityRow(page, modal, txid)
  await expect(row).toHaveAttribute('data-status', 'pending')
  await expect(row).toContainText('-0.300 rLTC')
  await expect(row).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 })
  expect(await axeViolations(page)).toEqual([])
  const utxos = (await (await fetch(`${esplora}/address/${to}/utxo`)).json()) as {
    txid: string
    value: number
    status: { confirmed: boolean }
  }[]
  expect(utxos).toEqual([
    expect.objectContaining({
      txid,
      value: 30_000_000,
      status: expect.objectContaining({ confirmed: true }),
    }),
  ])
})
