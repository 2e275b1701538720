/**
 * The project's allow-list, enforced twice: the modal origin sends it as CSP `frame-ancestors`, so the
 * browser refuses to frame the modal on any other page; and the modal reads it from the API and refuses
 * the handshake, for a browser that would ignore the CSP.
 */
import { createReadStream, existsSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, modalOrigin, serve, test } from './fixtures.ts'

/** A third origin, not on the demo project's list, serving the demo dApp's own build. */
const thirdOrigin = 'http://127.0.0.1:5177'
const dappDist = fileURLToPath(new URL('../../examples/dapp/dist/', import.meta.url))

let server: Awaited<ReturnType<typeof serve>>
test.beforeAll(async () => {
  server = await serve(thirdOrigin, (path, response) => {
    const file = join(dappDist, path === '/' ? 'index.html' : path)
    if (!file.startsWith(dappDist) || !existsSync(file)) return response.writeHead(404).end()
    const type = extname(file) === '.js' ? 'text/javascript' : 'text/html'
    response.writeHead(200, { 'Content-Type': type })
    createReadStream(file).pipe(response)
  })
})
test.afterAll(() => server.close())

/** Opens the modal and reports how it ended: 'opened', or the error's code and reason. */
const open = (page: Page) =>
  page.evaluate(() =>
    window.airlock?.open().then(
      () => 'opened',
      (error: { code: number; reason?: string; message: string }) =>
        `${error.code} ${error.reason ?? error.message}`,
    ),
  )

test('a third origin not on the project list cannot frame the modal: the browser refuses it', async ({
  page,
}) => {
  const refusals: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('frame-ancestors')) refusals.push(message.text())
  })
  await page.goto(`${thirdOrigin}/module.html?loadTimeout=2000`)
  expect(await open(page)).toBe('-32603 iframe_load_failed')
  expect(refusals.join('\n')).toContain(
    `Framing '${modalOrigin}/' violates the following Content Security Policy`,
  )
  expect(refusals.join('\n')).toContain('frame-ancestors http://localhost:* http://localhost:5173')
  // No modal document ever ran in the frame.
  expect(page.frames().some((frame) => frame.url().startsWith(modalOrigin))).toBe(false)
  expect(await page.evaluate(() => window.airlock?.getState().status)).not.toBe('connected')
})

test('a project id the API does not know: no page may frame its modal', async ({ page }) => {
  await page.goto('/module.html?project=nobody&loadTimeout=2000')
  expect(await open(page)).toBe('-32603 iframe_load_failed')
})

/**
 * Serves the modal's HTML without its CSP, as a browser that ignores CSP would treat it. A document the test
 * fulfils counts as a public site for Local Network Access, so its calls to the local API are fulfilled by
 * the test too (from the real API), not refused by the browser.
 */
async function ignoreCsp(page: Page) {
  await page.route(`${modalOrigin}/?*`, async (route) => {
    const response = await route.fetch()
    const headers = { ...response.headers() }
    delete headers['content-security-policy']
    await route.fulfill({ response, headers })
  })
  await page.route('http://127.0.0.1:8787/**', async (route) =>
    route.fulfill({ response: await route.fetch() }),
  )
}

/** A browser that ignores CSP: the modal's own check is then the one that refuses. */
test.describe('where CSP is ignored', () => {
  test.beforeEach(({ page }) => ignoreCsp(page))

  test('the modal itself refuses a third origin: no session, and it says why', async ({ page, modal }) => {
    await page.goto(`${thirdOrigin}/module.html`)
    const outcome = await page.evaluate(async () => {
      try {
        return { result: await window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }) }
      } catch (error) {
        return { code: (error as { code: number }).code, message: (error as Error).message }
      }
    })
    expect(outcome).toEqual({ code: 4100, message: 'Invalid App Configuration' })
    expect(await page.evaluate(() => window.airlock?.getState().status)).not.toBe('connected')
    // The host keeps its dialog closed for a refused page; the modal still says why, for the developer.
    await expect(modal.locator('h1')).toHaveText('Invalid App Configuration')
    await expect(modal.locator('[role=alert]')).toContainText('This site is not allowed to use this project.')
  })

  test('a project id the API does not know: the modal refuses it too, and says the project is not configured', async ({
    page,
    modal,
  }) => {
    await page.goto('/module.html?project=nobody')
    expect(await open(page)).toBe('4100 Invalid App Configuration')
    await expect(modal.locator('h1')).toHaveText('Project ID Not Configured')
  })
})

test('when the allow-list cannot be fetched, the modal shows the project-id alert and gives no session', async ({
  page,
  modal,
}) => {
  await page.route('http://127.0.0.1:8787/projects/v1/origins?*', (route) => route.abort('connectionrefused'))
  await page.goto('/module.html')
  expect(await open(page)).toBe('4100 Invalid App Configuration')
  await expect(modal.locator('h1')).toHaveText('Project ID Not Configured')
  expect(await page.evaluate(() => window.airlock?.getState().status)).not.toBe('connected')
})
