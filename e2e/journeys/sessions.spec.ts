/**
 * Smart sessions end to end (issue 19's "Done when"): an embedded user's smart account grants the dApp's key
 * a spend limit of 10 ALT on the token's `transfer` for an hour (GrantPermissions, then the wallet's
 * confirmation of the operation and the account's signature of the page it was granted to); the dApp's key
 * then sends user operations from the visitor's account through the API's bundler and paymaster routes with
 * no prompt: 6 ALT pass and move on chain, the next 6 are refused (over the limit, AA24) and move nothing;
 * Account lists the session and its page; Revoke ends it on chain, and a later transfer within what was left
 * fails too.
 *
 * Then the attacker's journey (issue 30): the key tries to burn the account's ETH through gas (its own
 * operations paid by the account at an absurd fee or with inflated gas, and zero-spend operations once the
 * limit is used up), through the API's bundler and as its own bundler: each is refused, and the account's ETH
 * is unchanged on chain. It cannot hide its session at the API either, and a revocation the visitor refuses
 * on chain leaves the session listed, as the chain still has it.
 *
 * The dApp's key lives in the test, as a dApp's backend would hold it: what it sends goes through the same
 * public API routes a page would call.
 */

import { Siwx } from '@airlock/bridge-protocol'
import { Accounts } from '@airlock/devnet'
import { accountAbstraction, devnetA, devnetTokens } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
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
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  toSmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { createWalletByEmail } from './emailFixtures.ts'
import { expect, request, test } from './fixtures.ts'

const api = 'http://127.0.0.1:8787'
const chainA = 'eip155:31337'
const rpcA = 'http://127.0.0.1:8545'
const alt = devnetTokens.ALT.address as Address
const client = createPublicClient({ chain: devnetA, transport: http(rpcA), pollingInterval: 200 })
const funder = createWalletClient({
  account: privateKeyToAccount(Accounts.all()[0]?.privateKey ?? '0x'),
  chain: devnetA,
  transport: http(rpcA),
})

/** A new email login on the demo page; resolves with the smart account's address once connected. */
async function emailLogin(page: Page, modal: FrameLocator, email: string): Promise<Address> {
  await page.goto(`/module.html?networks=${chainA}`)
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await createWalletByEmail(modal, email, asked)
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  const [address] = ((await request(page, 'eth_accounts')).result ?? []) as Address[]
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  return address as Address
}

/** Sends `amount` ALT from anvil's account 0, which holds a million. */
async function fund(to: Address, amount: bigint) {
  const hash = await funder.writeContract({
    address: alt,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  await client.waitForTransactionReceipt({ hash })
}

const balanceOf = (address: Address) =>
  client.readContract({ address: alt, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

/** What an address holds in ETH: its balance and its deposit at EntryPoint v0.8, which pays its prefunds. */
const ethOf = async (address: Address) =>
  (await client.getBalance({ address })) +
  (await client.readContract({
    address: entryPoint08Address,
    abi: entryPoint08Abi,
    functionName: 'balanceOf',
    args: [address],
  }))

/**
 * The dApp asks for ALT transfers up to 10 ALT for an hour (no gas-limit: the modal's default allowance),
 * and the visitor grants it: the grant view's words, then the wallet's confirmation of the operation and
 * the account's signature of the page. Resolves with the session's context (pci).
 */
async function grantTenAlt(page: Page, modal: FrameLocator, key: PrivateKeyAccount): Promise<Hex> {
  const granted = request(page, 'wallet_grantPermissions', [
    {
      chainId: '0x7a69',
      expiry: Math.floor(Date.now() / 1000) + 3600,
      signer: { type: 'account', data: { address: key.address } },
      permissions: [
        { type: 'erc20-token-transfer', data: { address: alt, allowance: toHex(parseEther('10')) } },
      ],
    },
  ])
  await expect(modal.getByText('asks for a session key')).toBeVisible()
  await expect(modal.getByTestId('session-limit')).toHaveText('10 ALT')
  await expect(modal.getByTestId('session-gas')).toHaveText(
    'Up to 0.01 ETH from your account, when no sponsor pays',
  )
  await modal.getByRole('button', { name: 'Grant' }).click()
  // The wallet confirms the operation that grants it, as any other, then the account signs which page it
  // was granted to (the API records it for Account's list).
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(modal.getByText('smart session granted to http://localhost:5173')).toBeVisible({
    timeout: 30_000,
  })
  await modal.getByRole('button', { name: 'Approve' }).click()
  const answer = (await granted) as { result?: { context: Hex }[] }
  const context = answer.result?.[0]?.context
  expect(context).toMatch(/^0x[0-9a-f]{192}$/)
  return context as Hex
}

const accountAbi = parseAbi([
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
  'function sessionOf(address key) view returns ((address target, bytes4 selector, uint48 validUntil, uint128 limit, uint128 spent, uint128 gasAllowance, uint128 gasSpent))',
])

/** The expiry of the key's session as the account's `sessionOf` has it on chain: 0 once revoked. */
const validUntilOf = async (account: Address, key: Address) =>
  (await client.readContract({ address: account, abi: accountAbi, functionName: 'sessionOf', args: [key] }))
    .validUntil

/**
 * The dApp's key driving the visitor's account through the API's routes: the account takes a 65-byte
 * signature of the operation's hash by the key as it takes its owner's (with permissionless, README's
 * `toSimpleSmartAccount` with the key as owner does the same). Sponsored by the project's paymaster, unless
 * `sponsored` is false: then the account pays for its gas.
 */
async function keyClient(key: PrivateKeyAccount, address: Address, { sponsored = true } = {}) {
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
    ...(sponsored ? { paymaster: createPaymasterClient({ transport: route('paymaster') }) } : {}),
  })
}

type KeyClient = Awaited<ReturnType<typeof keyClient>>

const transferCall = (to: Address, amount: bigint) => ({
  to: alt,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
})

async function transfer(bundler: KeyClient, to: Address, amount: bigint) {
  const hash = await bundler.sendUserOperation({ calls: [transferCall(to, amount)] })
  const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval: 200 })
  expect(receipt.success).toBe(true)
}

test('a smart account grants the dApp a 10 ALT session: 6 pass with no prompt, 6 more are refused on chain, Revoke ends it', async ({
  page,
  modal,
}) => {
  test.setTimeout(180_000)
  const account = await emailLogin(page, modal, `sessions-${Date.now()}@example.com`)
  // The visitor holds 20 ALT (and no ETH: the project's paymaster pays).
  await fund(account, parseEther('20'))
  const key = privateKeyToAccount(generatePrivateKey())
  await grantTenAlt(page, modal, key)

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

  // Account lists it; Revoke sends revokeSession, then the account signs the API's record of it.
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'App sessions' }).click()
  await expect(modal.getByTestId('smart-session')).toHaveCount(1)
  await expect(modal.getByTestId('smart-session')).toContainText('Granted to http://localhost:5173')
  await modal.getByRole('button', { name: 'Revoke' }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await modal.getByRole('button', { name: 'Approve' }).click()
  await expect(modal.getByText('Session revoked')).toBeVisible({ timeout: 30_000 })
  await expect(modal.getByTestId('smart-session')).toHaveCount(0)
  expect(await validUntilOf(account, key.address)).toBe(0)
  await expect(transfer(bundler, recipient, parseEther('1'))).rejects.toThrow()
  expect(await balanceOf(recipient)).toBe(parseEther('6'))
})

test('a session key cannot burn the account’s ETH through gas, nor hide its session; a revocation refused on chain leaves it listed', async ({
  page,
  modal,
}) => {
  test.setTimeout(240_000)
  const account = await emailLogin(page, modal, `session-attack-${Date.now()}@example.com`)
  await fund(account, parseEther('20'))
  await client.waitForTransactionReceipt({
    hash: await funder.sendTransaction({ to: account, value: parseEther('1') }),
  })
  const key = privateKeyToAccount(generatePrivateKey())
  const pci = await grantTenAlt(page, modal, key)
  const before = await ethOf(account)
  expect(before).toBe(parseEther('1'))

  // The attacker, holding the key, is also a bundler: it collects what the EntryPoint pays for gas.
  const attacker = privateKeyToAccount(generatePrivateKey())
  await client.waitForTransactionReceipt({
    hash: await funder.sendTransaction({ to: attacker.address, value: parseEther('1') }),
  })
  const attackerBefore = await client.getBalance({ address: attacker.address })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const selfPaid = await keyClient(key, account, { sponsored: false })
  /** The key's own operation moving 0 ALT, paid by the account (no paymaster), with `change` made to it. */
  async function zeroSpend(change: (draft: UserOperation<'0.8'>) => Partial<UserOperation<'0.8'>>) {
    const draft = (await selfPaid.prepareUserOperation({
      calls: [transferCall(recipient, 0n)],
    })) as UserOperation<'0.8'>
    const operation = { ...draft, ...change(draft) }
    return { ...operation, signature: await selfPaid.account.signUserOperation(operation) }
  }
  const viaBundler = (operation: UserOperation<'0.8'>) =>
    selfPaid.request({
      method: 'eth_sendUserOperation',
      params: [formatUserOperationRequest(operation), entryPoint08Address],
    })
  /** The attacker bundles it itself, as its own beneficiary: a transaction the EntryPoint reverts. */
  async function bundleItself(operation: UserOperation<'0.8'>) {
    const attackerWallet = createWalletClient({ account: attacker, chain: devnetA, transport: http(rpcA) })
    const hash = await attackerWallet.writeContract({
      address: accountAbstraction.entryPoint08,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(operation)], attacker.address],
      gas: 3_000_000n,
    })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('reverted')
  }

  // A fee that would hand the bundler the whole balance as the prefund.
  const absurd = await zeroSpend((draft) => {
    const fee = parseEther('1') / (draft.callGasLimit + draft.verificationGasLimit + draft.preVerificationGas)
    return { maxFeePerGas: fee, maxPriorityFeePerGas: fee }
  })
  await expect(viaBundler(absurd)).rejects.toThrow(/AA24/)
  await bundleItself(absurd)
  // preVerificationGas, charged in full whatever runs, inflated past the 0.01 ETH allowance at the chain's fee.
  const inflated = await zeroSpend((draft) => ({
    preVerificationGas: parseEther('0.01') / draft.maxFeePerGas + 1n,
  }))
  await expect(viaBundler(inflated)).rejects.toThrow(/AA24/)
  await bundleItself(inflated)
  // The limit used up (sponsored), an operation moving nothing is refused too, whoever would pay.
  const sponsored = await keyClient(key, account)
  await transfer(sponsored, recipient, parseEther('10'))
  await expect(transfer(sponsored, recipient, 0n)).rejects.toThrow(/AA24/)
  await expect(viaBundler(await zeroSpend(() => ({})))).rejects.toThrow(/AA24/)

  expect(await ethOf(account)).toBe(before)
  expect(await client.getBalance({ address: attacker.address })).toBeLessThan(attackerBefore)
  expect(await balanceOf(recipient)).toBe(parseEther('10'))

  // The key's own signature of the revocation is refused: it cannot hide its session at the API.
  const hidden = await fetch(`${api}/v1/sessions/${account}/revoke?projectId=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pci, signature: await key.signMessage({ message: Siwx.revokeMessage(pci) }) }),
  })
  expect(hidden.status).toBe(401)

  // The visitor starts to revoke but refuses the operation: nothing reaches the chain, and the list, read
  // from the chain, still shows the session with what it spent and Revoke.
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'App sessions' }).click()
  const listed = modal.getByTestId('smart-session')
  await expect(listed).toHaveCount(1)
  await expect(listed).toContainText('10 ALT of 10 ALT spent')
  await expect(listed).toContainText('0 ETH of 0.01 ETH spent on network fees')
  await listed.getByRole('button', { name: 'Revoke' }).click()
  await modal.getByRole('button', { name: 'Reject' }).click()
  await expect(modal.getByRole('alert').filter({ hasText: /reject/i })).toBeVisible()
  await expect(listed).toHaveCount(1)
  await expect(listed.getByRole('button', { name: 'Revoke' })).toBeEnabled()
  expect(await validUntilOf(account, key.address)).toBeGreaterThan(0)
  // Read again from the start, it is still there: the chain has it live.
  await modal.getByRole('button', { name: 'Back' }).click()
  await modal.getByRole('button', { name: 'App sessions' }).click()
  await expect(modal.getByTestId('smart-session')).toHaveCount(1)
  expect(await ethOf(account)).toBe(before)
})
