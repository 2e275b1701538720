/**
 * Smart sessions end to end (issue 19's "Done when"): an embedded user's smart account grants the dApp's key
 * a spend limit of 10 ALT on the token's `transfer` for an hour (GrantPermissions, then the wallet's
 * confirmation of the operation and the account's signature of the page it was granted to); the dApp's key
 * then sends user operations from the visitor's account through the API's bundler and paymaster routes with
 * no prompt: 6 ALT pass and move on chain, the next 6 are refused (over the limit, AA24) and move nothing;
 * Account lists the session and its page; Revoke ends it, and a later transfer within what was left fails too.
 *
 * The dApp's key lives in the test, as a dApp's backend would hold it: what it sends goes through the same
 * public API routes a page would call.
 */

import { Accounts } from '@airlock/devnet'
import { devnetA, devnetTokens } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  toSmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, mailCode, request, test } from './fixtures.ts'

const api = 'http://127.0.0.1:8787'
const chainA = 'eip155:31337'
const rpcA = 'http://127.0.0.1:8545'
const alt = devnetTokens.ALT.address as Address
const client = createPublicClient({ chain: devnetA, transport: http(rpcA), pollingInterval: 200 })

async function emailLogin(page: Page, modal: FrameLocator, email: string) {
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await modal.getByLabel('Email', { exact: true }).fill(email)
  await modal.getByRole('button', { name: 'Continue with email' }).click()
  await modal.getByLabel('Code').pressSequentially(await mailCode(email, { after: asked }))
  await modal.getByRole('button', { name: 'Use a recovery password instead' }).click()
  await modal.getByLabel('Recovery password', { exact: true }).fill('a long recovery phrase')
  await modal.getByLabel('Repeat the recovery password').fill('a long recovery phrase')
  await modal.getByRole('button', { name: 'Create wallet' }).click()
  await modal.getByRole('button', { name: 'Not now' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
}

const balanceOf = (address: Address) =>
  client.readContract({ address: alt, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

/**
 * The dApp's key driving the visitor's account through the API's routes: the account takes a 65-byte
 * signature of the operation's hash by the key as it takes its owner's (with permissionless, README's
 * `toSimpleSmartAccount` with the key as owner does the same).
 */
async function keyClient(key: ReturnType<typeof privateKeyToAccount>, address: Address) {
  const account = await toSmartAccount({
    client,
    entryPoint: { abi: entryPoint08Abi, address: entryPoint08Address, version: '0.8' },
    getAddress: async () => address,
    getFactoryArgs: async () => ({ factory: undefined, factoryData: undefined }),
    encodeCalls: async (calls) =>
      encodeFunctionData({
        abi: accountAbi,
        functionName: 'executeBatch',
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
      }),
    // A signature the key really made, so the estimate runs the session's check (which writes what is spent)
    // as the real operation will; a dummy that recovers to nobody would fail early and under-estimate (AA26).
    getStubSignature: async () => key.sign({ hash: keccak256('0x') }),
    signMessage: async () => {
      throw new Error('a session key signs operations only')
    },
    signTypedData: async () => {
      throw new Error('a session key signs operations only')
    },
    signUserOperation: async (operation) =>
      key.sign({
        hash: getUserOperationHash({
          userOperation: { ...operation, sender: address } as UserOperation<'0.8'>,
          entryPointAddress: entryPoint08Address,
          entryPointVersion: '0.8',
          chainId: 31337,
        }),
      }),
  })
  const route = (kind: string) => http(`${api}/v1/${kind}/${chainA}?projectId=demo`)
  return createBundlerClient({
    client,
    account,
    transport: route('bundler'),
    paymaster: createPaymasterClient({ transport: route('paymaster') }),
  })
}

const accountAbi = parseAbi(['function executeBatch((address target, uint256 value, bytes data)[] calls)'])

async function transfer(bundler: Awaited<ReturnType<typeof keyClient>>, to: Address, amount: bigint) {
  const hash = await bundler.sendUserOperation({
    calls: [
      { to: alt, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) },
    ],
  })
  const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval: 200 })
  expect(receipt.success).toBe(true)
}

test('a smart account grants the dApp a 10 ALT session: 6 pass with no prompt, 6 more are refused on chain, Revoke ends it', async ({
  page,
  modal,
}) => {
  test.setTimeout(180_000)
  await page.goto(`/module.html?networks=${chainA}`)
  await emailLogin(page, modal, `sessions-${Date.now()}@example.com`)
  const [address] = ((await request(page, 'eth_accounts')).result ?? []) as Address[]
  expect(address).toBeDefined()
  const account = address as Address

  // The visitor holds 20 ALT (and no ETH: the project's paymaster pays).
  const funder = createWalletClient({
    account: privateKeyToAccount(Accounts.all()[0]?.privateKey ?? '0x'),
    transport: http(rpcA),
  })
  await client.waitForTransactionReceipt({
    hash: await funder.writeContract({
      chain: null,
      address: alt,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account, parseEther('20')],
    }),
  })

  const key = privateKeyToAccount(generatePrivateKey())
  const expiry = Math.floor(Date.now() / 1000) + 3600
  const granted = request(page, 'wallet_grantPermissions', [
    {
      chainId: '0x7a69',
      expiry,
      signer: { type: 'account', data: { address: key.address } },
      permissions: [
        { type: 'erc20-token-transfer', data: { address: alt, allowance: toHex(parseEther('10')) } },
      ],
    },
  ])
  await expect(modal.getByText('asks for a session key')).toBeVisible()
  await expect(modal.getByTestId('session-limit')).toHaveText('10 ALT')
  await modal.getByRole('button', { name: 'Grant' }).click()
  // The wallet confirms the operation that grants it, as any other, then the account signs which page it
  // was granted to (the API records it for Account's list).
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(modal.getByText('smart session granted to http://localhost:5173')).toBeVisible({
    timeout: 30_000,
  })
  await modal.getByRole('button', { name: 'Approve' }).click()
  const answer = (await granted) as { result?: { context: string }[] }
  expect(answer.result?.[0]?.context).toMatch(/^0x[0-9a-f]{192}$/)

  // Within the limit, no prompt: the key's own operation, sponsored, moves the tokens.
  const bundler = await keyClient(key, account)
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  await transfer(bundler, recipient, parseEther('6'))
  expect(await balanceOf(recipient)).toBe(parseEther('6'))
  expect(await balanceOf(account)).toBe(parseEther('14'))

  // Over what is left: refused on chain (the account's validation, AA24), nothing moves.
  await expect(transfer(bundler, recipient, parseEther('6'))).rejects.toThrow(/AA24|signature/i)
  expect(await balanceOf(recipient)).toBe(parseEther('6'))
  expect(await balanceOf(account)).toBe(parseEther('14'))

  // Account lists it; Revoke signs the API's revocation and sends revokeSession.
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'App sessions' }).click()
  await expect(modal.getByTestId('smart-session')).toHaveCount(1)
  await expect(modal.getByTestId('smart-session')).toContainText('Granted to http://localhost:5173')
  await modal.getByRole('button', { name: 'Revoke' }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(modal.getByText('Session revoked')).toBeVisible({ timeout: 30_000 })
  await expect(transfer(bundler, recipient, parseEther('1'))).rejects.toThrow()
  expect(await balanceOf(recipient)).toBe(parseEther('6'))
})
