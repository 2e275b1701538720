/**
 * The modal's main views as pixels: Connect (and its guide for someone new to wallets), All Wallets, Account,
 * Networks, Send, Swap, Receive and Buy, each compared
 * with its committed baseline (`screenshots.spec.ts-snapshots/`) in four variants: light, dark, Arabic
 * (right to left) and a 360 px phone. What changes from run to run (the account's address, avatar and
 * balances) is masked; everything else, a broken stylesheet among it, turns the comparison red. After an
 * intended change of the look, the README says how to write new baselines.
 */
import type { FrameLocator, Locator } from '@playwright/test'
import { expect, test } from './fixtures.ts'

const variants = [
  { name: 'light', width: 1100, theme: 'light' },
  { name: 'dark', width: 1100, theme: 'dark' },
  { name: 'arabic', width: 1100, theme: 'light', locale: 'ar' },
  { name: '360px', width: 360, theme: 'light' },
] as const

for (const variant of variants) {
  test.describe(variant.name, () => {
    test.use({
      viewport: { width: variant.width, height: 800 },
      ...('locale' in variant && { locale: variant.locale }),
    })

    test('the main views look as their baselines', async ({ page, modal }) => {
      const shot = (view: string, mask: string[] = []) =>
        expect(modal.locator('.card')).toHaveScreenshot(`${view}-${variant.name}.png`, {
          mask: mask.map((selector) => modal.locator(selector)),
          // Anti-aliasing moves a few pixels from run to run; a stylesheet that breaks moves far more.
          maxDiffPixelRatio: 0.01,
        })
      await page.emulateMedia({ reducedMotion: 'reduce' })
      await page.goto(`/module.html?siwx=optional&theme=${variant.theme}`)
      await page.waitForFunction(() => window.airlock?.getState().status === 'disconnected')
      await page.evaluate(() => window.airlock?.open())
      // Connect is complete once the registry's count is in.
      await expect(modal.locator('[data-testid="all-wallets-row"] .tag')).toBeVisible()
      await shot('connect')
      await modal.locator('.new-to-wallets summary').click()
      await expect(modal.locator('.new-to-wallets')).toHaveAttribute('open', '')
      await shot('wallet-guide')
      await modal.locator('.new-to-wallets summary').click()

      await modal.getByTestId('all-wallets-row').click()
      await loaded(modal.getByTestId('all-wallets'))
      await shot('all-wallets')
      await back(modal)

      await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
      await expect(modal.getByTestId('signin-origin')).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(modal.getByRole('dialog')).toBeHidden()
      await page.evaluate(() => window.airlock?.open())
      await expect(modal.getByTestId('account-address')).toBeVisible()
      await expect(modal.locator('[aria-busy="true"]')).toHaveCount(0)
      await shot('account', ['.account-avatar', '.address-line', '.account-holdings', '.tab-panel'])

      await modal.getByTestId('account-network').click()
      await expect(modal.getByRole('button', { name: /Airlock Devnet B/ })).toBeVisible()
      await shot('networks')
      await back(modal)

      await openAction(modal, 'send')
      await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
      await shot('send', ['.picker-amount', 'form.send-form p.muted'])
      await back(modal)

      await openAction(modal, 'swaps')
      await expect(modal.locator('form.swap-form')).toHaveAttribute('aria-busy', 'false')
      await expect(modal.getByTestId('swap-from-token')).toContainText('ETH')
      await shot('swap', ['.swap-balance'])
      await back(modal)

      await openAction(modal, 'receive')
      await expect(modal.getByTestId('receive-qr').locator('svg, canvas, img').first()).toBeVisible()
      await shot('receive', ['[data-testid="receive-qr"]', '[data-testid="receive-address"]'])
      await back(modal)

      await openAction(modal, 'onramp')
      await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'ETH')
      await shot('buy', ['[data-testid="onramp-quote"]', '[data-testid="onramp-quote-status"]'])
    })
  })
}

/** The header's Back, whatever the language. */
async function back(modal: FrameLocator) {
  await modal.locator('.card-header .icon-button').first().click()
}

async function openAction(modal: FrameLocator, feature: string) {
  await modal.getByTestId(`action-${feature}`).click()
}

/** Waits until every image in `area` has loaded (the registry's wallet icons). */
async function loaded(area: Locator) {
  await expect(area.getByRole('button').first()).toBeVisible()
  await expect
    .poll(() => area.evaluate((root) => [...root.querySelectorAll('img')].every((img) => img.complete)))
    .toBe(true)
}
