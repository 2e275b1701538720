/**
 * The modal origin runs only its own files: every page it serves (the modal, the approval window, the
 * social-login landing) carries `script-src 'self'`, in its headers and, for a plain static host that sends
 * none, in the HTML itself. Markup slipped into any of them (an inline script, an inline handler) does not
 * run, and the modal works under the policy.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Frame, Page } from '@playwright/test'
import { connectEvm, expect, modalFrame, modalOrigin, request, test } from './fixtures.ts'

const dist = fileURLToPath(new URL('../../modal-app/dist/', import.meta.url))

/** Slips an inline script and an inline handler into the document; says which of them ran. */
function inject(target: Page | Frame): Promise<{ script: boolean; handler: boolean }> {
  return target.evaluate(() => {
    const ran = window as unknown as { injectedScript?: boolean; injectedHandler?: boolean }
    const script = document.createElement('script')
    script.textContent = 'window.injectedScript = true'
    document.body.append(script)
    const button = document.createElement('button')
    button.setAttribute('onclick', 'window.injectedHandler = true')
    document.body.append(button)
    button.click()
    return { script: ran.injectedScript === true, handler: ran.injectedHandler === true }
  })
}

const nothingRan = { script: false, handler: false }

/** Each page of the modal origin other than the modal, opened as the top-level window it is meant to be. */
async function windowPages(page: Page) {
  for (const path of ['/approve.html', '/social.html']) {
    const other = await page.context().newPage()
    await other.goto(`${modalOrigin}${path}`)
    expect(await inject(other), path).toEqual(nothingRan)
    await other.close()
  }
}

test('the modal origin’s pages run none of a script slipped into them, and the modal connects', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  expect(await inject(await modalFrame(page))).toEqual(nothingRan)
  await windowPages(page)
})

/**
 * A plain static host: the build's files as they are, with a content type and no other header. A document
 * the test fulfils counts as a public site for Local Network Access, so its calls to the local API are
 * fulfilled by the test too (from the real API), not refused by the browser.
 */
test('served by a plain static host, the HTML carries the policy itself: the modal connects, a slipped-in script does not run', async ({
  page,
  modal,
}) => {
  const isPage = (url: URL) =>
    url.origin === modalOrigin && (url.pathname === '/' || url.pathname.endsWith('.html'))
  await page.context().route(isPage, async (route) => {
    const path = new URL(route.request().url()).pathname
    const body = await readFile(`${dist}${path === '/' ? 'index.html' : path.slice(1)}`)
    await route.fulfill({ body, headers: { 'Content-Type': 'text/html; charset=utf-8' } })
  })
  await page
    .context()
    .route('http://127.0.0.1:8787/**', async (route) => route.fulfill({ response: await route.fetch() }))
  await page.goto('/')
  await connectEvm(page, modal)
  expect((await request(page, 'eth_accounts')).result).toHaveLength(1)
  expect(await inject(await modalFrame(page))).toEqual(nothingRan)
  await windowPages(page)
  await page.context().unrouteAll({ behavior: 'ignoreErrors' })
})
