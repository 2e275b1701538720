/**
 * Discord, X and Facebook logins end to end (docs/behaviour.md §1, §3 and §5): the real redirect, consent and
 * code exchange in a window of the modal origin, against the dev stack's OpenID provider speaking each
 * provider's own user endpoint (`api/src/features/auth/internal/oidcShapes.ts`). A provider that vouches for
 * an address (Discord's `verified`, X's `confirmed_email`) reaches the wallet of that email, and refuses a
 * login it does not vouch for; Facebook never vouches, so its person is a user of its own, with no email,
 * whatever address Facebook reports. The modal's settings and the dApp's `user` say who logged in.
 */
import type { FrameLocator, Page } from '@playwright/test'
import type { Address } from 'viem'
import { createWalletByEmail } from './emailFixtures.ts'
import { expect, request, test } from './fixtures.ts'

const page$ = '/module.html?networks=eip155:31337&accountType=eoa'
const password = 'a long recovery phrase'
const notVouched =
  'The provider did not confirm an email address for this account. Verify your email there, or sign in another way.'

// Each journey makes or opens wallets (PBKDF2's 600,000 rounds for a new one) behind provider windows: past
// the suite's two minutes on a busy machine.
test.describe.configure({ timeout: 300_000 })

async function connected(page: Page) {
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
}

const user = (page: Page) => page.evaluate(() => window.airlock?.getState().user)
const account = async (page: Page) => ((await request(page, 'eth_accounts')).result as Address[])[0]

/** Signs out of every wallet, and drops the provider's own cookie, so its window asks who logs in. */
async function signOut(page: Page, modal: FrameLocator) {
  // Closing first: opening again shows Account, wherever the visitor was.
  await page.evaluate(() => window.airlock?.close())
  await page.evaluate(() => window.airlock?.open())
  // One namespace configured, so one account: Disconnect, not Disconnect all.
  await modal.getByRole('button', { name: 'Disconnect', exact: true }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  expect(await user(page)).toBeUndefined()
  await page.context().clearCookies()
}

/** From Connect: `provider`'s window, where the visitor logs in as `login` and consents. */
async function providerLogin(page: Page, modal: FrameLocator, provider: string, login: string) {
  await page.evaluate(() => window.airlock?.open())
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    modal.getByRole('button', { name: `Continue with ${provider}` }).click(),
  ])
  await popup.locator('input[name="login"]').fill(login)
  await popup.locator('input[name="password"]').fill('any')
  await popup.locator('button[type="submit"]').click()
  await popup.locator('button[type="submit"]').click()
}

/** A new person's wallet: made under a recovery password, the login left unkept. */
async function createWallet(modal: FrameLocator) {
  await modal.getByRole('button', { name: 'Use a recovery password instead' }).click()
  await modal.getByLabel('Recovery password', { exact: true }).fill(password)
  await modal.getByLabel('Repeat the recovery password').fill(password)
  await modal.getByRole('button', { name: 'Create wallet' }).click()
  await modal.getByRole('button', { name: 'Not now' }).click()
}

/** What the wallet's own page says of who is logged in. */
async function loggedInAs(page: Page, modal: FrameLocator, who: string) {
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: `Airlock wallet: ${who}` }).click()
  return modal.getByTestId('embedded-user')
}

test('Discord: its verified email opens that email’s wallet, with the Discord handle; an unverified one is refused', async ({
  page,
  modal,
}) => {
  await page.goto(page$)
  const login = `ada-${Date.now()}`
  const email = `${login}@discord.test`
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, email, new Date())
  await connected(page)
  const address = await account(page)
  await signOut(page, modal)

  // The same mailbox, proved to Discord: the same person, so the same wallet, opened by this browser's share.
  await providerLogin(page, modal, 'Discord', login)
  await modal.getByRole('button', { name: 'Not now' }).click()
  await connected(page)
  expect(await account(page)).toBe(address)
  expect(await user(page)).toEqual({
    email,
    username: login,
    authProvider: 'discord',
    socialProvider: 'discord',
    preferredAccountType: 'eoa',
  })
  await expect(await loggedInAs(page, modal, email)).toHaveText(`Logged in as ${email} with Discord.`)

  // Discord says this address is not verified: no wallet, and the visitor is told why.
  await signOut(page, modal)
  await providerLogin(page, modal, 'Discord', `unverified-${login}`)
  await expect(modal.getByText(notVouched)).toBeVisible()
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  expect(await user(page)).toBeUndefined()
})

test('X: its confirmed email and handle make a new person’s wallet; an unconfirmed email is refused', async ({
  page,
  modal,
}) => {
  await page.goto(page$)
  const login = `ada-x-${Date.now()}`
  await providerLogin(page, modal, 'X', login)
  await createWallet(modal)
  await connected(page)
  expect(await account(page)).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(await user(page)).toEqual({
    email: `${login}@x.test`,
    username: login,
    authProvider: 'x',
    socialProvider: 'x',
    preferredAccountType: 'eoa',
  })
  await expect(await loggedInAs(page, modal, `${login}@x.test`)).toHaveText(
    `Logged in as ${login}@x.test with X.`,
  )

  await signOut(page, modal)
  await providerLogin(page, modal, 'X', `unverified-${login}`)
  await expect(modal.getByText(notVouched)).toBeVisible()
  expect(await user(page)).toBeUndefined()
})

test('Facebook: the address it reports is never taken as verified, so its person gets a wallet of their own, with no email', async ({
  page,
  modal,
}) => {
  await page.goto(page$)
  const login = `ada-fb-${Date.now()}`
  // The very address Facebook reports for this person below, proved here by a code.
  const email = `${login}@facebook.test`
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, email, new Date())
  await connected(page)
  const emailWallet = await account(page)
  await signOut(page, modal)

  // Not joined to that email's user: a new wallet to make, and nobody's email on it.
  await providerLogin(page, modal, 'Facebook', login)
  await expect(modal.getByRole('button', { name: 'Use a recovery password instead' })).toBeVisible()
  await createWallet(modal)
  await connected(page)
  const facebookWallet = await account(page)
  expect(facebookWallet).not.toBe(emailWallet)
  expect(await user(page)).toEqual({
    authProvider: 'facebook',
    socialProvider: 'facebook',
    preferredAccountType: 'eoa',
  })
  await expect(await loggedInAs(page, modal, 'Facebook')).toHaveText('Logged in as Facebook.')
  await expect(modal.getByRole('button', { name: 'Change email' })).toHaveCount(0)

  // The same Facebook person later: their own wallet again, found by Facebook's id, not by an email.
  await signOut(page, modal)
  await providerLogin(page, modal, 'Facebook', login)
  await modal.getByRole('button', { name: 'Not now' }).click()
  await connected(page)
  expect(await account(page)).toBe(facebookWallet)
})
