/**
 * The modal on a phone (docs/behaviour.md §2, Opening and Phones; §3, what the modal remembers): with no
 * namespace configured it opens on the wallets, not on a QR code no camera can read on the device itself;
 * and once a phone wallet paired through its app link, a request the visitor must approve takes them to
 * that app, while one that needs nobody does not. Each beside the same page on a desktop, where neither
 * happens. A Pixel's screen, touch and Android user agent, in Chromium with its defaults.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB } from '@airlock/devnet/chains'
import { devices, type FrameLocator, type Page } from '@playwright/test'
import { type Hex, verifyMessage } from 'viem'
import { createPeer, type Peer } from '../wallets/walletconnect-peer.ts'
import { decodeQr, expect, recordOpened, request, test } from './fixtures.ts'

const relayUrl = 'ws://127.0.0.1:8790'
const phoneKey = Accounts.all()[2]?.privateKey as Hex
// A dApp that configures no chain namespace: only WalletConnect can serve it (docs/behaviour.md §2).
const noNamespace = `/module.html?options=${encodeURIComponent(JSON.stringify({ networks: [] }))}`

const { defaultBrowserType: _engine, ...pixel } = devices['Pixel 7']

/** The view the modal opens on with none asked for, as the modal shows it and as the host mirrors it. */
async function openingView(page: Page, modal: FrameLocator) {
  await page.goto(noNamespace)
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('dialog')).toBeVisible()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().view)).not.toBe('Connect')
  return page.evaluate(() => window.airlock?.getState().view)
}

test('on a desktop, a dApp with no namespace opens on the WalletConnect QR code', async ({ page, modal }) => {
  expect(await openingView(page, modal)).toBe('ConnectingWalletConnectBasic')
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
})

test.describe('on a phone', () => {
  test.use(pixel)

  let peer: Peer
  test.beforeEach(async () => {
    peer = await createPeer({ relayUrl, privateKey: phoneKey, chains: [devnetA, devnetB] })
  })
  test.afterEach(() => peer.stop())

  test('a dApp with no namespace opens on the wallets, with no QR code', async ({ page, modal }) => {
    expect(await openingView(page, modal)).toBe('AllWallets')
    await expect(modal.getByTestId('all-wallets').getByRole('listitem').first()).toBeVisible()
    await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toHaveCount(0)
  })

  test('a wallet paired through its app link is opened again for each request the visitor must approve, and only for those', async ({
    page,
    modal,
  }) => {
    const { opened } = await recordOpened(page)
    await page.goto('/')
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    await modal.getByRole('button', { name: 'WalletConnect' }).click()
    await modal.getByRole('searchbox', { name: 'Search wallet' }).fill('rainbow')
    await modal.getByTestId('all-wallets').getByRole('button', { name: 'Rainbow' }).click()
    await modal.getByRole('button', { name: 'Open Rainbow' }).click()
    const [pairing] = await opened()
    const uri = new URL(pairing ?? '').searchParams.get('uri') ?? ''
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    // The app, handed the pairing, approves it.
    await peer.pair(uri)
    await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
    await page.evaluate(() => window.airlock?.close())

    // Reads need nobody: the visitor stays on the page.
    expect(await request(page, 'eth_accounts')).toEqual({ result: [peer.account.address] })
    expect(await request(page, 'eth_chainId')).toEqual({ result: `0x${devnetA.id.toString(16)}` })
    expect(await opened()).toEqual([pairing])

    // A signature does: the wallet's app opens (its stored link), and what the app signs reaches the dApp.
    const message = 'sign this on the phone'
    const signed = await request(page, 'personal_sign', [message, peer.account.address])
    expect(await opened()).toEqual([pairing, 'rainbow://'])
    expect(
      await verifyMessage({ address: peer.account.address, message, signature: signed.result as Hex }),
    ).toBe(true)
    expect(peer.requests).toContain('personal_sign')
  })
})

test('on a desktop, the same request to a paired wallet opens nothing', async ({ page, modal }) => {
  const peer = await createPeer({ relayUrl, privateKey: phoneKey, chains: [devnetA, devnetB] })
  try {
    const { opened } = await recordOpened(page)
    await page.goto('/')
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    await modal.getByRole('button', { name: 'All Wallets' }).click()
    await modal.getByRole('searchbox', { name: 'Search wallet' }).fill('rainbow')
    await modal.getByTestId('all-wallets').getByRole('button', { name: 'Rainbow' }).click()
    // The phone's camera reads the code (the card may still be moving to its new height).
    const qr = modal.getByRole('img', { name: 'WalletConnect QR code' })
    await expect.poll(() => decodeQr(qr)).toMatch(/^wc:/)
    await peer.pair((await decodeQr(qr)) as string)
    await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
    await page.evaluate(() => window.airlock?.close())
    const signed = await request(page, 'personal_sign', ['sign this at the desk', peer.account.address])
    expect(signed.result).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await opened()).toEqual([])
  } finally {
    await peer.stop()
  }
})
