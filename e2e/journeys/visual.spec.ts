/**
 * The modal's layout, view by view, as a visitor sees it at 360 px (a phone) and 1280 px, light and dark,
 * left-to-right and right-to-left (Arabic): Connect, AllWallets, the sign-in view, Account, Networks and
 * Send. In each: nothing overflows the card or the screen sideways (element bounds), the card's height
 * changes at most once per view change (a ResizeObserver log of the card beside a log of its heading), and
 * axe finds nothing.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { FrameLocator, Page } from '@playwright/test'
import { axeViolations, expect, holdApi, holdBalances, modalFrame, test } from './fixtures.ts'

const variants = [360, 1280].flatMap((width) =>
  (['light', 'dark'] as const).flatMap((theme) =>
    (['ltr', 'rtl'] as const).map((dir) => ({ width, theme, dir })),
  ),
)

for (const { width, theme, dir } of variants) {
  test.describe(`${width} px, ${theme}, ${dir}`, () => {
    // Right-to-left as an Arabic-speaking visitor gets it: the browser's language.
    test.use({ viewport: { width, height: 800 }, ...(dir === 'rtl' && { locale: 'ar' }) })

    test('every view fits, moves once per change and passes axe', async ({ page, modal }) => {
      // Without motion every height the card takes is one entry in the log: nothing is averaged away.
      await page.emulateMedia({ reducedMotion: 'reduce' })
      const say = await words(dir)
      await page.goto(`/module.html?siwx=optional&theme=${theme}`)
      await watch(page, dir)
      await prepared(page)

      await page.evaluate(() => window.airlock?.open())
      await expect(modal.getByTestId('wallet-list')).toBeVisible()
      await check(page, 'Connect')

      await modal.getByTestId('all-wallets-row').click()
      await expect(modal.getByTestId('all-wallets').getByRole('button').first()).toBeVisible()
      await check(page, 'AllWallets')
      await modal.getByRole('button', { name: say('core.back', 'Back') }).click()
      await expect(modal.getByTestId('wallet-list')).toBeVisible()

      await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
      await expect(modal.getByTestId('signin-origin')).toBeVisible()
      await check(page, 'sign-in')
      await page.keyboard.press('Escape')
      await expect(modal.getByRole('dialog')).toBeHidden()

      await page.evaluate(() => window.airlock?.open())
      await expect(modal.getByTestId('account-address')).toBeVisible()
      await settledAccount(modal)
      await check(page, 'Account')

      await modal.getByTestId('account-network').click()
      await expect(modal.getByRole('button', { name: /Airlock Devnet B/ })).toBeVisible()
      await check(page, 'Networks')
      await modal.getByRole('button', { name: say('core.back', 'Back') }).click()
      await expect(modal.getByTestId('account-address')).toBeVisible()

      await modal.getByRole('button', { name: say('account.tabs.send', 'Send'), exact: true }).click()
      await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
      await check(page, 'Send')
    })
  })
}

test('the card moves to a new view in one smooth change, not in jumps', async ({ page, modal }) => {
  await page.goto('/module.html')
  await watch(page, 'ltr')
  await prepared(page)
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('wallet-list')).toBeVisible()
  await settle(page)
  const frame = await modalFrame(page)
  const mark = await frame.evaluate(() => window.airlockLayout.length)
  await modal.getByTestId('all-wallets-row').click()
  await expect(modal.getByTestId('all-wallets').getByRole('button').first()).toBeVisible()
  await settle(page)
  const heights = await frame.evaluate(
    (from) => window.airlockLayout.slice(from).flatMap((entry) => (entry.height ? [entry.height] : [])),
    mark,
  )
  // Several frames of one transition, all one way: a jump back or a second move would turn the direction.
  expect(heights.length).toBeGreaterThan(2)
  const steps = heights.slice(1).map((height, i) => Math.sign(height - (heights[i] ?? height)))
  expect(new Set(steps.filter((step) => step !== 0)).size).toBe(1)
})

test('the balances’ placeholders hold the very place the balances take', async ({ page, modal }) => {
  // The balances are held until the placeholders are measured.
  const release = await holdBalances(page)
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-tokens-placeholder')).toBeVisible()
  await expect(modal.locator('[aria-busy="true"]')).toHaveCount(2)
  const waiting = await places(page, 'account-tokens-placeholder')
  release()
  await expect(modal.getByTestId('account-tokens')).toBeVisible()
  await settledAccount(modal)
  // The test wallet holds two tokens (ALT and tUSD), as many rows as the placeholder holds.
  expect(await places(page, 'account-tokens')).toEqual(waiting)
})

test('the wallets’ placeholders hold the very place the wallets take', async ({ page, modal }) => {
  // The registry's pages are held until the placeholders are measured; still, so no view is caught sliding in.
  const release = await holdApi(page, '/getWallets**')
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.goto('/module.html')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByTestId('all-wallets-row').click()
  const grid = modal.getByTestId('all-wallets')
  await expect(grid.getByTestId('all-wallets-placeholder').first()).toBeVisible()
  await expect(grid).toHaveAttribute('aria-busy', 'true')
  const tile = (item: string, picture: string) =>
    grid.evaluate(
      (root, { item, picture }) => {
        const top = root.getBoundingClientRect()
        const box = (element: Element | null) => {
          const rect = (element as HTMLElement).getBoundingClientRect()
          return [rect.left - top.left, rect.top - top.top, rect.width, rect.height].map(Math.round)
        }
        const first = root.querySelector(item)
        return { item: box(first), picture: box(first?.querySelector(picture) ?? null) }
      },
      { item, picture },
    )
  const waiting = await tile('[data-testid="all-wallets-placeholder"] .grid-item', '.skeleton-icon')
  release()
  await expect(grid.getByRole('button').first()).toBeVisible()
  await expect(grid).toHaveAttribute('aria-busy', 'false')
  await expect(grid.getByTestId('all-wallets-placeholder')).toHaveCount(0)
  expect(await tile('.grid-item', '.wallet-image')).toEqual(waiting)
})

test('the NFTs’ placeholders hold the very place the first NFTs take', async ({ page, modal }) => {
  const release = await holdApi(page, '/v1/account/*/nfts**')
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await modal.getByRole('tab', { name: 'NFTs' }).click()
  const panel = modal.getByRole('tabpanel', { name: 'NFTs' })
  await expect(panel.getByTestId('nft-placeholder')).toBeVisible()
  await expect(panel.locator('.nfts')).toHaveAttribute('aria-busy', 'true')
  const card = (grid: string) =>
    panel.evaluate((root, grid) => {
      const top = root.getBoundingClientRect()
      const box = (element: Element | null) => {
        const rect = (element as HTMLElement).getBoundingClientRect()
        return [rect.left - top.left, rect.top - top.top, rect.width, rect.height].map(Math.round)
      }
      const first = root.querySelector(`[data-testid="${grid}"] .nft`)
      return { card: box(first), picture: box(first?.querySelector('.nft-image') ?? null) }
    }, grid)
  const waiting = await card('nft-placeholder')
  release()
  await expect(panel.getByTestId('nft-grid')).toBeVisible()
  await expect(panel.getByTestId('nft-placeholder')).toHaveCount(0)
  expect(await card('nft-grid')).toEqual(waiting)
})

/**
 * Where the Account view's parts lie, from the top of the card's content: the holdings (total and balance),
 * the token list (`list`, by test id) and its first row, and the network row below them.
 */
async function places(page: Page, list: string) {
  const frame = await modalFrame(page)
  return frame.evaluate((list) => {
    const top = (document.querySelector('.card-content') as HTMLElement).getBoundingClientRect().top
    const box = (selector: string) => {
      const rect = (document.querySelector(selector) as HTMLElement).getBoundingClientRect()
      return { top: Math.round(rect.top - top), height: Math.round(rect.height) }
    }
    return {
      holdings: box('.account-holdings'),
      list: box(`[data-testid="${list}"]`),
      row: box(`[data-testid="${list}"] li`),
      below: box('[data-testid="account-network"]'),
    }
  }, list)
}

/**
 * The names buttons have in the modal's language: the Arabic catalogue's, where it has the text, else the
 * English source (as the modal falls back).
 */
async function words(dir: 'ltr' | 'rtl'): Promise<(key: string, english: string) => string> {
  const file = new URL('../../modal-app/src/shared/i18n/locales/ar.json', import.meta.url)
  const arabic: unknown = dir === 'rtl' && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
  return (key, english) => {
    const found = key
      .split('.')
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], arabic)
    return typeof found === 'string' ? found : english
  }
}

type Entry = { height?: number; view?: string }
declare global {
  interface Window {
    airlockLayout: Entry[]
  }
}

/**
 * Starts the two logs in the modal's frame: every height the card takes, and every heading it shows (a view
 * change). Right-to-left is the Arabic catalogue's `dir`; where the modal has none yet, the document is set
 * to `dir="rtl"` as the catalogue would.
 */
async function watch(page: Page, dir: 'ltr' | 'rtl') {
  const frame = await modalFrame(page)
  await frame.waitForSelector('.card', { state: 'attached' })
  await frame.evaluate((dir) => {
    if (dir === 'rtl' && document.documentElement.dir !== 'rtl') document.documentElement.dir = 'rtl'
    const log: Entry[] = []
    window.airlockLayout = log
    const card = document.querySelector('.card') as HTMLElement
    let last = 0
    new ResizeObserver(() => {
      const height = Math.round(card.getBoundingClientRect().height)
      // A hidden frame measures 0: that is the host hiding it, not the card moving.
      if (height > 0 && height !== last) log.push({ height })
      if (height > 0) last = height
    }).observe(card)
    let title = ''
    new MutationObserver(() => {
      const now = card.querySelector('h1')?.textContent ?? ''
      if (now !== title) log.push({ view: now })
      title = now
    }).observe(card, { subtree: true, childList: true, characterData: true })
  }, dir)
  if (dir === 'rtl') expect(await frame.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl')
}

/**
 * Waits, as a visitor's first click does a moment after the page loads, until the hidden modal has Connect
 * complete: the host is told it is disconnected, and the registry's suggestions and count are in.
 */
async function prepared(page: Page) {
  await page.waitForFunction(() => window.airlock?.getState().status === 'disconnected')
  const frame = await modalFrame(page)
  await frame.waitForSelector('[data-testid="all-wallets-row"] .tag', { state: 'attached' })
}

/** Waits until the card has not changed for 600 ms (images, lazy chunks and API answers are in). */
async function settle(page: Page) {
  const frame = await modalFrame(page)
  await frame.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let seen = window.airlockLayout.length
        const timer = setInterval(() => {
          if (window.airlockLayout.length === seen) {
            clearInterval(timer)
            resolve()
          }
          seen = window.airlockLayout.length
        }, 600)
      }),
  )
}

/** Account's balances come from the API a moment after the view: waited for, so axe sees the final view. */
async function settledAccount(modal: FrameLocator) {
  await expect(modal.locator('[aria-busy="true"]')).toHaveCount(0)
}

async function check(page: Page, view: string) {
  await settle(page)
  const frame = await modalFrame(page)
  const overflow = await frame.evaluate(() => {
    const card = document.querySelector('.card') as HTMLElement
    const box = card.getBoundingClientRect()
    const found: string[] = []
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').slice(0, 30)}"`
    if (box.left < -0.5 || box.right > window.innerWidth + 0.5) found.push(`card ${box.left}..${box.right}`)
    for (const element of card.querySelectorAll('*')) {
      // Off-screen text for screen readers is clipped to a pixel on purpose.
      if (element.closest('.sr-only')) continue
      const rect = element.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) found.push(name(element))
    }
    // The card's own scrolling parts never scroll sideways.
    for (const scroller of [card, ...card.querySelectorAll('.card-scroll, .wallet-grid')])
      if (scroller.scrollWidth > scroller.clientWidth + 1) found.push(`scrolls sideways: ${name(scroller)}`)
    return found
  })
  expect(overflow, `${view}: nothing sticks out sideways`).toEqual([])

  // Between two headings (a view change), at most one new height.
  const log = await frame.evaluate(() => window.airlockLayout)
  const moves: number[] = [0]
  for (const entry of log) {
    if (entry.view !== undefined) moves.push(0)
    else moves[moves.length - 1] = (moves[moves.length - 1] ?? 0) + 1
  }
  expect(
    Math.max(...moves),
    `${view}: the card's height per view change, in ${JSON.stringify(log)}`,
  ).toBeLessThanOrEqual(1)

  expect(await axeViolations(page), `${view}: axe`).toEqual([])
}
