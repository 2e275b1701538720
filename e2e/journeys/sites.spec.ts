/**
 * Sessions across real site boundaries, in Chromium with its defaults: the demo dApp's build on
 * http://dapp.test (mapped to loopback by `--host-resolver-rules`, which is DNS, not a browser setting) framing
 * the modal on http://airlock.localhost:5174; Chromium's "block third-party cookies" setting in a profile of its own;
 * and the dev stack's pair (localhost framing 127.0.0.1) asking for storage access.
 *
 * Where the frame may keep nothing, the host page keeps the modal's non-secret state, and a reload restores
 * the account from the wallet's `eth_accounts`, without a prompt.
 */

import { mkdir, writeFile } from 'node:fs/promises'
import { type BrowserContext, chromium, type LaunchOptions, type Page } from '@playwright/test'
import { walletCalls, walletInitScript } from '../wallets/index.ts'
import { chromiumLaunchOptions } from '../wallets/playwright.config.ts'
import {
  addresses,
  connectEvm,
  expect,
  modalFrame,
  modalOrigin,
  request,
  test,
  walletOptions,
} from './fixtures.ts'
import { serveDapp } from './servers.ts'

const evm = addresses.evm?.address as `0x${string}`
test.use({
  launchOptions: {
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, '--host-resolver-rules=MAP dapp.test 127.0.0.1'],
  },
})

let dapp: Awaited<ReturnType<typeof serveDapp>>
test.beforeAll(async () => {
  dapp = await serveDapp('dapp.test', 'sites')
})
test.afterAll(() => dapp.close())

/** Whether the modal's frame may touch its own `localStorage`; a blocked one throws "Access is denied". */
async function frameStorage(page: Page): Promise<'usable' | 'denied'> {
  const frame = await modalFrame(page)
  return frame.evaluate(() => {
    try {
      localStorage.setItem('@airlock/probe', '1')
      localStorage.removeItem('@airlock/probe')
      return 'usable'
    } catch (error) {
      return (error as Error).message.includes('Access is denied') ? 'denied' : 'usable'
    }
  })
}

/** What the host page keeps for the modal (`airlock:<modal origin>`), as host-sdk writes it. */
const keptByPage = (page: Page) =>
  page.evaluate((origin) => localStorage.getItem(`airlock:${origin}`), modalOrigin)

/** Reloads; the same account comes back, and the wallet was asked nothing that prompts. */
async function reloadRestores(page: Page) {
  await page.reload()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  expect((await request(page, 'eth_accounts')).result).toEqual([evm])
  const calls = (await walletCalls(page)).map((call) => call.method)
  expect(calls).toContain('eth_accounts')
  expect(calls).not.toContain('eth_requestAccounts')
}

/** A persistent profile whose `Default/Preferences` sets Chromium's third-party cookie control. */
async function profile(
  dir: string,
  options: LaunchOptions,
  cookieControlsMode: 0 | 1,
): Promise<BrowserContext> {
  await mkdir(`${dir}/Default`, { recursive: true })
  // This Chromium honours `cookie_controls_mode` (0 allow, 1 block third-party cookies and with them
  // third-party storage, 2 block in incognito only); the older `block_third_party_cookies` alone does nothing.
  await writeFile(
    `${dir}/Default/Preferences`,
    JSON.stringify({ profile: { cookie_controls_mode: cookieControlsMode } }),
  )
  const context = await chromium.launchPersistentContext(dir, { ...options, headless: true })
  await context.addInitScript({ content: await walletInitScript(walletOptions) })
  return context
}

test('dApp and modal on two different sites: a reload restores the account without a prompt', async ({
  page,
  modal,
}) => {
  await page.goto(dapp.origin)
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('host-origin')).toHaveText(dapp.origin)
  await connectEvm(page, modal)
  await reloadRestores(page)
})

test('with third-party cookies blocked the frame has no storage at all, and a reload still restores the account', async ({
  launchOptions,
}, testInfo) => {
  const context = await profile(testInfo.outputPath('profile'), launchOptions, 1)
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto(dapp.origin)
    expect(await frameStorage(page)).toBe('denied')
    await connectEvm(page, page.frameLocator('iframe[title="Airlock"]'))
    // The page keeps the connection for the modal, and nothing secret: only what it could see anyway.
    const kept = JSON.parse((await keptByPage(page)) ?? '{}') as Record<string, string>
    expect(JSON.parse(kept.connections ?? '{}')).toEqual({
      eip155: [expect.objectContaining({ rdns: 'dev.airlock.testwallet', connector: 'injected' })],
    })
    expect(
      Object.keys(kept).every((key) => ['connections', 'recentWallets', 'activeNetwork'].includes(key)),
    ).toBe(true)
    await reloadRestores(page)
    expect(await frameStorage(page)).toBe('denied')
  } finally {
    await context.close()
  }
})

test('where the browser lets the frame keep data, the modal keeps its own and hands the page nothing', async ({
  launchOptions,
}, testInfo) => {
  const context = await profile(testInfo.outputPath('profile'), launchOptions, 0)
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto(dapp.origin)
    expect(await frameStorage(page)).toBe('usable')
    await connectEvm(page, page.frameLocator('iframe[title="Airlock"]'))
    const frame = await modalFrame(page)
    // Under the page's own scope: a store another site may share holds nothing of this one's.
    expect(
      await frame.evaluate((page) => localStorage.getItem(`@airlock/${page}/connections`), dapp.origin),
    ).toContain('injected')
    expect(await frame.evaluate(() => localStorage.getItem('@airlock/connections'))).toBeNull()
    expect(await keptByPage(page)).toBeNull()
    await reloadRestores(page)
  } finally {
    await context.close()
  }
})

test('localhost framing 127.0.0.1 asks for storage access in the wallet click; where the grant brings no storage, the page keeps the state and a reload restores it', async ({
  page,
  context,
  modal,
}) => {
  await context.grantPermissions(['storage-access'])
  // Records the modal's calls to the real API, and what each gave.
  await page.addInitScript((origin) => {
    if (location.origin !== origin) return
    type Call = { types: unknown; outcome: string }
    const calls: Call[] = []
    Object.assign(window, { storageAccessCalls: calls })
    // Chromium's form takes the stores wanted and answers with a handle; the DOM types know only cookies.
    const ask = document.requestStorageAccess.bind(document) as unknown as (
      types: unknown,
    ) => Promise<{ localStorage?: Storage }>
    Object.assign(document, {
      requestStorageAccess(types: unknown) {
        const call: Call = { types, outcome: 'pending' }
        calls.push(call)
        return ask(types).then(
          (handle) => {
            try {
              handle.localStorage?.getItem('@airlock/connections')
              call.outcome = 'storage'
            } catch {
              call.outcome = 'granted, storage denied'
            }
            return handle
          },
          (error: unknown) => {
            call.outcome = 'refused'
            throw error
          },
        )
      },
    })
  }, modalOrigin)
  const calls = async () =>
    (await modalFrame(page)).evaluate(
      () => (window as unknown as { storageAccessCalls: unknown[] }).storageAccessCalls,
    )

  const asked = { localStorage: true, indexedDB: true }
  const denied = { types: asked, outcome: 'granted, storage denied' }

  await page.goto('/')
  // Both are secure contexts (loopback), so the API is open to the frame; its own storage is denied.
  expect(await frameStorage(page)).toBe('denied')
  // Granted before: the modal takes the grant up at start, without waiting for a click.
  await expect.poll(calls).toEqual([denied])
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
  expect(await calls()).toEqual([denied])
  // Still without storage, so the click on a wallet asks again: that is where a prompt may be shown.
  await connectEvm(page, modal)
  await expect.poll(calls).toEqual([denied, denied])
  // Headless Chromium resolves the request (the grant is a permission override: cookies follow, the
  // handle's localStorage still throws "Access is denied"), so the page keeps the state, as without a grant.
  expect(await keptByPage(page)).toContain('connections')
  await reloadRestores(page)
  await expect.poll(calls).toEqual([denied])
})
