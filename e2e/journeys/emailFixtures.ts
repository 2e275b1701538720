/** The email login as a visitor goes through it: a code asked for in Connect, read from the mail catcher. */
import * as Mail from '@airlock/devnet/mail'
import type { FrameLocator, Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/**
 * In Connect: asks for a code for `email`. An address that had one under 30 s ago (another browser's login
 * moments before) is told so in the API's words, then the journey waits the cooldown out and asks again.
 */
export async function askCode(page: Page, modal: FrameLocator, email: string) {
  await modal.getByLabel('Email', { exact: true }).fill(email)
  await modal.getByRole('button', { name: 'Continue with email' }).click()
  const throttled = modal.getByText(/^Please try again after \d+ seconds$/)
  await expect(modal.getByLabel('Code').or(throttled)).toBeVisible()
  if (!(await throttled.isVisible())) return
  const seconds = Number(/(\d+)/.exec((await throttled.textContent()) ?? '')?.[1])
  expect(seconds).toBeGreaterThan(0)
  expect(seconds).toBeLessThanOrEqual(30)
  await page.waitForTimeout(seconds * 1000 + 500)
  await modal.getByRole('button', { name: 'Continue with email' }).click()
}

/**
 * Logs in by `email` with the code mailed after `asked`, creates the wallet under a recovery password (no
 * passkey), and keeps the login in a window of the modal origin or, by default, leaves it unkept. Where the
 * frame's own storage lasts (`keep: 'frame'`), the modal keeps the login there and asks nothing.
 */
export async function createWalletByEmail(
  modal: FrameLocator,
  email: string,
  asked: Date,
  keep: boolean | 'frame' = false,
) {
  const password = 'a long recovery phrase'
  await modal.getByLabel('Email', { exact: true }).fill(email)
  await modal.getByRole('button', { name: 'Continue with email' }).click()
  await modal.getByLabel('Code').pressSequentially(await mailCode(email, { after: asked }))
  await modal.getByRole('button', { name: 'Use a recovery password instead' }).click()
  await modal.getByLabel('Recovery password', { exact: true }).fill(password)
  await modal.getByLabel('Repeat the recovery password').fill(password)
  await modal.getByRole('button', { name: 'Create wallet' }).click()
  if (keep !== 'frame')
    await modal.getByRole('button', { name: keep ? 'Keep me signed in' : 'Not now' }).click()
}

/**
 * The newest login code mailed to `to`, read from the stack's mail catcher (http://127.0.0.1:1080); waits
 * for it to arrive (10 s unless `timeoutMs` says). `after` skips codes of earlier sign-ins.
 * @example
 * const sentAt = new Date()
 * await modal.getByRole('button', { name: 'Send code' }).click()
 * await modal.getByLabel('Code').fill(await mailCode('visitor@example.com', { after: sentAt }))
 */
export function mailCode(to: string, options?: Mail.CodeOptions): Promise<string> {
  return Mail.inbox(Mail.defaultWebUrl).latestCode(to, options)
}
