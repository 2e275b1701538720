/**
 * The account kit on the demo page: the Account view's tabs (Tokens, NFTs, Activity) reached and switched
 * with the keyboard alone and axe-clean on each, the devnet's NFTs in the grid, a transfer sent by script
 * appearing in Activity, and the Receive QR code decoded from the screen to the account's address.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA } from '@airlock/devnet/chains'
import type { FrameLocator } from '@playwright/test'
import { createWalletClient, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { addresses, axeViolations, clients, connectEvm, decodeQr, expect, tabTo, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`
const api = 'http://127.0.0.1:8787'

const tab = (modal: FrameLocator, name: string) => modal.getByRole('tab', { name })

test('the tabs are reached with Tab and switched with the arrow keys, each axe-clean, the choice kept', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await expect(tab(modal, 'Tokens')).toHaveAttribute('aria-selected', 'true')
  await expect(modal.getByTestId('account-tokens').getByTestId('token-amount').first()).toContainText('ALT')
  expect(await axeViolations(page)).toEqual([])

  await tabTo(page, tab(modal, 'Tokens'))
  await page.keyboard.press('ArrowRight')
  await expect(tab(modal, 'NFTs')).toBeFocused()
  await expect(tab(modal, 'NFTs')).toHaveAttribute('aria-selected', 'true')
  await expect(modal.getByRole('tabpanel', { name: 'NFTs' }).getByTestId('nft-grid')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await page.keyboard.press('ArrowRight')
  await expect(tab(modal, 'Activity')).toHaveAttribute('aria-selected', 'true')
  await expect(modal.getByTestId('activity')).toHaveAttribute('aria-busy', 'false')
  expect(await axeViolations(page)).toEqual([])

  // Wrapping, Home and End; Enter on the focused tab keeps it.
  await page.keyboard.press('ArrowRight')
  await expect(tab(modal, 'Tokens')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('End')
  await expect(tab(modal, 'Activity')).toBeFocused()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('Enter')
  await expect(tab(modal, 'Activity')).toHaveAttribute('aria-selected', 'true')
  await expect(modal.getByRole('tab', { selected: true })).toHaveCount(1)

  // The choice survives closing and opening the modal.
  await page.evaluate(() => window.airlock?.close())
  await page.evaluate(() => window.airlock?.open())
  await expect(tab(modal, 'Activity')).toHaveAttribute('aria-selected', 'true')
})

test("the NFTs tab shows the devnet's seeded collections of the test wallet, and a token's detail", async ({
  page,
  modal,
}) => {
  // What the API says the wallet holds: account 0 holds Collectible #1 and #2 and Items 1, 2 and 3.
  const response = await fetch(
    `${api}/v1/account/${evm}/nfts?projectId=demo&chainId=${encodeURIComponent(`eip155:${devnetA.id}`)}`,
  )
  const held = ((await response.json()) as { data: { collection?: string; tokenId: string }[] }).data
  expect(held.map((nft) => `${nft.collection} ${nft.tokenId}`).sort()).toEqual([
    'Airlock Test Collectible 1',
    'Airlock Test Collectible 2',
    'Airlock Test Items 1',
    'Airlock Test Items 2',
    'Airlock Test Items 3',
  ])

  await page.goto('/')
  await connectEvm(page, modal)
  await tabTo(page, tab(modal, 'Tokens'))
  await page.keyboard.press('ArrowRight')
  const cards = modal.getByTestId('nft-grid').getByRole('button')
  await expect(cards).toHaveCount(5)
  await expect(cards.filter({ hasText: 'Airlock Test Collectible' })).toHaveCount(2)
  await expect(cards.filter({ hasText: 'Airlock Test Items' })).toHaveCount(3)
  // Their images are the on-chain SVGs, as data: URIs.
  await expect(modal.getByTestId('nft-grid').locator('img').first()).toHaveAttribute('src', /^data:image\//)

  // The ERC-1155 Lantern (id 3): its detail says how many the wallet holds.
  const lantern = cards.filter({ hasText: 'Airlock Test Items' }).last()
  await lantern.click()
  const detail = modal.getByTestId('nft-detail')
  await expect(detail).toContainText('Token ID3')
  await expect(detail).toContainText('Amount1')
  await expect(detail).toContainText('CollectionAirlock Test Items')
  expect(await axeViolations(page)).toEqual([])
  await modal.getByRole('button', { name: 'All NFTs' }).click()
  await expect(cards).toHaveCount(5)

  // With the keyboard: the detail focuses its way back, and back in the grid focus is on the tile again.
  await expect(lantern).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(modal.getByRole('button', { name: 'All NFTs' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(lantern).toBeFocused()
})

test('a transfer sent to the wallet by script shows in Activity within seconds, received and confirmed', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await tabTo(page, tab(modal, 'Tokens'))
  await page.keyboard.press('End')
  await expect(modal.getByTestId('activity')).toHaveAttribute('aria-busy', 'false')

  // An amount no other journey sends, so the row can only be this transfer.
  const milli = 100 + Math.floor(Math.random() * 800)
  const sender = Accounts.all()[8] as { address: `0x${string}`; privateKey: Hex }
  const wallet = createWalletClient({
    account: privateKeyToAccount(sender.privateKey),
    chain: devnetA,
    transport: http(devnetA.rpcUrls.default.http[0]),
  })
  const hash = await wallet.sendTransaction({ to: evm, value: parseEther(`0.${milli}`) })
  await clients.a.waitForTransactionReceipt({ hash })
  // The wallet's balance changed behind the API's 30 s cache: refreshed now, as the modal does after its own
  // sends, so the journeys after this one read the balance the chain has.
  const balance = `${api}/v1/account/${evm}/balance?projectId=demo&currency=usd&forceUpdate=true`
  expect((await fetch(`${balance}&chainId=eip155:${devnetA.id}`)).ok).toBe(true)

  const row = modal.getByTestId('transaction').filter({ hasText: `+0.${milli} ETH` })
  await expect(row).toBeVisible()
  await expect(row).toContainText('Received')
  // However the API cases the address, the row names the sender, shortened.
  const from = `From ${sender.address.slice(0, 6)}…${sender.address.slice(-4)}`
  await expect(row).toContainText(new RegExp(from, 'i'))
  await expect(row).toHaveAttribute('data-status', 'confirmed')
  // Under today's heading.
  await expect(modal.getByRole('region', { name: 'Today' })).toContainText(`+0.${milli} ETH`)
})

test('Receive shows a QR code that decodes to the address, copies it, and names the family', async ({
  context,
  page,
  modal,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/')
  await connectEvm(page, modal)
  await modal.getByRole('button', { name: 'Receive' }).click()
  await expect(modal.getByRole('heading', { name: 'Receive' })).toBeVisible()
  expect(await decodeQr(modal.getByRole('img', { name: 'QR code of your address' }))).toBe(evm)
  await expect(modal.getByTestId('receive-address')).toHaveText(evm)
  await expect(modal.getByText('Only send EVM-network assets to this address')).toBeVisible()
  await expect(modal.getByRole('region', { name: 'Networks' })).toContainText(devnetA.name)
  expect(await axeViolations(page)).toEqual([])

  await modal.getByRole('button', { name: 'Copy address' }).click()
  await expect(modal.getByTestId('snackbar')).toHaveText('Address copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(evm)
})
