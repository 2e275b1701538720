/**
 * The project's allow-list, enforced three times: the modal origin serves a page it knows to be refused (by
 * its Referer) a refusal it may frame, which names the cause; it sends the real modal under CSP
 * `frame-ancestors`, so the browser refuses to frame it on any other page; and the modal reads the list from
 * the API and refuses the handshake, for a browser that would ignore the CSP.
 */
import { createReadStream, existsSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loopbackUrl } from '@airlock/devnet/loopback'
import type { FrameLocator, Page } from '@playwright/test'
import { walletCalls } from '../wallets/index.ts'
import { connectEvm, expect, modalOrigin, request, test } from './fixtures.ts'
import { serve } from './servers.ts'

/** A third origin, not on the demo project's list, serving the demo dApp's own build. */
const thirdOrigin = 'http://127.0.0.1:5177'
const dappDist = fileURLToPath(new URL('../../examples/dapp/dist/', import.meta.url))

// The modal's calls still in flight through a test's routes when it ends (its social providers, say) have
// nobody left to answer: they are let go, not reported as the test's failure.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }))

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

/**
 * A wallet in play: the visitor connected the test wallet on the demo page, and `origin`'s page starts with
 * the storage that left (what the modal remembers of the connection, the wallet's grant to the site). A
 * modal that let `origin` through would reconnect that wallet as the page loads.
 */
async function rememberWallet(page: Page, modal: FrameLocator, origin: string) {
  await page.goto('/')
  await connectEvm(page, modal)
  const stored = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }))
  expect(stored.local[`airlock:${modalOrigin}`]).toContain('Airlock Test Wallet')
  await page.addInitScript(
    ({ origin, stored }) => {
      if (location.origin !== origin) return
      for (const [key, value] of Object.entries(stored.local)) localStorage.setItem(key, value)
      for (const [key, value] of Object.entries(stored.session)) sessionStorage.setItem(key, value)
    },
    { origin, stored },
  )
}

/** The refused page's dApp has no account, and the remembered wallet was never asked for one. */
async function noAccount(page: Page, refusal: string) {
  expect(await request(page, 'eth_accounts')).toEqual({ error: { code: 4100, message: refusal } })
  expect(await walletCalls(page)).toEqual([])
  expect(await page.evaluate(() => window.airlock?.getState().status)).not.toBe('connected')
}

/** Opens the modal and reports how it ended: 'opened', or the error's code and reason. */
const open = (page: Page) =>
  page.evaluate(() =>
    window.airlock?.open().then(
      () => 'opened',
      (error: { code: number; reason?: string; message: string }) =>
        `${error.code} ${error.reason ?? error.message}`,
    ),
  )

test('a third origin not on the project list gets a refusal it can frame, naming its origin', async ({
  page,
  modal,
}) => {
  await rememberWallet(page, modal, thirdOrigin)
  await page.goto(`${thirdOrigin}/module.html`)
  const refusal = `Origin ${thirdOrigin} is not allowed for project 'demo'.`
  expect(await open(page)).toBe(`4100 ${refusal}`)
  await expect(modal.locator('h1')).toHaveText('Invalid App Configuration')
  await expect(modal.locator('[role=alert]')).toHaveText(refusal)
  await noAccount(page, refusal)
})

test('a page that hides where it is gets the real modal only where the project allows: the browser refuses the frame', async ({
  page,
}) => {
  const refusals: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('frame-ancestors')) refusals.push(message.text())
  })
  // Without a Referer the modal origin cannot know the page, so it serves the modal under its CSP.
  await page.goto(`${thirdOrigin}/module.html`)
  await page.evaluate((src) => {
    const frame = document.createElement('iframe')
    frame.referrerPolicy = 'no-referrer'
    frame.src = src
    document.body.append(frame)
  }, `${modalOrigin}/?projectId=demo`)
  await expect
    .poll(() => refusals.join('\n'))
    .toContain(`Framing '${modalOrigin}/' violates the following Content Security Policy`)
  expect(refusals.join('\n')).toContain('frame-ancestors http://localhost:* http://localhost:5173')
})

test('a project id the API does not know: the page is told so, and the modal says it', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?project=nobody')
  expect(await open(page)).toBe("4100 Project 'nobody' is not configured.")
  await expect(modal.locator('h1')).toHaveText('Project ID Not Configured')
})

/**
 * Serves the modal's HTML without its CSP, as a browser that ignores CSP would treat it, and asks for it
 * without a Referer (from Node, so at loopback's address: `loopbackUrl`), so the modal origin cannot tell the page and serves the real modal. A document the test
 * fulfils counts as a public site for Local Network Access, so its calls to the local API are fulfilled by
 * the test too (from the real API), not refused by the browser.
 */
async function ignoreCsp(page: Page) {
  await page.route(`${modalOrigin}/?*`, async (route) => {
    const { referer: _, ...headers } = route.request().headers()
    const response = await route.fetch({ url: loopbackUrl(route.request().url()), headers })
    const answer = { ...response.headers() }
    delete answer['content-security-policy']
    await route.fulfill({ response, headers: answer })
  })
  await page.route('http://127.0.0.1:8787/**', async (route) =>
    route.fulfill({ response: await route.fetch() }),
  )
}

/** A browser that ignores CSP: the modal's own check is then the one that refuses. */
test.describe('where CSP is ignored', () => {
  test.beforeEach(({ page }) => ignoreCsp(page))

  test('the modal itself refuses a third origin: no session, and it says why', async ({ page, modal }) => {
    await rememberWallet(page, modal, thirdOrigin)
    await page.goto(`${thirdOrigin}/module.html`)
    const outcome = await page.evaluate(async () => {
      try {
        return { result: await window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }) }
      } catch (error) {
        return { code: (error as { code: number }).code, message: (error as Error).message }
      }
    })
    const refusal = `Origin ${thirdOrigin} is not allowed for project 'demo'.`
    expect(outcome).toEqual({ code: 4100, message: refusal })
    await noAccount(page, refusal)
    // The host keeps its dialog closed until the dApp opens it; the modal already says why.
    await expect(modal.locator('h1')).toHaveText('Invalid App Configuration')
    await expect(modal.locator('[role=alert]')).toHaveText(refusal)
  })

  test('a refused page learns why at once: calls fail with 4100, open() shows the alert once, the console says how to fix it', async ({
    page,
    modal,
  }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${thirdOrigin}/module.html`)
    // Asked before the frame even exists (it mounts after the page's load event).
    const pending = page.evaluate(() =>
      window.airlock?.providers.eip155.request({ method: 'eth_accounts' }).then(
        () => 'resolved',
        (error: { code: number; message: string }) => `${error.code} ${error.message}`,
      ),
    )
    const refusal = `Origin ${thirdOrigin} is not allowed for project 'demo'.`
    const startedAt = Date.now()
    expect(await pending).toBe(`4100 ${refusal}`)
    expect(Date.now() - startedAt).toBeLessThan(2_000)
    expect(errors).toContainEqual(
      `Airlock: ${refusal}\nAllow it where the API runs: npx airlock-api project add demo ${thirdOrigin}`,
    )
    // The first open() shows the modal's alert; closing it hides the frame, and it is not shown again.
    expect(await open(page)).toBe(`4100 ${refusal}`)
    await expect(modal.getByRole('dialog')).toBeVisible()
    await expect(modal.locator('[role=alert]')).toHaveText(refusal)
    await modal.getByRole('button', { name: 'Close' }).click()
    await expect(page.locator('dialog[data-airlock]')).toBeHidden()
    expect(await open(page)).toBe(`4100 ${refusal}`)
    await expect(page.locator('dialog[data-airlock]')).toBeHidden()
    expect(await request(page, 'eth_requestAccounts')).toEqual({ error: { code: 4100, message: refusal } })
  })
})

test('when the allow-list cannot be fetched, the modal shows the project-id alert and gives no session', async ({
  page,
  modal,
}) => {
  // Connected before, so a modal that let the page through would reconnect the wallet on reload.
  await page.goto('/module.html')
  await connectEvm(page, modal)
  await page.route('http://127.0.0.1:8787/projects/v1/origins?*', (route) => route.abort('connectionrefused'))
  await page.reload()
  const refusal = "The Airlock API could not be reached to check project 'demo'."
  expect(await open(page)).toBe(`4100 ${refusal}`)
  await expect(modal.locator('h1')).toHaveText('Project ID Not Configured')
  await noAccount(page, refusal)
})
