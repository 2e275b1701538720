/**
 * The shake (docs/behaviour.md §2, Shake; §9's 500 ms): a real failure, a connection the wallet declines,
 * shakes the card, and the shake ends 500 ms on by the page's own clock, which the test holds still and
 * moves, so a slow machine changes nothing.
 */
import { Errors } from '@airlock/bridge-protocol'
import { setWalletMode } from '../wallets/index.ts'
import { expect, test } from './fixtures.ts'

test('a declined connection shakes the card for 500 ms, with the shake animation; then the card rests', async ({
  page,
  modal,
}) => {
  await page.clock.install()
  await page.goto('/module.html?networks=eip155:31337')
  await page.evaluate(() => window.airlock?.open())
  const card = modal.locator('.card')
  const wallet = modal.getByRole('button', { name: 'Airlock Test Wallet' })
  await expect(wallet).toBeEnabled()
  await expect(card).not.toHaveClass(/(^| )shake( |$)/)
  await setWalletMode(page, 'reject')
  // From here the page's clocks (the modal's too) move only when the test moves them.
  await page.clock.pauseAt(Date.now() + 1_000)
  await wallet.click()
  await expect(modal.getByTestId('snackbar')).toHaveText(Errors.messages[4001])
  await expect(card).toHaveClass(/(^| )shake( |$)/)
  // The browser runs the shake itself: the card's own animation, 500 ms long.
  expect(
    await card.evaluate((element) => {
      const style = getComputedStyle(element)
      return [style.animationName, style.animationDuration]
    }),
  ).toEqual(['shake', '0.5s'])
  await page.clock.runFor(499)
  await expect(card).toHaveClass(/(^| )shake( |$)/)
  await page.clock.runFor(1)
  await expect(card).not.toHaveClass(/(^| )shake( |$)/)
  expect(await card.evaluate((element) => getComputedStyle(element).animationName)).toBe('none')
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
})
