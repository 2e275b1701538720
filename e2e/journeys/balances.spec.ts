import { devnetTokens, testTokenAddress } from '@airlock/devnet/chains'
import type { Page } from '@playwright/test'
import { erc20Abi, formatEther, formatUnits } from 'viem'
import { addresses, clients, connectEvm, displayQuantity, expect, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`

test('the Account view shows the ERC-20 balance the API read from anvil, priced', async ({ page, modal }) => {
  await page.goto('/')
  await connectEvm(page, modal)
  const held = await clients.a.readContract({
    address: testTokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [evm],
  })
  expect(held).toBeGreaterThan(0n)
  const usd = await clients.a.readContract({
    address: devnetTokens.tUSD.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [evm],
  })
  const tokens = modal.getByTestId('account-tokens')
  // en-US separators: Playwright's browser runs in that locale.
  const amounts = tokens.getByTestId('token-amount')
  // ALT ($1.25M) above tUSD ($1M): the list is sorted by worth.
  await expect(amounts).toHaveText([
    displayQuantity(formatUnits(held, 18), 'ALT'),
    displayQuantity(formatUnits(usd, 6), 'tUSD'),
  ])
  await expect(amounts.first()).toHaveText(/^\d{1,3}(,\d{3})+\.\d{3} ALT$/)
  // The devnet's price list says ALT is $1.25.
  await expect(tokens).toContainText(
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      Number(formatUnits(held, 18)) * 1.25,
    ),
  )
  await expect(modal.getByRole('region', { name: 'Tokens' })).toBeVisible()

  // The header's total: the ether at $3,000, the ALT at $1.25 and the tUSD at $1, to the cent.
  const ether = await clients.a.getBalance({ address: evm })
  const expected =
    Number(formatEther(ether)) * 3000 + Number(formatUnits(held, 18)) * 1.25 + Number(formatUnits(usd, 6))
  const total = modal.getByTestId('account-total')
  await expect(total).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
  const shown = Number((await total.textContent())?.replace(/[$,]/g, ''))
  expect(Math.abs(shown - expected)).toBeLessThan(0.011)
})

test("a failing balance API shows 'Token Balance Unavailable' and the account still works", async ({
  page,
  modal,
}) => {
  let calls = 0
  await page.route('http://127.0.0.1:8787/v1/account/**', (route) => {
    calls++
    return route.fulfill({ status: 502, json: { message: 'The RPC of eip155:31337 is unavailable' } })
  })
  await page.goto('/')
  await connectEvm(page, modal)
  await expect(modal.getByRole('alert').filter({ hasText: 'Token Balance Unavailable' })).toBeVisible()
  await expect(modal.getByTestId('account-balance')).toHaveText('0.000 ETH')
  await expect(modal.getByTestId('account-tokens')).toHaveCount(0)
  // Within the 30 s retry block, opening again asks no one.
  const before = calls
  await page.evaluate(() => window.airlock?.close())
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('account-address')).toBeVisible()
  expect(calls).toBe(before)
  await expect(page.locator('#status')).toHaveText('connected')
})

test.describe('a wallet that discovers assets itself (EIP-7811)', () => {
  /** A token only the wallet knows of: the API reads no such contract on the devnet. */
  const walletOnly = {
    address: '0x00000000000000000000000000000000000bEEF1',
    balance: '0x1e8480',
    type: 'erc20',
    metadata: { name: 'Wallet Token', symbol: 'WAT', decimals: 6 },
  }
  const discoverAssets = (page: Page, answer: unknown) =>
    page.evaluate((answer) => window.__airlockTestWallets?.evm?.discoverAssets(answer), answer)
  const asked = (page: Page) =>
    page.evaluate(() => window.__airlockTestWallets?.calls.map((call) => call.method) ?? [])

  test('adds what it names that the API does not list, and leaves out an asset of the wrong shape', async ({
    page,
    modal,
  }) => {
    await page.goto('/')
    await discoverAssets(page, {
      '0x7a69': [walletOnly, { ...walletOnly, address: '0xbeef', metadata: { symbol: 'BAD', decimals: 6 } }],
    })
    await connectEvm(page, modal)
    // Unpriced, so below the API's priced tokens.
    await expect(modal.getByTestId('account-tokens').getByTestId('token-amount')).toHaveText([
      /ALT$/,
      /tUSD$/,
      displayQuantity('2', 'WAT'),
    ])
    expect(await asked(page)).toContain('wallet_getAssets')
  })
})
