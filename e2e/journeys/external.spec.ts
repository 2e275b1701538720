/**
 * A provider the dApp holds itself (`externalWallets`): listed in Connect by the dApp's name and icon, once
 * even where the same provider is announced on the page too, connected through the modal, and answering the
 * dApp's transactions, which reach the chain. Here the provider is anvil's own JSON-RPC, whose unlocked
 * account signs: a real EIP-1193 provider that is neither an extension nor a test wallet.
 */
import { Accounts } from '@airlock/devnet'
import type { Page } from '@playwright/test'
import { type Address, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { clients, expect, modalOrigin, request, test } from './fixtures.ts'
import { rogueModal } from './rogueModal.ts'

// A sender no other journey sends from, so its nonce is this journey's alone.
const signer = Accounts.all()[7]?.address as Address
const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%23333"/%3E%3C/svg%3E'

/** Hands the page a provider over anvil's JSON-RPC before the demo's module creates Airlock. */
async function withNodeSigner(page: Page, options: object = {}) {
  await page.addInitScript(
    ([signer, icon]) => {
      let id = 0
      const rpc = async (method: string, params: unknown) => {
        const response = await fetch('http://127.0.0.1:8545', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
        })
        const { result, error } = await response.json()
        if (error) throw Object.assign(new Error(error.message), { code: error.code })
        return result
      }
      const provider = {
        request: ({ method, params }: { method: string; params?: unknown }) =>
          method === 'eth_requestAccounts' || method === 'eth_accounts'
            ? Promise.resolve([signer])
            : rpc(method, params),
      }
      const external = [{ id: 'node', name: 'Node Signer', icon, rdns: 'dev.airlock.node', provider }]
      Object.assign(window, { airlockExternalWallets: external, nodeSigner: provider })
      // The same provider announced on the page as well, as a wallet that also ships an extension would.
      const info = { uuid: 'node-signer', name: 'Node Signer on the page', icon, rdns: 'dev.airlock.node' }
      const announce = () =>
        dispatchEvent(
          new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
        )
      addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    [signer, icon] as const,
  )
  await page.goto(`/module.html?options=${encodeURIComponent(JSON.stringify(options))}`)
}

test('a provider the dApp hands over is listed once by its name and icon, connects, and its transaction is mined', async ({
  page,
  modal,
}) => {
  await withNodeSigner(page)
  await page.evaluate(() => window.airlock?.open())
  const row = modal.getByRole('button', { name: 'Node Signer' })
  await expect(row).toHaveCount(1)
  await expect(row.locator('img')).toHaveAttribute('src', icon)
  await expect(modal.getByRole('button', { name: 'Node Signer on the page' })).toHaveCount(0)

  await row.click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  expect((await request(page, 'eth_accounts')).result).toEqual([signer])

  const to = privateKeyToAccount(generatePrivateKey()).address
  const sent = await request(page, 'eth_sendTransaction', [
    { from: signer, to, value: `0x${parseEther('0.25').toString(16)}` },
  ])
  expect(sent.error).toBeUndefined()
  const receipt = await clients.a.waitForTransactionReceipt({ hash: sent.result as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(signer.toLowerCase())
  expect(await clients.a.getBalance({ address: to })).toBe(parseEther('0.25'))
})

test('excludeWalletIds hides a provider the dApp handed over, by its rdns', async ({ page, modal }) => {
  await withNodeSigner(page, { excludeWalletIds: ['dev.airlock.node'] })
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
  await expect(modal.getByRole('button', { name: /Node Signer/ })).toHaveCount(0)
})

/**
 * A modal origin gone bad, aimed at the dApp's own provider: it welcomes the host, connects the external
 * wallet (connection management is the modal's to do), then asks it, on its own, to send 1 ETH to an
 * address of its choosing and to sign a message. Here the provider really signs (anvil's unlocked account),
 * so anything the host let through would move ETH on chain.
 */
const sendsOnItsOwn = (thief: Address) =>
  rogueModal(`
    const wallets = await call('w', 'listWallets')
    const external = wallets.value.find((w) => w.external)
    const ask = (id, method, params) =>
      call(id, 'walletRequest', { walletId: external.id, request: { namespace: 'eip155', method, params } })
    const accounts = await ask('a', 'eth_requestAccounts', [])
    const from = accounts.value[0]
    window.results = {
      wallet: external.id,
      accounts,
      send: await ask('t', 'eth_sendTransaction', [{ from, to: '${thief}', value: '0xde0b6b3a7640000' }]),
      sign: await ask('s', 'personal_sign', ['0x68656c6c6f', from]),
    }
`)

test('a modal gone bad cannot have the dApp’s own provider send or sign: the host refuses, and no ETH moves', async ({
  page,
}) => {
  const thief = privateKeyToAccount(generatePrivateKey()).address
  const before = await clients.a.getBalance({ address: signer })
  const nonce = await clients.a.getTransactionCount({ address: signer })
  await page.route(`${modalOrigin}/rogue?*`, (route) =>
    route.fulfill({ contentType: 'text/html', body: sendsOnItsOwn(thief) }),
  )
  await withNodeSigner(page, { modalUrl: `${modalOrigin}/rogue` })
  const frame = () => page.frames().find((f) => f.url().startsWith(`${modalOrigin}/rogue`))
  await expect.poll(() => Boolean(frame())).toBe(true)
  const results = () => frame()?.evaluate(() => (window as { results?: Record<string, unknown> }).results)
  const refused = { ok: false, error: { code: 4100, message: 'This page did not ask for that request.' } }
  await expect.poll(results).toMatchObject({
    wallet: 'external:node',
    accounts: { ok: true, value: [signer] },
    send: refused,
    sign: refused,
  })
  // Read on chain: the signer sent nothing and the thief holds nothing.
  expect(await clients.a.getTransactionCount({ address: signer })).toBe(nonce)
  expect(await clients.a.getBalance({ address: signer })).toBe(before)
  expect(await clients.a.getBalance({ address: thief })).toBe(0n)
})
