/**
 * Motion only where it helps, and none for a visitor who asked for less: with `prefers-reduced-motion:
 * reduce`, no animation or transition in the modal lasts longer than a millisecond through Connect, All
 * Wallets, Account, Send and its token picker; without it, the same steps do move (each new view coming in,
 * the card's height between views, which Chromium reports as `height`, the picker's list rising in and the
 * balances' placeholders shimmering), so the probe is seen to see motion, and the first open moves no view
 * in.
 */
import type { FrameLocator, Page } from '@playwright/test'
import { expect, holdBalances, modalFrame, test } from './fixtures.ts'

type Motion = { kind: 'animation' | 'transition'; name: string; ms: number }

/** Starts logging every animation and transition that starts in the modal's document, with its duration. */
async function record(page: Page): Promise<() => Promise<Motion[]>> {
  const frame = await modalFrame(page)
  await frame.evaluate(() => {
    const log: Motion[] = []
    const ms = (value: string) => Math.max(...value.split(',').map((part) => Number.parseFloat(part) * 1000))
    document.addEventListener(
      'animationstart',
      (event) =>
        log.push({
          kind: 'animation',
          name: event.animationName,
          ms: ms(getComputedStyle(event.target as Element).animationDuration),
        }),
      true,
    )
    document.addEventListener(
      'transitionrun',
      (event) =>
        log.push({
          kind: 'transition',
          name: event.propertyName,
          ms: ms(getComputedStyle(event.target as Element).transitionDuration),
        }),
      true,
    )
    ;(window as unknown as { airlockMotion: Motion[] }).airlockMotion = log
  })
  return () => frame.evaluate(() => (window as unknown as { airlockMotion: Motion[] }).airlockMotion)
}

/**
 * Connect, All Wallets and back, a connection (its balances' placeholders, then the balances), Send, and its
 * token picker opened. Returns what moved when the modal first opened, before any view change.
 */
async function walkThrough(page: Page, modal: FrameLocator, motions: () => Promise<Motion[]>) {
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('wallet-list')).toBeVisible()
  const opening = await motions()
  await modal.getByTestId('all-wallets-row').click()
  await expect(modal.getByTestId('all-wallets').getByRole('button').first()).toBeVisible()
  await modal.getByRole('button', { name: 'Back' }).click()
  // The balances are held until their placeholders are seen, so the wait is on screen however fast the API.
  const release = await holdBalances(page)
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect(modal.getByTestId('account-tokens-placeholder')).toBeVisible()
  release()
  await expect(modal.getByTestId('account-tokens')).toBeVisible()
  await modal.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
  await modal.getByTestId('send-asset').click()
  await expect(modal.getByRole('listbox', { name: 'Token' })).toBeVisible()
  return opening
}

test('with reduced motion, nothing in the modal moves for longer than a millisecond', async ({
  page,
  modal,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.goto('/')
  const motions = await record(page)
  await walkThrough(page, modal, motions)
  expect((await motions()).filter((motion) => motion.ms > 1)).toEqual([])
})

test('without the preference, each new view comes in, the card moves and the picker’s list rises in', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  const motions = await record(page)
  const opening = await walkThrough(page, modal, motions)
  // The first open shows the view the hidden frame drew: nothing comes in.
  expect(opening.filter((motion) => motion.name === 'translate' || motion.name === 'opacity')).toEqual([])
  const seen = await motions()
  expect(seen).toContainEqual({ kind: 'transition', name: 'translate', ms: 200 })
  expect(seen).toContainEqual({ kind: 'transition', name: 'opacity', ms: 200 })
  expect(seen).toContainEqual({ kind: 'transition', name: 'height', ms: 200 })
  expect(seen).toContainEqual({ kind: 'animation', name: 'rise', ms: 120 })
  // The placeholders shimmer while the balances load.
  expect(seen).toContainEqual({ kind: 'animation', name: 'shimmer', ms: 1500 })
})
