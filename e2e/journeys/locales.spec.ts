/**
 * The modal in the visitor's language: Arabic from the browser's languages, laid out right to left, at
 * 360 px (a phone), through Connect, AllWallets, Account, Networks, Receive and Send; in each the document
 * says `lang="ar"` and `dir="rtl"`, the texts are the Arabic catalogue's, no text is cut short and nothing
 * leaves the card. The host's `locale` option wins over the browser's languages.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, modalFrame, test } from './fixtures.ts'

type Tree = { readonly [key: string]: string | Tree }

/** A catalogue as the modal loads it. */
const catalogue = (locale: string): Tree =>
  JSON.parse(
    readFileSync(new URL(`../../modal-app/src/shared/i18n/locales/${locale}.json`, import.meta.url), 'utf8'),
  )
const arabic = catalogue('ar')
const hebrew = catalogue('he')

/** A message of a catalogue by its key (`core.connect.title`). */
function say(catalogue: Tree, key: string): string {
  const found = key
    .split('.')
    .reduce<string | Tree | undefined>(
      (node, name) => (typeof node === 'object' ? node[name] : undefined),
      catalogue,
    )
  if (typeof found !== 'string') throw new Error(`No message ${key}`)
  return found
}

test.describe('Arabic at 360 px', () => {
  test.use({ viewport: { width: 360, height: 760 }, locale: 'ar-EG' })

  test('every main view is right to left, in Arabic, and fits the card', async ({ page, modal }) => {
    const ar = (key: string) => say(arabic, key)
    await page.goto('/module.html')
    await page.evaluate(() => window.airlock?.open())
    await expect(modal.getByRole('heading', { name: ar('core.connect.title') })).toBeVisible()
    await fits(page, 'ar', 'Connect')

    await modal.getByTestId('all-wallets-row').click()
    await expect(modal.getByRole('heading', { name: ar('core.walletConnect.allWallets') })).toBeVisible()
    await expect(modal.getByTestId('all-wallets').getByRole('button').first()).toBeVisible()
    await fits(page, 'ar', 'AllWallets')
    await modal.getByRole('button', { name: ar('core.back') }).click()

    await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
    await expect(modal.getByTestId('account-address')).toBeVisible()
    await expect(modal.locator('[aria-busy="true"]')).toHaveCount(0)
    await fits(page, 'ar', 'Account')

    await modal.getByTestId('account-network').click()
    await expect(modal.getByRole('heading', { name: ar('core.networks.title') })).toBeVisible()
    await fits(page, 'ar', 'Networks')
    await modal.getByRole('button', { name: ar('core.back') }).click()

    await modal.getByRole('button', { name: ar('account.tabs.receive'), exact: true }).click()
    await expect(modal.getByRole('heading', { name: ar('core.receive.title') })).toBeVisible()
    await fits(page, 'ar', 'Receive')
    await modal.getByRole('button', { name: ar('core.back') }).click()

    await modal.getByRole('button', { name: ar('account.tabs.send'), exact: true }).click()
    await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
    await expect(modal.getByText(ar('send.receiver'), { exact: true })).toBeVisible()
    await fits(page, 'ar', 'Send')
  })
})

test('the host’s locale option wins over the browser’s languages', async ({ page, modal }) => {
  await page.goto('/module.html?locale=he')
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('heading', { name: say(hebrew, 'core.connect.title') })).toBeVisible()
  const frame = await modalFrame(page)
  expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
    'he',
    'rtl',
  ])
})

test('a browser in a language the modal does not speak gets English, left to right', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'pl-PL' })
  const page = await context.newPage()
  await page.goto('/module.html')
  await page.evaluate(() => window.airlock?.open())
  const modal = page.frameLocator('iframe[title="Airlock"]')
  await expect(modal.getByRole('heading', { name: 'Connect Wallet' })).toBeVisible()
  const frame = await modalFrame(page)
  expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
    'en',
    'ltr',
  ])
  await context.close()
})

/**
 * The document's language and direction, and the card's contents: no element outside the card's sides, no
 * text cut short (an element's text wider than its box). Text the layout shortens on purpose with an
 * ellipsis (a long wallet name, an address) and off-screen text for screen readers are left out.
 */
async function fits(page: Page, lang: string, view: string) {
  const frame = await modalFrame(page)
  const seen = await frame.evaluate(() => {
    const root = document.documentElement
    const card = document.querySelector('.card') as HTMLElement
    const box = card.getBoundingClientRect()
    const problems: string[] = []
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 40)}"`
    if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
      problems.push(`card ${box.left}..${box.right}`)
    for (const element of card.querySelectorAll<HTMLElement>('*')) {
      if (element.closest('.sr-only')) continue
      const rect = element.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5)
        problems.push(`outside: ${name(element)}`)
      const text = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim())
      const style = getComputedStyle(element)
      if (text && style.textOverflow !== 'ellipsis' && element.scrollWidth > element.clientWidth + 1)
        problems.push(`cut: ${name(element)} ${element.scrollWidth} > ${element.clientWidth}`)
    }
    return { lang: root.lang, dir: root.dir, direction: getComputedStyle(card).direction, problems }
  })
  expect(seen, view).toEqual({
    lang: expect.stringMatching(new RegExp(`^${lang}`)),
    dir: 'rtl',
    direction: 'rtl',
    problems: [],
  })
}
