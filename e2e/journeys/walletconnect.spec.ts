/**
 * WalletConnect end to end: the modal's sign-client and a phone wallet (a real SignClient in this process)
 * meet on the local relay of `npm start`; the wallet signs with an anvil account.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB, testTokenAddress } from '@airlock/devnet/chains'
import { devices, type FrameLocator, type Page } from '@playwright/test'
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseEther, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyBitcoinMessage, verifySolanaSignature } from '../wallets/verify.ts'
import { createPeer, type Peer } from '../wallets/walletconnect-peer.ts'
import {
  axeViolations,
  clients,
  decodeQr,
  expect,
  modalOrigin,
  recordOpened,
  standardSign,
  test,
} from './fixtures.ts'
import { fundAlt } from './onrampFixtures.ts'
import { copiedPairingUri } from './pairingFixtures.ts'

const relayUrl = 'ws://127.0.0.1:8790'
const phoneKey = Accounts.all()[2]?.privateKey as Hex

let peer: Peer
test.beforeEach(async ({ context }) => {
  peer = await createPeer({ relayUrl, privateKey: phoneKey, chains: [devnetA, devnetB] })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
})
test.afterEach(() => peer.stop())

/** Opens Airlock on the demo page and pairs the phone wallet through the QR code's link. */
async function pair(page: Page, modal: FrameLocator): Promise<string> {
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  const { topic } = await peer.pair(await copiedPairingUri(page, modal))
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
  await expect(page.locator('#status')).toHaveText('connected')
  return topic
}

const request = (page: Page, method: string, params: unknown[] = []) =>
  page.evaluate(
    async ({ method, params }) => {
      try {
        return { result: await window.airlock?.providers.eip155.request({ method, params }) }
      } catch (error) {
        return { code: (error as { code: number }).code, message: (error as Error).message }
      }
    },
    { method, params },
  )

/** What a phone reads from the QR code as the modal draws it: the text it encodes, if it can be read at all. */
const scannedUri = (modal: FrameLocator) =>
  decodeQr(modal.getByRole('img', { name: 'WalletConnect QR code' }))

test('the QR code, read from the screen despite the mark at its centre, is the link Copy link gives, and pairs', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  // A phone keeps scanning until the code is read: the card may still be moving to its new height.
  await expect.poll(() => scannedUri(modal)).toMatch(/^wc:/)
  const scanned = await scannedUri(modal)
  expect(scanned).toBe(await copiedPairingUri(page, modal))
  await peer.pair(scanned as string)
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
  await expect(page.locator('#status')).toHaveText('connected')
})

test('a phone wallet pairs from the copied link; the dApp sends a transaction mined on anvil', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  expect(await request(page, 'eth_accounts')).toEqual({ result: [peer.account.address] })
  const sent = await request(page, 'eth_sendTransaction', [
    {
      from: peer.account.address,
      to: Accounts.all()[3]?.address,
      value: `0x${parseEther('0.5').toString(16)}`,
    },
  ])
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
  const receipt = await clients.a.waitForTransactionReceipt({ hash: sent.result as Hex })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(peer.account.address.toLowerCase())
  expect(peer.requests).toContain('eth_sendTransaction')
})

test("the modal's own Send goes over the session: the phone signs, anvil has it", async ({ page, modal }) => {
  await pair(page, modal)
  const to = Accounts.all()[4]?.address as Hex
  const before = await clients.a.getBalance({ address: to })
  await modal.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(modal.locator('form.send-form')).toHaveAttribute('aria-busy', 'false')
  await modal.getByLabel('Amount').fill('0.25')
  await modal.getByLabel('Receiver').fill(to)
  await modal.getByRole('button', { name: 'Review' }).click()
  await expect(modal.getByTestId('send-changes')).toContainText('+0.25 ETH')
  await modal.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(modal.getByTestId('send-status')).toHaveAttribute('data-status', 'confirmed', {
    timeout: 30_000,
  })
  expect(await clients.a.getBalance({ address: to })).toBe(before + parseEther('0.25'))
  expect(peer.requests).toContain('eth_sendTransaction')
})

test('a phone wallet that batches gets the dApp’s EIP-5792 batch unchanged over the session; its calls are mined, and wallet_getCallsStatus is its answer', async ({
  page,
  modal,
}) => {
  await peer.stop()
  peer = await createPeer({ relayUrl, privateKey: phoneKey, chains: [devnetA, devnetB], batches: true })
  await fundAlt(peer.account.address, parseEther('10'))
  await pair(page, modal)
  const chainId = `0x${devnetA.id.toString(16)}`
  expect(await request(page, 'wallet_getCapabilities', [peer.account.address, [chainId]])).toEqual({
    result: { [chainId]: { atomic: { status: 'unsupported' } } },
  })
  const [spender, to] = [0, 1].map(() => privateKeyToAccount(generatePrivateKey()).address) as [
    Address,
    Address,
  ]
  const alt = (functionName: 'approve' | 'transfer', args: readonly [Address, bigint]) => ({
    to: testTokenAddress,
    data: encodeFunctionData({ abi: erc20Abi, functionName, args }),
  })
  const batch = {
    version: '2.0.0',
    chainId,
    from: peer.account.address,
    atomicRequired: false,
    calls: [alt('approve', [spender, parseEther('5')]), alt('transfer', [to, parseEther('3')])],
  }
  const sent = await request(page, 'wallet_sendCalls', [batch])
  const id = (sent.result as { id?: string } | undefined)?.id
  expect(id).toEqual(expect.any(String))
  // The wallet ran it: handed over as the dApp wrote it, never split into the modal's own transactions.
  expect(peer.batches).toEqual([batch])
  expect(peer.requests).not.toContain('eth_sendTransaction')

  type Status = { status: number; receipts?: { status: string; transactionHash: Hex }[] }
  let status: Status | undefined
  await expect
    .poll(async () => {
      status = (await request(page, 'wallet_getCallsStatus', [id])).result as Status
      return status?.status
    })
    .toBe(200)
  expect(peer.requests).toContain('wallet_getCallsStatus')
  expect(status?.receipts?.map((receipt) => receipt.status)).toEqual(['0x1', '0x1'])
  for (const receipt of status?.receipts ?? []) {
    const mined = await clients.a.getTransactionReceipt({ hash: receipt.transactionHash })
    expect(mined.status).toBe('success')
    expect(mined.from.toLowerCase()).toBe(peer.account.address.toLowerCase())
  }
  const read = (functionName: 'allowance' | 'balanceOf', args: readonly Address[]) =>
    clients.a.readContract({ address: testTokenAddress, abi: erc20Abi, functionName, args } as never)
  expect(await read('allowance', [peer.account.address, spender])).toBe(parseEther('5'))
  expect(await read('balanceOf', [to])).toBe(parseEther('3'))
})

test('personal_sign through the session verifies; a rejection reaches the dApp as 4001', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  const message = 'Sign in to Airlock over WalletConnect'
  const signed = await request(page, 'personal_sign', [
    `0x${Buffer.from(message).toString('hex')}`,
    peer.account.address,
  ])
  expect(
    await verifyMessage({ address: peer.account.address, message, signature: signed.result as Hex }),
  ).toBe(true)
  peer.setMode('reject')
  const refused = await request(page, 'personal_sign', ['0x00', peer.account.address])
  expect(refused.code).toBe(4001)
})

test('the wallet disconnecting tells the dApp', async ({ page, modal }) => {
  const topic = await pair(page, modal)
  await page.evaluate(() => {
    const events: string[] = []
    Object.assign(window, { providerEvents: events })
    window.airlock?.providers.eip155.on('disconnect', () => events.push('disconnect'))
  })
  await peer.disconnect(topic)
  await expect(page.locator('#status')).toHaveText('disconnected')
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { providerEvents: string[] }).providerEvents))
    .toEqual(['disconnect'])
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
})

/**
 * Chromium's defaults deny the modal's cross-site frame any storage of its own, and the session's keys are
 * secrets the host page may not keep: a reload then ends the session. It ends cleanly, and pairing again
 * works. (Keeping it takes storage access the frame must ask for, or a window that keeps it: the next test.)
 */
test('where the browser denies the modal storage, a reload ends the session cleanly and pairing again works', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  // The page keeps what the modal may remember, and nothing of the session's keys.
  const kept = await page.evaluate((origin) => localStorage.getItem(`airlock:${origin}`) ?? '', modalOrigin)
  expect(kept).toContain('walletconnect')
  expect(kept).not.toMatch(/wc@2|symKey|privateKey/i)
  await page.reload()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  await expect(page.locator('#status')).toHaveText('disconnected')
  expect(await request(page, 'eth_accounts')).toEqual({ result: [] })
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  await peer.pair(await copiedPairingUri(page, modal))
  await expect(page.locator('#status')).toHaveText('connected')
})

test('where the browser denies the modal storage, a window of the modal origin keeps the session, and a click after the reload restores it', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  await expect(modal.getByRole('status').filter({ hasText: 'session ends with the page' })).toBeVisible()
  const keeper = page.waitForEvent('popup')
  await modal.getByRole('button', { name: 'Keep it in a window' }).click()
  const keeperWindow = await keeper
  expect(new URL(keeperWindow.url()).origin).toBe(modalOrigin)
  // It keeps and closes by itself, in the same click.
  // Polled, not awaited as an event: it may be gone before a listener could be added.
  await expect.poll(() => keeperWindow.isClosed()).toBe(true)
  await expect(modal.getByTestId('snackbar')).toContainText('Session kept')
  await expect(modal.getByRole('button', { name: 'Keep it in a window' })).toBeHidden()
  // The page learns that a session is kept, and nothing of its keys.
  const kept = await page.evaluate((origin) => localStorage.getItem(`airlock:${origin}`) ?? '', modalOrigin)
  expect(JSON.parse(kept)).toMatchObject({ wcKept: 'true' })
  expect(kept).not.toMatch(/wc@2|symKey|privateKey/i)

  await page.reload()
  // Without the visitor's click no window may open, so the session waits for one.
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  const restorer = page.waitForEvent('popup')
  await modal.getByRole('button', { name: 'Restore WalletConnect session' }).click()
  const restoring = await restorer
  await expect.poll(() => restoring.isClosed()).toBe(true)
  // Each namespace the session carries connects on its own; EVM's may come a moment after the first.
  await expect.poll(() => request(page, 'eth_accounts')).toEqual({ result: [peer.account.address] })
  await expect(page.locator('#status')).toHaveText('connected')
  // The same session, not a new pairing: the phone signs over it.
  const message = 'still the same session'
  const signed = await request(page, 'personal_sign', [
    `0x${Buffer.from(message).toString('hex')}`,
    peer.account.address,
  ])
  expect(
    await verifyMessage({ address: peer.account.address, message, signature: signed.result as Hex }),
  ).toBe(true)
})

test("the wallet's own chain and account switches reach the dApp as provider events", async ({
  page,
  modal,
}) => {
  const topic = await pair(page, modal)
  await page.evaluate(() => {
    const events: unknown[] = []
    Object.assign(window, { providerEvents: events })
    const provider = window.airlock?.providers.eip155
    provider?.on('chainChanged', (chainId: unknown) => events.push(['chainChanged', chainId]))
    provider?.on('accountsChanged', (accounts: unknown) => events.push(['accountsChanged', accounts]))
  })
  const events = () =>
    page.evaluate(() => (window as unknown as { providerEvents: unknown[] }).providerEvents)
  await peer.emit(topic, 'eip155:31338', 'chainChanged', 31338)
  await expect.poll(events).toEqual([['chainChanged', '0x7a6a']])
  expect(await request(page, 'eth_chainId')).toEqual({ result: '0x7a6a' })
  const other = Accounts.all()[4]?.address as string
  await peer.emit(topic, 'eip155:31338', 'accountsChanged', [`eip155:31338:${other.toLowerCase()}`])
  await expect.poll(events).toEqual([
    ['chainChanged', '0x7a6a'],
    ['accountsChanged', [other]],
  ])
})

test('a pairing about to expire says so and offers Retry, which makes a new pairing that pairs', async ({
  page,
  modal,
}) => {
  await page.clock.install()
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await modal.getByRole('button', { name: 'WalletConnect' }).click()
  const first = await copiedPairingUri(page, modal)
  await expect(modal.getByTestId('wc-expiry')).toContainText('This code expires at')
  // A pairing lasts 4 minutes and counts as expired with under 10 s left, so a scan never races the expiry.
  await page.clock.fastForward('03:51')
  await expect(modal.getByRole('alert')).toHaveText('This code has expired.')
  // One state at a time: no QR code, no progress and no Copy link beside the expiry.
  await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toHaveCount(0)
  await expect(modal.getByText('Waiting for your wallet to approve…')).toHaveCount(0)
  await expect(modal.getByRole('button', { name: 'Copy link' })).toHaveCount(0)
  expect(await axeViolations(page)).toEqual([])
  await modal.getByRole('button', { name: 'Retry' }).click()
  const second = await copiedPairingUri(page, modal)
  expect(second).not.toBe(first)
  const { topic } = await peer.pair(second)
  expect(topic).toMatch(/^[0-9a-f]{64}$/)
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
})

test('All Wallets finds a wallet by name and opens it with the pairing link', async ({ page, modal }) => {
  // Records what the modal opens rather than leaving the test for a wallet app.
  const { opened } = await recordOpened(page)
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await modal.getByRole('button', { name: 'All Wallets' }).click()
  const grid = modal.getByTestId('all-wallets')
  await expect(grid.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '40')
  await modal.getByRole('searchbox', { name: 'Search wallet' }).fill('ledger')
  await expect(grid.getByRole('button')).toHaveText(['Ledger Live'])
  await grid.getByRole('button', { name: 'Ledger Live' }).click()
  await expect(modal.getByRole('heading', { name: 'Ledger Live' })).toBeVisible()
  const uri = await copiedPairingUri(page, modal)
  await modal.getByRole('button', { name: 'Open Ledger Live for desktop' }).click()
  expect(await opened()).toEqual([`ledgerlive://wc?uri=${encodeURIComponent(uri)}`])
})

test('one session serves Solana too: the dApp signs a message through Wallet Standard and it verifies', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  const { address, signature } = await standardSign(page, 'solana', 'hello over WalletConnect')
  expect(address).toBe(peer.solanaAddress)
  expect(verifySolanaSignature('hello over WalletConnect', signature, address as string)).toBe(true)
  expect(peer.requests).toContain('solana_signMessage')
})

test('and Bitcoin: the dApp signs a message through the Bitcoin wallet over the session, and it verifies', async ({
  page,
  modal,
}) => {
  await pair(page, modal)
  const { address, signature } = await standardSign(page, 'bip122', 'hello bitcoin over WalletConnect')
  expect(address).toBe(peer.bitcoin.address)
  expect(verifyBitcoinMessage('hello bitcoin over WalletConnect', signature, peer.bitcoin.publicKeyHex)).toBe(
    true,
  )
  expect(peer.requests).toContain('signMessage')
})

test.describe('on a phone', () => {
  // An iPhone's screen, touch and user agent, in the same Chromium (the device's own engine is not needed here).
  const { defaultBrowserType: _engine, ...iPhone } = devices['iPhone 13']
  test.use(iPhone)

  test('WalletConnect leads to AllWallets; a wallet opens its app with the pairing first, the QR code on request', async ({
    page,
    modal,
  }) => {
    const { opened } = await recordOpened(page)
    await page.goto('/')
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    // A QR code is useless on the phone itself (docs/behaviour.md §2): the row leads to the wallets.
    await modal.getByRole('button', { name: 'WalletConnect' }).click()
    const grid = modal.getByTestId('all-wallets')
    await modal.getByRole('searchbox', { name: 'Search wallet' }).fill('rainbow')
    await expect(grid.getByRole('button')).toHaveText(['Rainbow'])
    await grid.getByRole('button', { name: 'Rainbow' }).click()
    await expect(modal.getByRole('heading', { name: 'Rainbow' })).toBeVisible()
    const open = modal.getByRole('button', { name: 'Open Rainbow' })
    await expect(open).toBeEnabled()
    await expect(modal.getByRole('img', { name: 'WalletConnect QR code' })).toHaveCount(0)
    await open.click()
    const links = await opened()
    expect(links).toHaveLength(1)
    const link = new URL(links[0] ?? '')
    expect(`${link.protocol}//${link.host}${link.pathname}`).toBe('rainbow://wc')
    const uri = link.searchParams.get('uri') ?? ''
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    // The QR code stays available, for a wallet on another device.
    await modal.getByRole('button', { name: 'Show QR code' }).click()
    expect(await scannedUri(modal)).toBe(uri)
    // The wallet app, handed the link, pairs.
    await peer.pair(uri)
    await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', peer.account.address)
  })
})
