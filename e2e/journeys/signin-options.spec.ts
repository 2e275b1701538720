/**
 * The two sign-in options contradict each other: a page that gives both `siweConfig` and `siwx` is told so
 * by a TypeError before anything mounts (docs/behaviour.md §1, Required options), rather than the modal
 * picking one of them behind the dApp's back.
 */
import { expect, modalOrigin, test } from './fixtures.ts'

test('siweConfig and siwx together: createAirlock throws the documented TypeError and mounts no modal', async ({
  page,
}) => {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  // module.html gives `siweConfig` for siwx=siwe, and `options` adds `siwx` beside it.
  const both = encodeURIComponent(JSON.stringify({ siwx: { required: false } }))
  await page.goto(`/module.html?siwx=siwe&options=${both}`)
  await expect.poll(() => errors.length).toBeGreaterThan(0)
  expect(errors.map((error) => `${error.name}: ${error.message}`)).toEqual([
    'TypeError: Cannot set both `siweConfig` and `siwx` options.',
  ])
  expect(await page.evaluate(() => typeof window.airlock)).toBe('undefined')
  expect(page.frames().filter((frame) => frame.url().startsWith(modalOrigin))).toEqual([])
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(0)
})

test('either one alone mounts the modal and offers sign-in', async ({ page, modal }) => {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  for (const siwx of ['siwe', 'optional']) {
    await page.goto(`/module.html?siwx=${siwx}`)
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
  }
  expect(errors).toEqual([])
})
