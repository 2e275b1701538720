import { setWalletMode } from '../wallets/index.ts'
import { axeViolations, connectEvm, expect, modalFrame, test } from './fixtures.ts'

test('Connect, Account and Networks pass axe and work by keyboard', async ({ page, modal }) => {
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('wallet-list')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  // Keyboard only: Tab to the wallet and press Enter.
  const wallet = modal.getByRole('button', { name: 'Airlock Test Wallet' })
  for (let i = 0; i < 20 && !(await wallet.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('account-address')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await modal.getByTestId('account-network').click()
  await expect(modal.getByRole('button', { name: /Airlock Devnet B/ })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await page.keyboard.press('Escape')
  await expect(modal.getByRole('dialog')).toBeHidden()
})

test('closing the modal while a dApp waits for accounts rejects with 4001', async ({ page, modal }) => {
  await page.goto('/')
  const pending = page.evaluate(() =>
    window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }).then(
      () => 'resolved',
      (error: { code: number }) => error.code,
    ),
  )
  await expect(modal.getByRole('dialog')).toBeVisible()
  await modal.getByRole('button', { name: 'Close' }).click()
  expect(await pending).toBe(4001)
  await expect(page.locator('dialog[data-airlock]')).not.toHaveAttribute('open')
  await connectEvm(page, modal)
})

test('a rejected connect shows the error on ConnectingExternal, which passes axe, and Try again works', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await setWalletMode(page, 'reject')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByRole('alert').filter({ hasText: 'User rejected the request.' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await setWalletMode(page, 'approve')
  await modal.getByRole('button', { name: 'Try again' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
})

test('a view that loads on demand takes focus inside its body, not on Back or Close', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await modal.getByTestId('account-network').click()
  await expect(modal.getByRole('button', { name: /Airlock Devnet B/ })).toBeVisible()
  const frame = await modalFrame(page)
  const active = () =>
    frame.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      return { tag: el?.tagName, label: el?.getAttribute('aria-label') ?? el?.textContent?.trim() }
    })
  await expect.poll(active).toMatchObject({ tag: 'BUTTON' })
  expect((await active()).label).not.toMatch(/^(Back|Close)$/)
})

test('ConnectingWalletConnect and AllWallets pass axe; the wallet grid works by keyboard', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await modal.getByRole('button', { name: 'Back' }).click()

  await modal.getByRole('button', { name: 'All Wallets' }).click()
  const grid = modal.getByTestId('all-wallets')
  // Virtualised: the first page is in (each wallet knows its place among 40), its visible rows rendered.
  await expect(grid.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '40')
  expect(await axeViolations(page)).toEqual([])
  // The search box takes focus first; Tab reaches the grid, arrows move through it, Enter picks.
  await expect(modal.getByRole('searchbox', { name: 'Search wallet' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(grid.getByRole('button').nth(0)).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(grid.getByRole('button').nth(1)).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(grid.getByRole('button').nth(5)).toBeFocused()
  const name = (await grid.getByRole('button').nth(5).textContent()) ?? ''
  await page.keyboard.press('Enter')
  await expect(modal.getByRole('heading', { name })).toBeVisible()
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})
