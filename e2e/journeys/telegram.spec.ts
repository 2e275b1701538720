/**
 * The demo dApp as a Telegram mini-app (docs/behaviour.md §2, §4): the page defines `Telegram.WebApp` before
 * Airlock loads, as Telegram's own script does, and the host SDK passes its platform and version to the
 * modal, which offers the logins that platform can finish and counts a waiting pairing as connecting. A
 * social login there leaves the page and comes back with `?result_uri=`, which the host takes out of the
 * address at once. It leaves only where the modal's frame keeps storage for the login's binding: Chromium,
 * with its defaults, gives a frame of another site none (the dev stack's localhost framing
 * airlock.localhost), and a frame of the page's own site its first-party storage (the demo dApp's build
 * served under airlock.localhost), where the whole return runs, against the stack's API and OIDC provider.
 */

import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB } from '@airlock/devnet/chains'
import type { FrameLocator, Page, Request } from '@playwright/test'
import type { Address, Hex } from 'viem'
import { createPeer } from '../wallets/walletconnect-peer.ts'
import { createWalletByEmail } from './emailFixtures.ts'
import { expect, modalFrame, request, test } from './fixtures.ts'
import { serveDapp } from './servers.ts'

const allSocials = ['Google', 'X', 'Discord', 'Farcaster', 'GitHub', 'Apple', 'Facebook']

/** Opens the demo dApp (at `url`) as Telegram's client on `platform` shows it. */
async function openIn(page: Page, platform: string, url = '/') {
  await page.addInitScript((platform) => {
    Object.assign(window, { Telegram: { WebApp: { platform, version: '8.0', initData: '' } } })
  }, platform)
  await page.goto(url)
  await page.getByRole('button', { name: 'Open Airlock' }).click()
}

const status = (page: Page) => page.evaluate(() => window.airlock?.getState().status)
const account = async (page: Page) => ((await request(page, 'eth_accounts')).result as Address[])[0]

/** Whether the modal's frame may keep anything in its own storage; a browser that denies it throws. */
async function frameKeeps(page: Page): Promise<boolean> {
  return (await modalFrame(page)).evaluate(() => {
    try {
      return localStorage.getItem('@airlock/probe') === null
    } catch {
      return false
    }
  })
}

const socials = (modal: FrameLocator) =>
  modal
    .getByRole('list', { name: 'Continue with a social account' })
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) => button.getAttribute('aria-label')?.replace('Continue with ', '')),
    )

/** The host's mirrored view and status, once the modal shows the WalletConnect QR code. */
async function whilePairing(page: Page, modal: FrameLocator) {
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
  await expect
    .poll(() => page.evaluate(() => window.airlock?.getState().view))
    .toBe('ConnectingWalletConnectBasic')
  return page.evaluate(() => window.airlock?.getState().status)
}

test('on iOS the social logins leave out Google, which cannot finish there', async ({ page, modal }) => {
  await openIn(page, 'ios')
  await expect.poll(() => socials(modal)).toEqual(allSocials.filter((name) => name !== 'Google'))
})

test('on Android they leave out Facebook and X', async ({ page, modal }) => {
  await openIn(page, 'android')
  await expect
    .poll(() => socials(modal))
    .toEqual(allSocials.filter((name) => name !== 'Facebook' && name !== 'X'))
})

test('Telegram’s script opened outside Telegram (platform "unknown") is an ordinary page: every login, and a pairing that waits quietly', async ({
  page,
  modal,
}) => {
  await openIn(page, 'unknown')
  await expect.poll(() => socials(modal)).toEqual(allSocials)
  expect(await whilePairing(page, modal)).toBe('disconnected')
})

test('in a mini-app a waiting pairing counts as connecting for the dApp, and the phone wallet still pairs', async ({
  page,
  modal,
  context,
}) => {
  const peer = await createPeer({
    relayUrl: 'ws://127.0.0.1:8790',
    privateKey: Accounts.all()[2]?.privateKey as Hex,
    chains: [devnetA, devnetB],
  })
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await openIn(page, 'android')
    expect(await whilePairing(page, modal)).toBe('connecting')
    await modal.getByRole('button', { name: 'Copy link' }).click()
    await expect(modal.getByTestId('snackbar')).toContainText('Link copied')
    await peer.pair(await page.evaluate(() => navigator.clipboard.readText()))
    await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
    await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  } finally {
    await peer.stop()
  }
})

for (const platform of ['ios', 'android']) {
  test(`on ${platform} a result_uri the page comes back with leaves the address at once, and a forged one opens nothing`, async ({
    page,
    modal,
  }) => {
    const exchanges: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/v1/auth/social/exchange')) exchanges.push(request.url())
    })
    await page.addInitScript((platform) => {
      Object.assign(window, { Telegram: { WebApp: { platform, version: '8.0', initData: '' } } })
    }, platform)
    // A link to the dApp with an attacker's result: no login of this modal left the page, so nothing is asked.
    await page.goto(`/?tab=1&result_uri=${'A'.repeat(43)}`)
    await expect.poll(() => page.url()).not.toContain('result_uri')
    expect(new URL(page.url()).searchParams.get('tab')).toBe('1')
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    await expect(modal.getByRole('button', { name: 'Continue with GitHub' })).toBeVisible()
    expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
    expect(exchanges).toEqual([])
  })
}

test('in a mini-app a social login leaves the page only where the modal can keep its binding: the dev stack’s pair (localhost framing airlock.localhost) is two sites, the frame gets no storage, so it says so and stays', async ({
  page,
  modal,
}) => {
  await openIn(page, 'android')
  expect(await frameKeeps(page)).toBe(false)
  const at = page.url()
  await modal.getByRole('button', { name: 'Continue with GitHub' }).click()
  await expect(modal.getByTestId('social-error')).toHaveText(
    'This browser keeps nothing for the sign-in while it leaves the app. Sign in another way.',
  )
  expect(page.url()).toBe(at)
})

test.describe('a mini-app on the modal’s own site', () => {
  // Its frame is same-site, so first-party: Chromium keeps its storage with every default in place.
  let dapp: Awaited<ReturnType<typeof serveDapp>>
  test.beforeAll(async () => {
    dapp = await serveDapp('dapp.airlock.localhost', 'sites')
  })
  test.afterAll(() => dapp.close())

  // An email login, a wallet made with PBKDF2's 600,000 rounds, and the provider's pages: minutes on a busy machine.
  test.describe.configure({ timeout: 300_000 })

  test('GitHub’s login leaves the page and comes back with result_uri, which leaves the address at once; the same wallet opens, and the result opens nothing twice', async ({
    page,
    modal,
  }) => {
    const login = `tg-${Date.now()}`
    const returns: string[] = []
    const exchanges: Request[] = []
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().includes('result_uri=')) returns.push(request.url())
      if (request.url().includes('/v1/auth/social/exchange')) exchanges.push(request)
    })
    await openIn(page, 'android', dapp.origin)
    expect(await frameKeeps(page)).toBe(true)
    // The wallet of GitHub's verified address, made by its code first; the frame keeps the login itself.
    await createWalletByEmail(modal, `${login}@github.test`, new Date(), 'frame')
    await expect.poll(() => status(page)).toBe('connected')
    const wallet = await account(page)
    await page.evaluate(() => window.airlock?.open())
    await modal.getByRole('button', { name: /^Disconnect( all)?$/ }).click()
    await expect.poll(() => status(page)).toBe('disconnected')

    await page.evaluate(() => window.airlock?.open())
    await modal.getByRole('button', { name: 'Continue with GitHub' }).click()
    // The provider's pages, in the mini-app's own view: no window beside it.
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('any')
    await page.locator('button[type="submit"]').click()
    await page.locator('button[type="submit"]').click()
    await expect.poll(() => status(page)).toBe('connected')
    expect(await account(page)).toBe(wallet)
    expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual(
      expect.objectContaining({ email: `${login}@github.test`, socialProvider: 'github' }),
    )
    expect(page.context().pages()).toHaveLength(1)
    // Back on the page it left, with the result, which the host took out of the address.
    expect(returns).toHaveLength(1)
    const back = new URL(returns[0] as string)
    expect(back.origin + back.pathname).toBe(`${dapp.origin}/`)
    expect(page.url()).toBe(`${dapp.origin}/`)
    expect(exchanges).toHaveLength(1)

    // The very exchange the modal made, with its binding, sent again: the state was used once.
    const exchange = exchanges[0] as Request
    const again = await (await modalFrame(page)).evaluate(
      async ({ url, body }) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        })
        return { status: response.status, body: await response.json() }
      },
      { url: exchange.url(), body: exchange.postData() },
    )
    expect(again).toEqual({ status: 401, body: { message: 'Invalid handoff' } })
    const asked = exchanges.length
    // The page it came back to, opened again: the result leaves the address, and nothing is asked for; the
    // login the frame kept opens the same wallet.
    await page.goto(returns[0] as string)
    await expect.poll(() => page.url()).toBe(`${dapp.origin}/`)
    await expect.poll(() => status(page)).toBe('connected')
    expect(await account(page)).toBe(wallet)
    expect(exchanges).toHaveLength(asked)
  })
})
