/**
 * The host's switches and wallet options, as a visitor meets them on the demo dApp's module page (its
 * `?options=` are passed to createAirlock as they are; the modal judges them).
 */
import type { Page } from '@playwright/test'
import { EVM_WALLET_NAME, EVM_WALLET_RDNS } from '../wallets/names.ts'
import { connectEvm, expect, leaveForDevnetB, request, test } from './fixtures.ts'

const withOptions = (page: Page, options: object, networks = 'eip155:31337,eip155:31338') =>
  page.goto(`/module.html?networks=${networks}&options=${encodeURIComponent(JSON.stringify(options))}`)

const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%2306c"/%3E%3C/svg%3E'

test.describe('feature switches', () => {
  test('a misspelt switch is refused when the modal loads, naming it and the switch meant', async ({
    page,
    modal,
  }) => {
    await withOptions(page, { features: { histroy: false } })
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.locator('h1')).toHaveText('Invalid Configuration')
    await expect(modal.locator('[role=alert]')).toContainText(
      'features.histroy: unknown switch; did you mean history?',
    )
  })

  test('history: false leaves Activity out of the account’s tabs', async ({ page, modal }) => {
    await withOptions(page, { features: { history: false } })
    await connectEvm(page, modal)
    const tabs = modal.getByRole('tablist', { name: 'Account' }).getByRole('tab')
    await expect(tabs).toHaveText(['Tokens', 'NFTs'])
    // The keys wrap between the two there are.
    await tabs.nth(1).click()
    await tabs.nth(1).press('ArrowRight')
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true')
  })

  test('emailShowWallets: false puts the wallets behind "Continue with a wallet"', async ({
    page,
    modal,
  }) => {
    await withOptions(page, { features: { emailShowWallets: false } })
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.locator('input[type=email]')).toBeVisible()
    await expect(modal.getByRole('button', { name: EVM_WALLET_NAME })).toHaveCount(0)
    await modal.getByRole('button', { name: 'Continue with a wallet' }).click()
    await modal.getByRole('button', { name: EVM_WALLET_NAME }).click()
    await expect(modal.getByTestId('account-address')).toBeVisible()
  })

  test('collapseWallets does the same, and without email or socials there is nothing to collapse beside', async ({
    page,
    modal,
  }) => {
    await withOptions(page, { features: { collapseWallets: true } })
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByRole('button', { name: 'Continue with a wallet' })).toBeVisible()
    await expect(modal.getByRole('button', { name: EVM_WALLET_NAME })).toHaveCount(0)

    await withOptions(page, { features: { collapseWallets: true, email: false, socials: false } })
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByRole('button', { name: EVM_WALLET_NAME })).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Continue with a wallet' })).toHaveCount(0)
  })
})

test.describe('networks the dApp did not configure', () => {
  test('allowUnsupportedChain: the account stays connected on its chain, with a notice', async ({
    page,
    modal,
  }) => {
    await withOptions(page, { allowUnsupportedChain: true }, 'eip155:31337')
    await connectEvm(page, modal)
    await page.evaluate(() => window.airlock?.close())
    await leaveForDevnetB(page)
    await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a6a')
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByTestId('account-address')).toBeVisible()
    await expect(modal.getByTestId('unsupported-chain-notice')).toHaveText(
      'Your wallet is on Airlock Devnet B, which this app doesn’t support.',
    )
    await expect(modal.getByTestId('unsupported-chain')).toHaveCount(0)
    expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  })

  test('without it, the same move leads to UnsupportedChain', async ({ page, modal }) => {
    await withOptions(page, {}, 'eip155:31337')
    await connectEvm(page, modal)
    await page.evaluate(() => window.airlock?.close())
    await leaveForDevnetB(page)
    await expect(modal.getByTestId('unsupported-chain')).toBeVisible()
  })

  test('enableNetworkSwitch: false offers no switching, and leaves the wallet where it is', async ({
    page,
    modal,
  }) => {
    await withOptions(page, { enableNetworkSwitch: false }, 'eip155:31337')
    await connectEvm(page, modal)
    await expect(modal.getByTestId('account-network')).toHaveText(/Airlock Devnet A/)
    await expect(modal.getByRole('button', { name: /Airlock Devnet A/ })).toHaveCount(0)
    await page.evaluate(() => window.airlock?.open({ view: 'Networks' }))
    await expect(modal.getByRole('heading', { name: 'Choose Network' })).toHaveCount(0)
    await expect(modal.getByTestId('account-address')).toBeVisible()
    await page.evaluate(() => window.airlock?.close())
    await leaveForDevnetB(page)
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByTestId('unsupported-chain-notice')).toBeVisible()
    await expect(modal.getByTestId('unsupported-chain')).toHaveCount(0)
  })
})

test.describe('hidden and custom wallets', () => {
  test('excludeWalletIds hides a page wallet by rdns and by name', async ({ page, modal }) => {
    for (const hidden of [EVM_WALLET_RDNS, EVM_WALLET_NAME.toUpperCase()]) {
      await withOptions(page, { excludeWalletIds: [hidden], features: { email: false, socials: false } })
      await page.evaluate(() => window.airlock?.open())
      await expect(modal.getByTestId('all-wallets-row')).toBeVisible()
      await expect(modal.getByRole('button', { name: EVM_WALLET_NAME })).toHaveCount(0)
    }
  })

  test('featured wallets in the host’s order, at most 4, then the registry’s next 4 as recommended; excluded ones in neither', async ({
    page,
    modal,
  }) => {
    // The registry as the API lists it, first page, in its own order.
    const answer = await fetch('http://127.0.0.1:8787/getWallets?projectId=demo&page=1&entries=40')
    const registry = ((await answer.json()) as { data: { id: string; name: string }[] }).data
    const nth = (index: number) => registry[index] as { id: string; name: string }
    await withOptions(page, {
      // An excluded id and an unknown one are skipped; the fifth that remains is one too many.
      featuredWalletIds: [
        nth(9).id,
        nth(5).id,
        nth(0).id,
        'no-such-wallet',
        nth(11).id,
        nth(12).id,
        nth(13).id,
      ],
      excludeWalletIds: [nth(0).id, nth(1).name.toUpperCase()],
      features: { email: false, socials: false },
    })
    await page.evaluate(() => window.airlock?.open())
    const listed = new Set(registry.map((wallet) => wallet.name))
    const rows = modal.locator('.row-label')
    await expect
      .poll(async () => (await rows.allTextContents()).filter((name) => listed.has(name)))
      .toEqual([9, 5, 11, 12, 2, 3, 4, 6].map((index) => nth(index).name))
  })

  test('a custom wallet is listed by the host’s name and icon, and starts a pairing for that wallet', async ({
    page,
    modal,
  }) => {
    const acme = { id: 'acme', name: 'Acme Wallet', iconUrl: icon, webappLink: 'https://acme.example/wc' }
    // One whose extension is on the page is listed once, as that extension; an excluded one not at all.
    const twin = { id: 'twin', name: 'Twin Wallet', iconUrl: icon, rdns: EVM_WALLET_RDNS }
    const gone = { id: 'gone', name: 'Gone Wallet', iconUrl: icon }
    await withOptions(page, { customWallets: [acme, twin, gone], excludeWalletIds: ['gone wallet'] })
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    const custom = modal.getByTestId('custom-wallet')
    await expect(custom).toHaveText(['Acme Wallet'])
    await expect(custom.locator('img')).toHaveAttribute('src', icon)
    await custom.click()
    // The pairing view for that wallet (its name as the title), where its links open with the pairing URI.
    await expect(modal.locator('h1')).toHaveText('Acme Wallet')
    await expect(modal.getByTestId('wc-state')).toBeVisible()
  })
})

test.describe('restricted time zones', () => {
  test.use({ timezoneId: 'Asia/Shanghai' })

  test('in a restricted zone Buy and Swap say they are unavailable; a host list without it offers them', async ({
    page,
    modal,
  }) => {
    await withOptions(page, {})
    await connectEvm(page, modal)
    await modal.getByRole('button', { name: 'Swap', exact: true }).click()
    await expect(
      modal.getByRole('status').filter({ hasText: 'Swaps are not available in your region.' }),
    ).toBeVisible()
    await expect(modal.locator('form.swap-form')).toHaveCount(0)
    await modal.getByRole('button', { name: 'Back' }).click()
    await modal.getByRole('button', { name: 'Buy', exact: true }).click()
    await expect(
      modal.getByRole('status').filter({ hasText: 'Buying crypto is not available in your region.' }),
    ).toBeVisible()

    await withOptions(page, { restrictedTimeZones: ['Europe/Berlin'] })
    await page.evaluate(() => window.airlock?.open())
    await modal.getByRole('button', { name: 'Swap', exact: true }).click()
    await expect(modal.locator('form.swap-form')).toBeVisible()
    await expect(modal.getByText('Swaps are not available in your region.')).toHaveCount(0)
  })
})
