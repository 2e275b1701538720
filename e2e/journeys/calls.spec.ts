/**
 * EIP-5792 through the modal with a page wallet that cannot batch (the test wallet, a plain EOA, answers
 * wallet_getCapabilities with 4200): the dApp hears `atomic: unsupported`; a batch (the ALT token's approve
 * and transfer) runs call by call, each approved in the wallet, and wallet_getCallsStatus ends at 200 with
 * both receipts, the effects asserted on chain; a declined second call leaves 600 with the first receipt;
 * bad batches are refused with their codes; wallet_showCallsStatus opens the calls view.
 */
import { devnetA, testTokenAddress } from '@airlock/devnet'
import type { Page } from '@playwright/test'
import { type Address, createWalletClient, custom, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { walletCalls } from '../wallets/index.ts'
import { axeViolations, clients, connectWallet, expect, request } from './fixtures.ts'
import { connectFunded, fundAlt, test } from './onrampFixtures.ts'

const page = '/module.html?networks=eip155:31337'
const chainId = `0x${devnetA.id.toString(16)}`
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address

/** An approval of `spender` and a transfer to `to`, both on the ALT token. */
function approveAndTransfer(spender: Address, to: Address) {
  return [
    {
      to: testTokenAddress,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, parseUnits('5', 18)],
      }),
    },
    {
      to: testTokenAddress,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits('3', 18)] }),
    },
  ]
}

type Status = { status: number; atomic: boolean; receipts?: { status: string; transactionHash: string }[] }

/** Polls wallet_getCallsStatus until the batch settles (status 200 or more). */
async function settled(tab: Page, id: string): Promise<Status> {
  let last: Status | undefined
  await expect
    .poll(
      async () => {
        const answer = await request(tab, 'wallet_getCallsStatus', [id])
        last = answer.result as Status
        return last?.status ?? 0
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(200)
  return last as Status
}

const sends = async (tab: Page) =>
  (await walletCalls(tab)).filter((call) => call.method === 'eth_sendTransaction').length

/**
 * A page wallet that batches (EIP-5792), announced beside the test wallet: it names `atomic: supported` on
 * every chain, keeps the batches the page hands it and answers for them; the rest it asks the test wallet.
 * No such extension runs offline; what is under test is that the modal hands it the dApp's batch unchanged.
 */
function batchingWallet() {
  const inner = window.__airlockTestWallets?.evm?.provider
  const received: unknown[] = []
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      if (method === 'wallet_getCapabilities') return { '0x0': { atomic: { status: 'supported' } } }
      if (method === 'wallet_sendCalls') {
        received.push(params?.[0])
        return { id: `batch-${received.length}` }
      }
      if (method === 'wallet_getCallsStatus')
        return {
          version: '2.0.0',
          id: params?.[0],
          chainId: '0x7a69',
          status: 200,
          atomic: true,
          receipts: [],
        }
      return inner?.request({ method, params })
    },
    on: () => provider,
    removeListener: () => provider,
  }
  ;(window as unknown as { batched: unknown[] }).batched = received
  const info = {
    uuid: '5792a1e7-0000-4000-8000-000000005792',
    name: 'Batching Wallet',
    icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/>",
    rdns: 'dev.airlock.batching',
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}

test('a page wallet that batches gets the dApp’s batch unchanged and answers for it', async ({
  page: tab,
  modal,
  account,
}) => {
  await tab.addInitScript(batchingWallet)
  await tab.goto(page)
  await connectWallet(tab, modal, 'Batching Wallet', account)
  await tab.evaluate(() => window.airlock?.close())
  expect(await request(tab, 'wallet_getCapabilities', [account, [chainId]])).toEqual({
    result: { [chainId]: { atomic: { status: 'supported' } } },
  })
  const batch = {
    version: '2.0.0',
    chainId,
    from: account,
    atomicRequired: true,
    calls: approveAndTransfer(fresh(), fresh()),
  }
  expect(await request(tab, 'wallet_sendCalls', [batch])).toEqual({ result: { id: 'batch-1' } })
  expect(await tab.evaluate(() => (window as unknown as { batched: unknown[] }).batched)).toEqual([batch])
  expect((await request(tab, 'wallet_getCallsStatus', ['batch-1'])).result).toMatchObject({
    status: 200,
    atomic: true,
  })
  // Still checked at the edge: a malformed batch never reaches the wallet.
  const bad = await request(tab, 'wallet_sendCalls', [{ ...batch, calls: [{ to: 'alice.eth' }] }])
  expect(bad.error?.code).toBe(-32602)
  expect(await tab.evaluate(() => (window as unknown as { batched: unknown[] }).batched)).toHaveLength(1)
})

test.describe('a wallet that cannot batch', () => {
  test.beforeEach(async ({ page: tab, modal, account }) => {
    await connectFunded(tab, modal, account, { path: page })
    await fundAlt(account, parseUnits('10', 18))
    await tab.evaluate(() => window.airlock?.close())
  })

  test('an EOA hears atomic: unsupported, and a batch runs call by call to 200, its effects on chain', async ({
    page: tab,
    account,
  }) => {
    expect(await request(tab, 'wallet_getCapabilities', [account, [chainId]])).toEqual({
      result: { [chainId]: { atomic: { status: 'unsupported' } } },
    })
    const [spender, to] = [fresh(), fresh()]
    const before = await sends(tab)
    const sent = await request(tab, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId,
        from: account,
        atomicRequired: false,
        calls: approveAndTransfer(spender, to),
      },
    ])
    const id = (sent.result as { id: string }).id
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)

    const status = await settled(tab, id)
    expect(status).toMatchObject({ status: 200, atomic: false })
    expect(status.receipts?.map((receipt) => receipt.status)).toEqual(['0x1', '0x1'])
    // Two transactions, each asked of the wallet (and approved there) on its own.
    expect((await sends(tab)) - before).toBe(2)
    const hashes = status.receipts?.map((receipt) => receipt.transactionHash as `0x${string}`) ?? []
    expect(new Set(hashes).size).toBe(2)

    const read = (functionName: 'allowance' | 'balanceOf', args: readonly Address[]) =>
      clients.a.readContract({ address: testTokenAddress, abi: erc20Abi, functionName, args } as never)
    expect(await read('allowance', [account, spender])).toBe(parseUnits('5', 18))
    expect(await read('balanceOf', [to])).toBe(parseUnits('3', 18))
    expect(await read('balanceOf', [account])).toBe(parseUnits('7', 18))
  })

  test('viem’s getCapabilities, sendCalls and waitForCallsStatus (what wagmi’s hooks call) work as with any wallet', async ({
    page: tab,
    account,
  }) => {
    // The dApp page's provider, driven by viem's own actions: its shapes and status codes, not ours.
    const client = createWalletClient({
      account,
      chain: devnetA,
      transport: custom({
        async request({ method, params }) {
          const answer = await request(tab, method, params)
          if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error)
          return answer.result
        },
      }),
    })
    expect(await client.getCapabilities({ chainId: devnetA.id })).toMatchObject({
      atomic: { status: 'unsupported' },
    })
    const to = fresh()
    const { id } = await client.sendCalls({ calls: approveAndTransfer(fresh(), to) })
    const status = await client.waitForCallsStatus({ id, timeout: 30_000 })
    expect(status).toMatchObject({ status: 'success', atomic: false })
    expect(status.receipts).toHaveLength(2)
    expect(
      await clients.a.readContract({
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [to],
      }),
    ).toBe(parseUnits('3', 18))
  })

  test('a batch the wallet cannot honour is refused with its code, nothing sent', async ({
    page: tab,
    account,
  }) => {
    const calls = approveAndTransfer(fresh(), fresh())
    const batch = { version: '2.0.0', chainId, from: account, atomicRequired: false, calls }
    const before = await sends(tab)
    expect(
      (await request(tab, 'wallet_sendCalls', [{ ...batch, atomicRequired: true }])).error,
    ).toMatchObject({
      code: 5760,
    })
    const malformed = await request(tab, 'wallet_sendCalls', [
      { ...batch, calls: [{ to: testTokenAddress.slice(2), data: '0x' }] },
    ])
    expect(malformed.error?.code).toBe(-32602)
    expect(malformed.error?.message).toContain('calls[0].to')
    expect((await request(tab, 'wallet_sendCalls', [{ ...batch, chainId: '0x1' }])).error?.code).toBe(5710)
    expect((await request(tab, 'wallet_sendCalls', [{ ...batch, from: fresh() }])).error?.code).toBe(4100)
    const tooMany = Array.from({ length: 51 }, () => calls[0])
    expect((await request(tab, 'wallet_sendCalls', [{ ...batch, calls: tooMany }])).error?.code).toBe(5740)
    const flow = { ...batch, capabilities: { flowControl: { onFailure: 'stop' } } }
    expect((await request(tab, 'wallet_sendCalls', [flow])).error?.code).toBe(5700)
    expect((await request(tab, 'wallet_getCallsStatus', [`0x${'ab'.repeat(32)}`])).error?.code).toBe(5730)
    expect(await sends(tab)).toBe(before)

    // A dApp's own id is kept, and a second batch with it is refused.
    const first = await request(tab, 'wallet_sendCalls', [{ ...batch, id: 'order-42', calls: [calls[0]] }])
    expect(first.result).toEqual({ id: 'order-42' })
    expect((await request(tab, 'wallet_sendCalls', [{ ...batch, id: 'order-42' }])).error?.code).toBe(5720)
    expect(await settled(tab, 'order-42')).toMatchObject({ status: 200 })
  })

  test('a second call declined in the wallet leaves 600 with the first call’s receipt', async ({
    page: tab,
    account,
  }) => {
    // The person approves the first transaction, then declines the next one the wallet shows.
    await tab.evaluate(() => {
      const wallets = window.__airlockTestWallets
      const watch = setInterval(() => {
        if (!wallets?.calls.some((call) => call.method === 'eth_sendTransaction')) return
        wallets.setMode('reject')
        clearInterval(watch)
      }, 1)
    })
    const [spender, to] = [fresh(), fresh()]
    const sent = await request(tab, 'wallet_sendCalls', [
      { version: '2.0.0', chainId, atomicRequired: false, calls: approveAndTransfer(spender, to) },
    ])
    const id = (sent.result as { id: string }).id
    const status = await settled(tab, id)
    expect(status).toMatchObject({ status: 600, atomic: false })
    expect(status.receipts).toHaveLength(1)
    expect(status.receipts?.[0]?.status).toBe('0x1')
    expect(
      await clients.a.readContract({
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [account, spender],
      }),
    ).toBe(parseUnits('5', 18))
    expect(
      await clients.a.readContract({
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [to],
      }),
    ).toBe(0n)
  })

  test('a first call declined rejects the batch with 4001', async ({ page: tab }) => {
    await tab.evaluate(() => window.__airlockTestWallets?.setMode('reject'))
    const sent = await request(tab, 'wallet_sendCalls', [
      { version: '2.0.0', chainId, atomicRequired: false, calls: approveAndTransfer(fresh(), fresh()) },
    ])
    expect(sent.error?.code).toBe(4001)
  })

  test('wallet_showCallsStatus opens the calls view: each call, its state, axe-clean', async ({
    page: tab,
    modal,
  }) => {
    const sent = await request(tab, 'wallet_sendCalls', [
      { version: '2.0.0', chainId, atomicRequired: false, calls: approveAndTransfer(fresh(), fresh()) },
    ])
    const id = (sent.result as { id: string }).id
    await settled(tab, id)
    expect(await request(tab, 'wallet_showCallsStatus', [id])).toEqual({ result: null })
    const view = modal.getByTestId('calls')
    await expect(view).toBeVisible()
    await expect(view).toHaveAttribute('data-status', '200')
    await expect(modal.getByRole('list', { name: 'Calls in this batch' }).getByRole('listitem')).toHaveCount(
      2,
    )
    await expect(modal.getByTestId('calls-row').first()).toHaveAttribute('data-state', 'confirmed')
    await expect(modal.getByTestId('calls-status')).toHaveText('All calls confirmed')
    await expect(view).toContainText('Your wallet runs these calls one by one')
    expect(await axeViolations(tab)).toEqual([])
    await modal.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => tab.evaluate(() => window.airlock?.getState().open)).toBe(false)
    expect((await request(tab, 'wallet_showCallsStatus', ['nope'])).error?.code).toBe(5730)
  })
})
