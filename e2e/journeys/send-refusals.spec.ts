/**
 * Send refuses an account on a chain it does not serve: docs/behaviour.md §5 (Send: no network … →
 * **Unsupported chain**). The visitor gets there as one does: the dApp allows unsupported chains
 * (`allowUnsupportedChain`), and the wallet moves to one the dApp did not configure. Nothing leaves the
 * account, on either chain (asserted there).
 *
 * §5's other refusal, **A token is required**, has no journey: the token picker only offers the account's
 * holdings, each with a key, and the form starts on the native coin, so no visitor can leave it empty.
 * `features/send/Flow.test.ts` covers it against the form's check.
 */
import { devnetA, devnetB } from '@airlock/devnet/chains'
import { parseEther, toHex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { clients, connectEvm, expect, leaveForDevnetB, request, rpc, withEvmKey } from './fixtures.ts'

// An account of this journey's own, so its balances and nonces are only what this journey did.
const { evm: visitor, test } = withEvmKey(generatePrivateKey())

test("Send on a chain the dApp did not configure says 'Unsupported chain', and nothing leaves the account", async ({
  page,
  modal,
}) => {
  for (const chain of [devnetA, devnetB])
    await rpc(chain.rpcUrls.default.http[0] as string, 'anvil_setBalance', [visitor, toHex(parseEther('10'))])
  const options = encodeURIComponent(JSON.stringify({ allowUnsupportedChain: true }))
  await page.goto(`/module.html?networks=eip155:31337&options=${options}`)
  await connectEvm(page, modal)
  await page.evaluate(() => window.airlock?.close())
  await leaveForDevnetB(page)
  await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a6a')

  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByTestId('unsupported-chain-notice')).toBeVisible()
  await modal.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(modal.getByRole('alert').filter({ hasText: /^Unsupported chain$/ })).toBeVisible()
  // Not a form to fill in and send from.
  await expect(modal.getByLabel('Amount')).toHaveCount(0)
  await expect(modal.getByRole('button', { name: 'Review' })).toHaveCount(0)

  for (const client of [clients.a, clients.b]) {
    expect(await client.getBalance({ address: visitor })).toBe(parseEther('10'))
    expect(await client.getTransactionCount({ address: visitor })).toBe(0)
  }
})
