/**
 * The demo dApp as a Telegram mini-app (docs/behaviour.md §2, §4): the page defines `Telegram.WebApp` before
 * Airlock loads, as Telegram's own script does, and the host SDK passes its platform and version to the
 * modal, which offers the logins that platform can finish and counts a waiting pairing as connecting. A
 * social login there leaves the page and comes back with `?result_uri=`, which the host takes out of the
 * address at once; the whole return runs against the real API and provider in `social/Leave.test.ts`.
 */

import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import type { Hex } from 'viem'
import { createPeer } from '../wallets/walletconnect-peer.ts'
import { expect, test } from './fixtures.ts'

const allSocials = ['Google', 'X', 'Discord', 'Farcaster', 'GitHub', 'Apple', 'Facebook']

/** Opens the demo dApp as Telegram's client on `platform` shows it. */
async function openIn(page: Page, platform: string) {
  await page.addInitScript((platform) => {
    Object.assign(window, { Telegram: { WebApp: { platform, version: '8.0', initData: '' } } })
  }, platform)
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
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

test('in a mini-app a social login leaves the page only where the modal can keep its binding: Chromium’s defaults give the frame none, so it says so and stays', async ({
  page,
  modal,
}) => {
  await openIn(page, 'android')
  const at = page.url()
  await modal.getByRole('button', { name: 'Continue with GitHub' }).click()
  await expect(modal.getByTestId('social-error')).toHaveText(
    'This browser keeps nothing for the sign-in while it leaves the app. Sign in another way.',
  )
  expect(page.url()).toBe(at)
})
