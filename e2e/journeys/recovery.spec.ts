import type { FrameLocator, Page } from '@playwright/test'
import {
  axeViolations,
  connectEvm,
  connectThenLeaveForDevnetB,
  expect,
  modalFrame,
  request,
  test,
} from './fixtures.ts'

test('a wallet that moves to a network the dApp did not configure leads to UnsupportedChain, and back', async ({
  page,
  modal,
}) => {
  await connectThenLeaveForDevnetB(page, modal)
  await expect(modal.getByRole('dialog')).toBeVisible()
  await expect(modal.getByRole('heading', { name: 'Switch Network' })).toBeVisible()
  // It names the chain the wallet moved to.
  await expect(modal.getByTestId('unsupported-chain')).toHaveText(
    'Your wallet is on Airlock Devnet B, which this app doesn’t support. Switch to an available option to continue.',
  )
  expect(await page.evaluate(() => window.airlock?.getState().view)).toBe('UnsupportedChain')
  expect(await axeViolations(page)).toEqual([])

  await modal.getByRole('button', { name: /Airlock Devnet A/ }).click()
  // Leaving a history that holds UnsupportedChain closes the modal: there is nothing behind it to go back to.
  await expect(modal.getByRole('dialog')).toBeHidden()
  await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a69')
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
})

/**
 * The demo dApp asking to connect, the modal open on it: the pending `eth_requestAccounts`'s end, how it
 * ended and when (the page's `performance.now()`).
 */
async function pendingConnect(page: Page, modal: FrameLocator) {
  await page.goto('/')
  const ended = page.evaluate(() =>
    (window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }) ?? Promise.reject())
      .then(
        () => 'resolved',
        (error: { code: number; message: string }) => `${error.code} ${error.message}`,
      )
      .then((outcome) => ({ outcome, endedAt: performance.now() })),
  )
  await expect(modal.getByRole('dialog')).toBeVisible()
  return { ended }
}

test('a modal frame that reloads fails pending calls clearly and is usable again', async ({
  page,
  modal,
}) => {
  const pending = await pendingConnect(page, modal)
  await page.evaluate(() => {
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.setAttribute('src', frame.src)
  })
  expect((await pending.ended).outcome).toBe('4900 The Airlock modal reloaded.')
  await connectEvm(page, modal)
})

test('a frame the page removes fails pending calls within 2 s, and a new one is mounted', async ({
  page,
  modal,
}) => {
  const pending = await pendingConnect(page, modal)
  const removedAt = await page.evaluate(() => {
    document.querySelector('iframe[title="Airlock"]')?.remove()
    return performance.now()
  })
  const { outcome, endedAt } = await pending.ended
  expect(outcome).toBe('4900 The Airlock modal stopped responding.')
  expect(endedAt - removedAt).toBeLessThan(2_000)
  await expect(page.locator('iframe[title="Airlock"]')).toHaveCount(1)
  await connectEvm(page, modal)
})

test('a modal that hangs fails pending calls within 2 s, and a new frame takes over', async ({
  page,
  modal,
}) => {
  const pending = await pendingConnect(page, modal)
  const frame = await modalFrame(page)
  // The modal's thread stops answering for 4 s, as a document stuck in a loop does.
  await frame.evaluate(() => {
    setTimeout(() => {
      const until = Date.now() + 4_000
      while (Date.now() < until) {}
    })
  })
  const hungAt = await page.evaluate(() => performance.now())
  const { outcome, endedAt } = await pending.ended
  expect(outcome).toBe('4900 The Airlock modal stopped responding.')
  expect(endedAt - hungAt).toBeLessThan(2_000)
  await connectEvm(page, modal)
  expect(await request(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
})

test('a call the modal does not answer in time fails with iframe_request_timeout, reported once, and the modal stays usable', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?requestTimeout=800')
  await connectEvm(page, modal)
  // The wallet behind the modal takes the read and never answers; the modal itself stays alive.
  await page.evaluate(() => window.__airlockTestWallets?.evm?.stall('eth_blockNumber'))
  const started = Date.now()
  const hung = await request(page, 'eth_blockNumber')
  expect(Date.now() - started).toBeLessThan(5_000)
  expect(hung).toEqual({ error: { code: -32603, message: 'The Airlock modal did not answer in time.' } })
  expect(
    await page.evaluate(() => (window as unknown as { airlockTimeouts: string[] }).airlockTimeouts),
  ).toEqual(['iframe_request_timeout'])
  // Not a dead frame: the same modal answers the next call, and nothing was mounted again.
  expect((await request(page, 'eth_chainId')).result).toBe('0x7a69')
  expect(await page.locator('iframe[title="Airlock"]').count()).toBe(1)
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
})
