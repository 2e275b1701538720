import { expect, test } from './fixtures.ts'

test('the frame is sandboxed exactly as the trust model says and shown in a labelled top-layer dialog', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  const frame = page.locator('iframe[title="Airlock"]')
  await expect(frame).toHaveAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms allow-storage-access-by-user-activation',
  )
  await expect(frame).toHaveAttribute(
    'allow',
    'clipboard-write;publickey-credentials-get;publickey-credentials-create',
  )
  await expect(page.locator('dialog[data-airlock]')).toHaveAttribute('aria-label', 'Airlock')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  expect(await page.evaluate(() => document.querySelector('dialog[data-airlock]')?.matches(':modal'))).toBe(
    true,
  )
})

test('closed, the frame keeps its size unseen: nothing of it is shown, hit, focused or read, and its card is laid out', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await expect(modal.locator('[data-testid="wallet-list"] button').first()).toBeAttached()
  const host = await page.evaluate(() => {
    const dialog = document.querySelector('dialog[data-airlock]') as HTMLDialogElement
    const box = dialog.querySelector('iframe')?.getBoundingClientRect()
    const style = getComputedStyle(dialog)
    return {
      open: dialog.open,
      visibility: style.visibility,
      position: style.position,
      frame: box && [box.width, box.height],
      viewport: [innerWidth, innerHeight],
      hit: document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('dialog') === dialog,
    }
  })
  expect(host).toMatchObject({ open: false, visibility: 'hidden', position: 'fixed', hit: false })
  expect(host.frame).toEqual(host.viewport)
  // Unseen inside too (so no role or text of it is found), yet laid out at its size: opening only paints.
  await expect(modal.getByRole('dialog')).toBeHidden()
  const card = await modal.locator('.card').evaluate((element) => {
    const { width, height } = element.getBoundingClientRect()
    return { width, height, visibility: getComputedStyle(element).visibility }
  })
  expect(card.visibility).toBe('hidden')
  expect(card.width).toBeGreaterThan(300)
  expect(card.height).toBeGreaterThan(100)
  await page.keyboard.press('Tab')
  expect(await modal.locator(':focus').count()).toBe(0)

  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  expect(
    await page.evaluate(
      () => getComputedStyle(document.querySelector('dialog[data-airlock]') as Element).visibility,
    ),
  ).toBe('visible')
})

test('focus stays in the modal while open, and focus and scroll come back on close', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.evaluate(() => {
    document.body.style.height = '3000px'
    window.scrollTo(0, 200)
  })
  const opener = page.getByRole('button', { name: 'Open Airlock' })
  await opener.focus()
  const scrolled = await page.evaluate(() => window.scrollY)
  expect(scrolled).toBeGreaterThan(0)
  await opener.press('Enter')
  await expect(modal.getByRole('dialog')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden')

  // However far a keyboard user tabs, focus stays on the card's controls.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    const inCard = await modal
      .locator(':focus')
      .evaluate((el) => !!el.closest('[role="dialog"]'))
      .catch(() => false)
    expect(inCard).toBe(true)
  }

  await page.keyboard.press('Escape')
  await expect(modal.getByRole('dialog')).toBeHidden()
  await expect(opener).toBeFocused()
  expect(await page.evaluate(() => [document.documentElement.style.overflow, window.scrollY])).toEqual([
    '',
    scrolled,
  ])
})

test('Wallet Standard apps on the page find Airlock for Solana and Bitcoin', async ({ page }) => {
  await page.goto('/')
  const found = await page.evaluate(() => {
    const wallets: Array<{ name: string; chains: readonly string[]; features: string[] }> = []
    const register = (wallet: { name: string; chains: readonly string[]; features: object }) => {
      wallets.push({ name: wallet.name, chains: wallet.chains, features: Object.keys(wallet.features) })
      return () => {}
    }
    // What @wallet-standard/app's getWallets() does when a dApp starts after the wallets.
    window.dispatchEvent(Object.assign(new Event('wallet-standard:app-ready'), { detail: { register } }))
    return wallets.filter((w) => w.name === 'Airlock')
  })
  expect(found).toEqual([
    {
      name: 'Airlock',
      // The demo's own chains have no Wallet Standard names: their CAIP-2 ids stand in.
      chains: ['solana:5Rqo9UxdHy9JBtqyVvuwV4Sv7wuDnKNh'],
      features: expect.arrayContaining([
        'standard:connect',
        'solana:signMessage',
        'solana:signAndSendTransaction',
      ]),
    },
    {
      name: 'Airlock',
      chains: ['bip122:530827f38f93b43ed12af0b3ad25a288'],
      features: expect.arrayContaining(['bitcoin:connect', 'bitcoin:signMessage', 'bitcoin:signTransaction']),
    },
  ])
})

test('airlock.js loaded twice: one frame, the first instance kept, one console error naming the fix', async ({
  page,
  modal,
}) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('Airlock')) errors.push(message.text())
  })
  await page.goto('/plain.html')
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(1)
  // The same tag once more, as a page that includes it from two templates does.
  const kept = await page.evaluate(async () => {
    const first = window.airlock
    const again = document.createElement('script')
    again.src = (document.querySelector('script[src$="/airlock.js"]') as HTMLScriptElement).src
    Object.assign(again.dataset, { projectId: 'demo', networks: 'eip155:31337' })
    await new Promise((resolve, reject) => {
      again.onload = resolve
      again.onerror = reject
      document.head.append(again)
    })
    return window.airlock === first
  })
  expect(kept).toBe(true)
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(
    /^Airlock (\S+) not started: \1 already runs here\. Load it once, or destroy\(\) it first\.$/,
  )
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(1)
})

test('destroy() removes the frame and stops announcing Airlock', async ({ page }) => {
  await page.goto('/')
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(1)
  const announced = () =>
    page.evaluate(() => {
      const names: string[] = []
      const listener = (event: Event) => names.push((event as CustomEvent).detail.info.rdns)
      window.addEventListener('eip6963:announceProvider', listener)
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      window.removeEventListener('eip6963:announceProvider', listener)
      return names
    })
  expect(await announced()).toContain('dev.airlock')
  await page.evaluate(() => window.airlock?.destroy())
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(0)
  expect(await announced()).not.toContain('dev.airlock')
  expect(await announced()).toContain('dev.airlock.testwallet')
  const after = await page.evaluate(() =>
    window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }).catch((error) => error.code),
  )
  expect(after).toBe(4900)
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(0)
})

test('the host sets the theme: dark mode and an accent colour reach the modal, a hostile value does not', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?theme=dark&accent=%23ff5500')
  await page.evaluate(() => window.airlock?.open())
  const card = modal.getByRole('dialog')
  await expect(card).toBeVisible()
  const frame = page.frames().find((f) => f.url().startsWith('http://airlock.localhost:5174'))
  const style = await frame?.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    accent: getComputedStyle(document.documentElement).getPropertyValue('--airlock-accent').trim(),
    background: getComputedStyle(document.querySelector('[role="dialog"]') as Element).backgroundColor,
  }))
  expect(style?.theme).toBe('dark')
  expect(style?.accent).toBe('#ff5500')
  // A dark card: every channel of its background is dim.
  const channels = (style?.background.match(/\d+/g) ?? []).slice(0, 3).map(Number)
  expect(Math.max(...channels)).toBeLessThan(80)

  await page.goto(`/module.html?accent=${encodeURIComponent('url(https://tracker.example/x)')}`)
  await page.evaluate(() => window.airlock?.open())
  await expect(card).toBeVisible()
  const hostile = await page
    .frames()
    .find((f) => f.url().startsWith('http://airlock.localhost:5174'))
    ?.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--airlock-accent').trim())
  expect(hostile).toBe('')
})
