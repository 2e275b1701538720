/**
 * The active namespace after one wallet connects several at once, on the demo page (EVM, Solana and Bitcoin
 * configured, EVM first): an email login, a phone wallet's WalletConnect session approving every namespace,
 * and the login's reconnect after a reload each leave the dApp on the namespace it was on. The host's state,
 * the states it reported on the way (what its events follow) and the Account view say the same.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB, solanaDevnetId } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import type { Hex } from 'viem'
import { createPeer } from '../wallets/walletconnect-peer.ts'
import { createWalletByEmail } from './emailFixtures.ts'
import { expect, test } from './fixtures.ts'
import { copiedPairingUri } from './pairingFixtures.ts'

const evmNetwork = 'eip155:31337'

type Reported = {
  status: string
  caipNetworkId?: string
  address?: string
  namespaces: Record<string, { chainId: string }>
}

/** Opens the demo page and records every state the host SDK reports from then on. */
async function openDemo(page: Page) {
  await page.goto('/')
  await page.evaluate(() => {
    const seen: unknown[] = []
    Object.assign(window, { seen })
    window.airlock?.subscribeState((state) => seen.push(state))
  })
}

const state = (page: Page) => page.evaluate(() => window.airlock?.getState() as unknown as Reported)
const reported = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { seen: Reported[] }).seen.filter((s) => s.status === 'connected'),
  )

/** Waits until every namespace in `namespaces` is connected. */
async function connectedIn(page: Page, namespaces: string[]) {
  await expect
    .poll(async () => Object.keys((await state(page)).namespaces).sort())
    .toEqual([...namespaces].sort())
}

/** The account the Account view shows, opened as the visitor opens it. */
async function shownAccount(page: Page, modal: FrameLocator) {
  await page.evaluate(() => window.airlock?.open({ view: 'Account' }))
  return modal.getByTestId('account-address').getAttribute('data-address')
}

/** The host's state, its reports since the connection and the Account view: all on `network`, at `address`. */
async function activeEverywhere(page: Page, modal: FrameLocator, network: string, address: string) {
  expect(await state(page)).toMatchObject({ caipNetworkId: network, address })
  expect(await shownAccount(page, modal)).toBe(address)
  // No report ever named another namespace's account as the active one.
  const names = new Set((await reported(page)).map((s) => s.caipNetworkId?.split(':')[0]))
  expect([...names]).toEqual([network.split(':')[0]])
}

test('an email login on an EVM dApp leaves it on EVM, with the Solana account beside it on Solana', async ({
  page,
  modal,
}) => {
  await openDemo(page)
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, `active-${Date.now()}@example.test`, asked)
  await connectedIn(page, ['eip155', 'solana'])
  const { namespaces } = await state(page)
  expect(namespaces.solana?.chainId).toBe(solanaDevnetId)
  const address = (
    (await page.evaluate(() =>
      window.airlock?.providers.eip155.request({ method: 'eth_accounts' }),
    )) as string[]
  )[0]
  await activeEverywhere(page, modal, evmNetwork, address as string)
})

test('a login kept across a reload reconnects with the dApp still on EVM and each account on its own chain', async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  await openDemo(page)
  const email = `active-reload-${Date.now()}@example.test`
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, email, asked, true)
  await connectedIn(page, ['eip155', 'solana'])
  const before = await state(page)

  // The page loads again. Its frame kept nothing past the load here (Chromium's defaults): the window that
  // kept the login hands it back in one click, and both namespaces connect again.
  await openDemo(page)
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Continue with your saved login' }).click()
  await connectedIn(page, ['eip155', 'solana'])
  const after = await state(page)
  expect(after.namespaces).toEqual(before.namespaces)
  expect(after.namespaces.solana?.chainId).toBe(solanaDevnetId)
  expect(after.namespaces.eip155?.chainId).toBe(evmNetwork)
  await activeEverywhere(page, modal, evmNetwork, before.address as string)
})

test.describe('a WalletConnect session approving EVM, Solana and Bitcoin', () => {
  const phoneKey = Accounts.all()[3]?.privateKey as Hex
  let peer: Awaited<ReturnType<typeof createPeer>>
  test.beforeEach(async ({ context }) => {
    peer = await createPeer({
      relayUrl: 'ws://127.0.0.1:8790',
      privateKey: phoneKey,
      chains: [devnetA, devnetB],
    })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  })
  test.afterEach(() => peer.stop())

  /** Pairs the phone from Connect's WalletConnect view, through the link Copy link gives. */
  async function pair(page: Page, modal: FrameLocator) {
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    await modal.getByRole('button', { name: 'WalletConnect' }).click()
    await peer.pair(await copiedPairingUri(page, modal))
    await connectedIn(page, ['bip122', 'eip155', 'solana'])
  }

  test('leaves a dApp on its first configured network on EVM', async ({ page, modal }) => {
    await openDemo(page)
    await pair(page, modal)
    await activeEverywhere(page, modal, evmNetwork, peer.account.address)
  })

  test('leaves a dApp that chose Solana on Solana', async ({ page, modal }) => {
    await openDemo(page)
    // Once the modal has loaded its networks (the API names the Solana one), the dApp moves to Solana.
    await page.getByRole('button', { name: 'Open Airlock' }).click()
    await expect(modal.getByRole('button', { name: 'WalletConnect' })).toBeVisible()
    // The button shows before the modal has the API's networks; until then Solana's id is not yet known.
    await expect
      .poll(() =>
        page.evaluate(
          (id) =>
            window.airlock?.switchNetwork(id).then(
              () => 'switched',
              (error: Error) => error.name,
            ),
          solanaDevnetId,
        ),
      )
      .toBe('switched')
    await expect.poll(async () => (await state(page)).caipNetworkId).toBe(solanaDevnetId)
    await page.evaluate(() => window.airlock?.close())
    await pair(page, modal)
    await activeEverywhere(page, modal, solanaDevnetId, peer.solanaAddress)
  })
})
