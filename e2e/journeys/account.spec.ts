/**
 * The Account and Connect views' own actions, clicked as a visitor clicks them: Copy address (and its
 * failure where the page's policy refuses the clipboard), the Disconnect row, the "Also connected" list,
 * the Recent tag, and All Wallets paging on scroll.
 */
import type { Page } from '@playwright/test'
import { addresses, connectEvm, connectWallet, expect, request, test } from './fixtures.ts'
import { serveDapp } from './servers.ts'

const evm = addresses.evm?.address as string
const api = 'http://127.0.0.1:8787'

/** What the clipboard holds, read back from the page (the context grants reading it). */
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

test.describe('Copy address', () => {
  test.beforeEach(async ({ context, page }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    // Something else on the clipboard first, so what is read back can only come from the click.
    await page.goto('/')
    await page.evaluate(() => navigator.clipboard.writeText('before'))
  })

  test('puts the full address on the clipboard', async ({ page, modal }) => {
    await connectEvm(page, modal)
    await modal.getByRole('button', { name: 'Copy address' }).click()
    await expect(modal.getByTestId('snackbar')).toHaveText('Address copied')
    expect(await clipboard(page)).toBe(evm)
  })

  test("says 'Failed to copy address' where the page's Permissions-Policy refuses the clipboard", async ({
    page,
    modal,
  }) => {
    // A dApp may refuse clipboard writes to every frame it embeds, whatever the frame's `allow` says.
    const dapp = await serveDapp('localhost', 'demo', { 'Permissions-Policy': 'clipboard-write=()' })
    try {
      await page.goto(dapp.origin)
      await connectEvm(page, modal)
      await modal.getByRole('button', { name: 'Copy address' }).click()
      await expect(modal.getByTestId('snackbar')).toHaveText('Failed to copy address')
      expect(await clipboard(page)).toBe('before')
    } finally {
      await dapp.close()
    }
  })
})

test('the explorer links name the account’s address on its network’s explorer, and a network without one has none', async ({
  page,
  modal,
}) => {
  const header = modal.getByRole('link', { name: /^View the address on the block explorer/ })
  const row = modal.getByRole('link', { name: /^Block explorer/ })
  // Solana Devnet, a cluster the test wallet serves: Solana Explorer, with the cluster named.
  await page.goto('/module.html?networks=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')
  const solana = addresses.solana?.address as string
  await connectWallet(page, modal, 'Airlock Test Solana', solana)
  const url = `https://explorer.solana.com/address/${solana}?cluster=devnet`
  for (const link of [header, row]) {
    await expect(link).toHaveAttribute('href', url)
    // Another site, in its own tab, told nothing about the modal.
    await expect(link).toHaveAttribute('target', '_blank')
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  }
  // The devnet's own EVM chain has no explorer.
  await page.goto('/module.html?networks=eip155:31337')
  await connectEvm(page, modal)
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect(header).toHaveCount(0)
  await expect(row).toHaveCount(0)
})

test("the modal's Disconnect row ends the connection: the dApp is told and has no accounts", async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await page.evaluate(() => {
    const events: string[] = []
    Object.assign(window, { providerEvents: events })
    window.airlock?.providers.eip155.on('disconnect', () => events.push('disconnect'))
  })
  await modal.getByRole('button', { name: 'Disconnect' }).click()
  await expect(page.locator('#status')).toHaveText('disconnected')
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { providerEvents: string[] }).providerEvents))
    .toEqual(['disconnect'])
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  // The modal has no account left to show: opened again, it offers the wallets.
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('heading', { name: 'Connect Wallet' })).toBeVisible()
})

test('a wallet connected before is tagged Recent and listed first, after a disconnect and after a reload', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  const wallet = (name: string) => modal.getByTestId('wallet-list').getByRole('button', { name })
  // The tags describe the button; before any connection only the chain family is there.
  await expect(wallet('Airlock Test Wallet')).toHaveAccessibleDescription('EVM')
  await wallet('Airlock Test Wallet').click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await modal.getByRole('button', { name: 'Disconnect' }).click()
  await expect(page.locator('#status')).toHaveText('disconnected')

  const listed = modal.getByTestId('wallet-list').getByRole('button')
  const recentFirst = async () => {
    await expect(wallet('Airlock Test Wallet')).toHaveAccessibleDescription(/^Recent\s*EVM$/)
    await expect(wallet('Airlock Test Solana')).toHaveAccessibleDescription('Solana')
    await expect(listed.first()).toHaveAccessibleName('Airlock Test Wallet')
  }
  await page.evaluate(() => window.airlock?.open())
  await recentFirst()
  // Remembered, not only held in memory: a reload still shows it.
  await page.reload()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  await page.evaluate(() => window.airlock?.open())
  await recentFirst()
})

test('with EVM and Solana both connected, the other one is listed under "Also connected", shown on a click, and disconnected alone', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await expect(modal.getByRole('region', { name: 'Also connected' })).toHaveCount(0)
  await page.evaluate(() => window.airlock?.open({ view: 'Connect' }))
  await modal.getByRole('button', { name: 'Airlock Test Solana' }).click()
  await expect(modal.getByTestId('account-address')).toHaveAttribute(
    'data-address',
    addresses.solana?.address as string,
  )
  const also = modal.getByRole('region', { name: 'Also connected' }).getByRole('listitem')
  await expect(also).toHaveCount(1)
  await expect(also).toHaveAttribute('title', evm)
  await expect(also.locator('.tag')).toHaveText('EVM')
  await expect(also).toContainText('Airlock Devnet A')
  // Both stay connected for the dApp.
  expect(await request(page, 'eth_accounts')).toEqual({ result: [evm] })

  // Showing the EVM account asks nothing of either wallet; the dApp's state follows.
  await modal.getByRole('button', { name: `Show the EVM account: ${evm}` }).click()
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', evm)
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().address)).toBe(evm)
  // The clicked row went away with the account it named: focus is on the account shown, not lost.
  await expect(modal.locator('#account-header-title')).toBeFocused()
  await expect(also.locator('.tag')).toHaveText('Solana')

  // Disconnect this account: the EVM one goes, the Solana one stays and shows.
  await modal.getByRole('button', { name: 'Disconnect the EVM account' }).click()
  await expect(modal.getByTestId('account-address')).toHaveAttribute(
    'data-address',
    addresses.solana?.address as string,
  )
  await expect(modal.locator('#account-header-title')).toBeFocused()
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
  await expect(modal.getByRole('region', { name: 'Also connected' })).toHaveCount(0)
  await modal.getByRole('button', { name: 'Disconnect', exact: true }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
})

/** The registry's names in the API's own order, `pages` pages of 40: what All Wallets must list. */
/**
 * Whether the grid's rendered rows reach its box's top and bottom edges (or the list's first and last wallet
 * there): everything in view is rendered. Evaluated in the modal with the grid.
 */
const rowsCoverView = (grid: Element) => {
  const items = [...grid.querySelectorAll('li')]
  if (items.length === 0) return false
  const view = grid.getBoundingClientRect()
  const boxes = items.map((item) => item.getBoundingClientRect())
  const position = (item: Element | undefined) => Number(item?.getAttribute('aria-posinset'))
  const top = position(items[0]) === 1 || Math.min(...boxes.map((box) => box.top)) <= view.top
  const size = Number(items[0]?.getAttribute('aria-setsize'))
  const bottom = position(items.at(-1)) === size || Math.max(...boxes.map((box) => box.bottom)) >= view.bottom
  return top && bottom
}

async function registryNames(pages: number): Promise<string[]> {
  const names: string[] = []
  for (let page = 1; page <= pages; page++) {
    const response = await fetch(`${api}/getWallets?projectId=demo&page=${page}&entries=40`)
    const body = (await response.json()) as { data: { name: string }[] }
    names.push(...body.data.map((listing) => listing.name))
  }
  return names
}

test('All Wallets loads the next 40 when scrolled to its end, with no wallet twice', async ({
  page,
  modal,
}) => {
  const expected = await registryNames(2)
  expect(expected).toHaveLength(80)
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'All Wallets' }).click()
  const grid = modal.getByTestId('all-wallets')
  const items = grid.getByRole('listitem')
  await expect(items.first()).toHaveAttribute('aria-setsize', '40')
  // As a visitor scrolls: the wheel over the grid, down past its last row, until the second page is in.
  await grid.hover()
  await expect(async () => {
    await page.mouse.wheel(0, 4_000)
    await expect(items.first()).not.toHaveAttribute('aria-setsize', '40', { timeout: 2_000 })
  }).toPass()
  // The next page is in; a wheel that went on past it may have brought the registry's last one too.
  expect(Number(await items.first().getAttribute('aria-setsize'))).toBeGreaterThanOrEqual(80)
  // The grid renders the rows in view only: every wallet is read by scrolling through it, top to bottom.
  const seen: string[] = []
  await grid.evaluate((element) => element.scrollTo({ top: 0 }))
  for (let top = 0; top < 20_000 && seen.filter(Boolean).length < 80; top += 200) {
    await grid.evaluate((element, top) => element.scrollTo({ top }), top)
    // The rows re-render after the scroll event: read once they cover the grid's box from top to bottom.
    await expect.poll(() => grid.evaluate(rowsCoverView)).toBe(true)
    // Read in one go: the rows re-render as the grid scrolls.
    const shown = await grid.evaluate((element) =>
      [...element.querySelectorAll('li')].map((li) => ({
        at: Number(li.getAttribute('aria-posinset')) - 1,
        name: li.querySelector('button')?.textContent?.trim() ?? '',
      })),
    )
    for (const { at, name } of shown) seen[at] = name
  }
  expect(seen.slice(0, 80)).toEqual(expected)
  const read = seen.filter(Boolean)
  expect(new Set(read).size).toBe(read.length)
})
