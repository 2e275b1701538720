/**
 * The WalletConnect pairing link as a visitor takes it: the pairing view's Copy link button, read back from the
 * clipboard. Headless Chromium keeps one clipboard for the whole browser, so a link an earlier journey copied
 * is still there when the next one starts: a sentinel goes on the clipboard first, and the link is read once
 * the click has replaced it (the write is asynchronous, and a snackbar from an earlier copy may still show).
 */
import type { FrameLocator, Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** The pairing URI from the open pairing view's Copy link; never one left on the clipboard before. */
export async function copiedPairingUri(page: Page, modal: FrameLocator): Promise<string> {
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
  const sentinel = 'not yet copied'
  await page.evaluate((text) => navigator.clipboard.writeText(text), sentinel)
  await modal.getByRole('button', { name: 'Copy link' }).click()
  await expect(modal.getByTestId('snackbar')).toContainText('Link copied')
  const read = () => page.evaluate(() => navigator.clipboard.readText())
  await expect.poll(read).not.toBe(sentinel)
  const uri = await read()
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  return uri
}
