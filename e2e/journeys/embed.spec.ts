import { addresses, expect, test } from './fixtures.ts'

test('embedded mode renders inline and follows the modal height', async ({ page, modal }) => {
  await page.goto('/embedded.html')
  const frame = page.locator('#embed iframe[title="Airlock"]')
  await expect(frame).toBeVisible()
  await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(100)
  const before = (await frame.boundingBox())?.height
  await expect(page.locator('dialog')).toHaveCount(0)
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect.poll(async () => (await frame.boundingBox())?.height).not.toBe(before)
  // Inline content is a labelled region, not a dialog.
  await expect(modal.getByRole('dialog')).toHaveCount(0)
  const card = await modal.getByRole('region', { name: 'Account' }).boundingBox()
  const box = await frame.boundingBox()
  expect(Math.abs((box?.height ?? 0) - (card?.height ?? 0))).toBeLessThan(40)
})

test('the one-line script tag works on a page with no build step', async ({ page, modal }) => {
  await page.goto('/plain.html')
  await page.getByRole('button', { name: 'Request accounts' }).click()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(page.locator('#result')).toHaveText(addresses.evm?.address as string)
})
