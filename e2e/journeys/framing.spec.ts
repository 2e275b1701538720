/**
 * A page whose own Content-Security-Policy refuses the modal frame (`frame-src`): Airlock notices at once,
 * fails what was asked outside a click with the cause named, and opens the modal in a window of its own
 * origin from the next click, where a connect completes.
 */
import { createReadStream, existsSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { addresses, expect, request, test } from './fixtures.ts'
import { serve } from './servers.ts'

/** On the demo project's list (`http://localhost:*`), but its CSP allows no frame at all. */
const strictOrigin = 'http://localhost:5181'
const dappDist = fileURLToPath(new URL('../../examples/dapp/dist/', import.meta.url))
const refused =
  "This page's Content-Security-Policy refuses the Airlock frame; Airlock opens in a window, from a click."

let server: Awaited<ReturnType<typeof serve>>
test.beforeAll(async () => {
  server = await serve(strictOrigin, (path, response) => {
    const file = join(dappDist, path === '/' ? 'index.html' : path)
    if (!file.startsWith(dappDist) || !existsSync(file)) return response.writeHead(404).end()
    const type = extname(file) === '.js' ? 'text/javascript' : 'text/html'
    response.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': "frame-src 'none'" })
    createReadStream(file).pipe(response)
  })
})
test.afterAll(() => server.close())

test('a page that refuses frames gets the modal in a window from a click, and connects there', async ({
  page,
}) => {
  // Asked by the page on its own, outside any click (Playwright's evaluate counts as one), so no window may
  // open: the call fails at once and says why.
  await page.addInitScript(() => {
    addEventListener('load', () =>
      setTimeout(() =>
        window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }).catch((error) => {
          Object.assign(window, { unprompted: { code: error.code, message: error.message } })
        }),
      ),
    )
  })
  await page.goto(`${strictOrigin}/module.html`)
  await expect
    .poll(() => page.evaluate(() => (window as { unprompted?: unknown }).unprompted))
    .toEqual({ code: 4900, message: refused })
  expect(page.frames().some((frame) => frame.url().includes('airlock.localhost:5174'))).toBe(false)

  const opened = page.context().waitForEvent('page')
  await page.getByRole('button', { name: /open/i }).click()
  const modal = await opened
  expect(new URL(modal.url()).origin).toBe('http://airlock.localhost:5174')
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect
    .poll(async () => (await request(page, 'eth_accounts')).result)
    .toEqual([addresses.evm?.address])
  // Closing the modal closes its window; the page stays connected.
  // The window may be gone before the click's own bookkeeping ends; its closing is what is asserted.
  const closed = modal.waitForEvent('close')
  await modal
    .getByRole('button', { name: 'Close' })
    .click({ noWaitAfter: true })
    .catch(() => {})
  await closed
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  expect(await request(page, 'eth_accounts')).toEqual({ result: [addresses.evm?.address] })
})
