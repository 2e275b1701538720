/**
 * Activity, end to end: real transactions on both anvil chains, indexed by the API's own indexer, read page
 * by page by the modal. docs/behaviour.md §3 (history items, a `next` cursor), §4 (Activity: the items, or a
 * cursor for more) and §5 (History: a transaction whose every transfer is a spam NFT is dropped, and only
 * the chain asked for is listed).
 *
 * The visitor is an account of this journey's own (a fresh key, funded here), so what Activity must list is
 * exactly what the journey made: nothing another journey or an earlier run against the stack left.
 */
import { devnetA, devnetB } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import { type Address, createWalletClient, type Hex, http, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { testNfts } from '../../api/src/features/history/testContracts.ts'
import { clients, expect, leaveForDevnetB, rpc, withEvmKey } from './fixtures.ts'

const api = 'http://127.0.0.1:8787'
const visitorKey = generatePrivateKey()
const { evm: visitor, test } = withEvmKey(visitorKey)
type Devnet = typeof devnetA | typeof devnetB

/** Sent from `key` on `chain`, one transaction per block (anvil mines each at once); their hashes, in order. */
async function transfers(chain: Devnet, key: Hex, count: number): Promise<Hex[]> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain,
    transport: http(chain.rpcUrls.default.http[0]),
  })
  const client = chain.id === devnetA.id ? clients.a : clients.b
  const hashes: Hex[] = []
  for (let i = 1; i <= count; i++) {
    const hash = await wallet.sendTransaction({
      to: privateKeyToAccount(generatePrivateKey()).address,
      value: parseEther(`0.00${i}`),
    })
    await client.waitForTransactionReceipt({ hash })
    hashes.push(hash)
  }
  return hashes
}

/** A fresh account on `chain` with 100 ETH, set by anvil itself. */
async function funded(chain: Devnet, key: Hex): Promise<void> {
  const address = privateKeyToAccount(key).address
  await rpc(chain.rpcUrls.default.http[0] as string, 'anvil_setBalance', [address, toHex(parseEther('100'))])
}

/**
 * An ERC-721 collection named `name` deployed by someone else, who mints one token to the visitor: the
 * visitor's only part in that transaction is the NFT received. The mint's hash.
 */
async function airdrop(name: string, symbol: string): Promise<Hex> {
  const key = generatePrivateKey()
  await funded(devnetA, key)
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain: devnetA,
    transport: http(devnetA.rpcUrls.default.http[0]),
  })
  const { abi, bytecode } = testNfts().TestNft721
  const deployed = await clients.a.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi, bytecode, args: [name, symbol] }),
  })
  const hash = await wallet.writeContract({
    address: deployed.contractAddress as Address,
    abi,
    functionName: 'mint',
    args: [visitor, 1n],
  })
  await clients.a.waitForTransactionReceipt({ hash })
  return hash
}

type Answer = { data: { id: string }[]; next: string | null }

/** The API's first page of the visitor's history on `chainId`, as anyone can ask for it. */
async function firstPage(chainId: number): Promise<Answer> {
  const query = new URLSearchParams({ projectId: 'demo', chainId: `eip155:${chainId}` })
  const response = await fetch(`${api}/v1/account/${visitor}/history?${query}`)
  return (await response.json()) as Answer
}

/** The Activity tab's rows, top to bottom, by transaction id. */
const rows = (modal: FrameLocator) =>
  modal.getByTestId('transaction').evaluateAll((items) => items.map((item) => item.getAttribute('data-id')))

/** Every history page the modal read, with the cursor it asked with. */
function historyReads(page: Page): { cursor: string | null; answer: Answer }[] {
  const reads: { cursor: string | null; answer: Answer }[] = []
  page.on('response', async (response) => {
    const url = new URL(response.url())
    if (!url.pathname.endsWith('/history') || response.status() !== 200) return
    reads.push({ cursor: url.searchParams.get('cursor'), answer: (await response.json()) as Answer })
  })
  return reads
}

test('Activity pages through the cursor in order, hides a spam airdrop, and lists only the chain the account is on', async ({
  page,
  modal,
}) => {
  await funded(devnetA, visitorKey)
  await funded(devnetB, visitorKey)
  // Oldest first: a spam airdrop (its name advertises a site), an airdrop that does not, then 23 transfers
  // on A, so A's list (24 items) is longer than the API's page of 20. Two transfers on B.
  const spam = await airdrop('Claim your reward at eth-gift.xyz', 'GIFT')
  const plain = await airdrop('Harbour Sketches', 'HRBR')
  const onA = await transfers(devnetA, visitorKey, 23)
  const onB = await transfers(devnetB, visitorKey, 2)
  const expectedA = [...onA].reverse().concat(plain)
  const expectedB = [...onB].reverse()

  // The indexer follows each chain in block order: once the newest transaction is listed, all are.
  await expect.poll(async () => (await firstPage(devnetA.id)).data[0]?.id).toBe(onA.at(-1))
  await expect.poll(async () => (await firstPage(devnetB.id)).data[0]?.id).toBe(onB.at(-1))

  const reads = historyReads(page)
  await page.goto('/module.html')
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', visitor)
  await modal.getByRole('tab', { name: 'Activity' }).click()

  // The first page, then the next one through its cursor (the end of the list coming into view, or Load more).
  // Either may come first, so the journey asks for more only while the button offers it.
  const more = modal.getByRole('button', { name: 'Load more' })
  await expect(async () => {
    if ((await more.count()) > 0 && (await more.isEnabled())) await more.click({ timeout: 1_000 })
    expect(await modal.getByTestId('transaction').count()).toBe(expectedA.length)
  }).toPass({ timeout: 30_000 })
  // Newest first, none twice, none missing; the spam airdrop is not among them, the other airdrop is.
  expect(await rows(modal)).toEqual(expectedA)
  await expect(modal.getByRole('button', { name: 'Load more' })).toHaveCount(0)

  // What the API handed the modal: a first page of 20 with a cursor, and after it the rest with none.
  const first = reads.find((read) => read.cursor === null && read.answer.data[0]?.id === onA.at(-1))
  expect(first?.answer.data.map((item) => item.id)).toEqual(expectedA.slice(0, 20))
  expect(first?.answer.next).toEqual(expect.any(String))
  const second = reads.find((read) => read.cursor === first?.answer.next)
  expect(second?.answer.data.map((item) => item.id)).toEqual(expectedA.slice(20))
  expect(second?.answer.next).toBeNull()
  expect(reads.flatMap((read) => read.answer.data.map((item) => item.id))).not.toContain(spam)

  // The wallet moves to devnet B: Activity lists B's two transfers, and only them.
  await leaveForDevnetB(page)
  await expect(modal.getByTestId('account-network')).toHaveText(/Airlock Devnet B/)
  await expect.poll(() => rows(modal)).toEqual(expectedB)
})
