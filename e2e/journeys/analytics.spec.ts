/**
 * Usage events reach the API only with the visitor's consent: docs/behaviour.md §1 (`analytics`,
 * `analyticsConsent`) and §7 (analytics: nothing with `features.analytics: false`, nothing for
 * MODAL_CREATED, nothing before the visitor has seen the notice line or the host gave `analyticsConsent`).
 * The demo project has analytics on (devnet's seed); the `sites` project, served on a site of its own, has
 * them off. What arrived is read from the API's own answers to `POST /e` (`stored`: kept in its database).
 *
 * "Nothing arrived" is asserted once the modal has asked the API for the connected account's balance: the
 * modal reports a connect as it happens, before the Account view it leads to reads the balance, so an event
 * that was going to be sent has been by then.
 */

import type { FrameLocator, Page, Request } from '@playwright/test'
import { chromiumLaunchOptions } from '../wallets/playwright.config.ts'
import { addresses, connectEvm, expect, test } from './fixtures.ts'
import { serveDapp } from './servers.ts'

// The `sites` project's page is served on http://dapp.test (mapped to loopback: DNS, not a browser setting).
test.use({
  launchOptions: {
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, '--host-resolver-rules=MAP dapp.test 127.0.0.1'],
  },
})

type Sent = { event: string; stored: boolean | undefined }

const isEvent = (request: Request) => {
  const url = new URL(request.url())
  return url.port === '8787' && url.pathname === '/e' && request.method() === 'POST'
}

/** Every event the page's modal posts to the API from now on, with whether the API stored it. */
function events(page: Page): Sent[] {
  const sent: Sent[] = []
  page.on('request', (request) => {
    if (!isEvent(request)) return
    const entry: Sent = {
      event: (request.postDataJSON() as { props: { event: string } }).props.event,
      stored: undefined,
    }
    sent.push(entry)
    void request
      .response()
      .then((response) => response?.json())
      .then((answer: { stored?: boolean } | undefined) => {
        entry.stored = answer?.stored
      })
      // A page closed before the answer came leaves the event unanswered: it was still sent.
      .catch(() => undefined)
  })
  return sent
}

/** Connects the test wallet and waits until the modal has read the new account's balance from the API. */
async function connectAndSettle(page: Page, modal: FrameLocator) {
  const evm = addresses.evm?.address as string
  const balance = page.waitForRequest((request) =>
    new URL(request.url()).pathname.startsWith(`/v1/account/${evm}/balance`),
  )
  await connectEvm(page, modal)
  await balance
}

const notice = (modal: FrameLocator) => modal.getByTestId('analytics-notice')

/**
 * Loads `url` and opens the modal once it knows whether the project records usage (it asks the API as it
 * starts, while the frame is still hidden).
 */
async function openAndAsk(page: Page, url: string) {
  const asked = page.waitForResponse((response) => response.url().includes('/getAnalyticsConfig'))
  await page.goto(url)
  await asked
  await page.evaluate(() => window.airlock?.open())
}

test('the notice shown, a connect is recorded: its events arrive and are stored, MODAL_CREATED never', async ({
  page,
  modal,
}) => {
  const sent = events(page)
  await openAndAsk(page, '/module.html')
  await expect(notice(modal)).toHaveText(/This site records how this dialog is used, to improve it\./)
  await connectAndSettle(page, modal)
  await expect
    .poll(() => sent.map(({ event, stored }) => `${event} ${stored}`))
    .toEqual(['CONNECT_STARTED true', 'CONNECT_SUCCESS true'])
})

test('“Don’t share” on the notice: the connect that follows sends nothing', async ({ page, modal }) => {
  const sent = events(page)
  await openAndAsk(page, '/module.html')
  await notice(modal).getByRole('button', { name: 'Don’t share' }).click()
  await expect(notice(modal)).toHaveCount(0)
  await connectAndSettle(page, modal)
  expect(sent).toEqual([])
})

test('features.analytics false: no notice, and nothing is sent', async ({ page, modal }) => {
  const sent = events(page)
  const options = encodeURIComponent(JSON.stringify({ features: { analytics: false } }))
  await page.goto(`/module.html?options=${options}`)
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
  await expect(notice(modal)).toHaveCount(0)
  await connectAndSettle(page, modal)
  expect(sent).toEqual([])
})

test('analyticsConsent from the host: no notice, and the connect’s events arrive and are stored', async ({
  page,
  modal,
}) => {
  const sent = events(page)
  const options = encodeURIComponent(JSON.stringify({ features: { analyticsConsent: true } }))
  await openAndAsk(page, `/module.html?options=${options}`)
  await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
  await expect(notice(modal)).toHaveCount(0)
  await connectAndSettle(page, modal)
  await expect
    .poll(() => sent.map(({ event, stored }) => `${event} ${stored}`))
    .toEqual(['CONNECT_STARTED true', 'CONNECT_SUCCESS true'])
})

test.describe('a project with analytics off', () => {
  test('no notice, and nothing is sent, even with the host’s consent', async ({ page, modal }) => {
    const dapp = await serveDapp('dapp.test', 'sites')
    try {
      for (const features of [{}, { analyticsConsent: true }]) {
        const sent = events(page)
        const options = encodeURIComponent(JSON.stringify({ features }))
        await openAndAsk(page, `${dapp.origin}/module.html?project=sites&options=${options}`)
        await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
        await expect(notice(modal)).toHaveCount(0)
        await connectAndSettle(page, modal)
        expect(sent).toEqual([])
        await page.evaluate(() => window.airlock?.disconnect())
      }
    } finally {
      await dapp.close()
    }
  })
})
