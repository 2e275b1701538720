import { closedPort } from '@airlock/api/testing'
import { Errors, type Request } from '@airlock/bridge-protocol'
import type * as Calls from '@airlock/bridge-protocol/Calls'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseErc6492Signature,
  parseEther,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../../../../devnet/src/Accounts.ts'
import { airlockAccountFactoryAbi } from '../../../../devnet/src/aa/AirlockAccountFactoryContract.ts'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import * as Bundler from '../../../../devnet/src/aa/Bundler.ts'
import { accountAbstraction, testTokenAddress } from '../../../../devnet/src/Chains.ts'
import * as Devnet from '../../../../devnet/src/Devnet.ts'
import type { AccountType } from './AccountType.ts'
import type { Description } from './Describe.ts'
import * as Keys from './Keys.ts'
import * as Rpc from './Rpc.ts'
import { contracts, type Options, smartAccountFor } from './SmartAccount.ts'
import * as SmartAccounts from './SmartAccounts.ts'
import * as SmartRequests from './SmartRequests.ts'
import * as UserOps from './UserOps.ts'
import type { Wallet } from './Vault.ts'

let devnet: Devnet.Instance
let bundler: Bundler.Instance
let client: PublicClient
let test: ReturnType<typeof createTestClient>
let options: Options
/** Nothing listens there: a bundler or paymaster that is down. */
let down: string

const chainId = 'eip155:31337' as const

/** A wallet of a fresh key, as the vault lends it: the secret only inside `withSecret`. */
async function newWallet(): Promise<Wallet> {
  const secret = Keys.createSecret()
  const { eip155, solana } = await Keys.accountsOf(secret)
  return {
    fingerprint: eip155.address,
    addresses: { eip155: eip155.address, solana: solana.address },
    solanaKey: solana.secretKey.slice(32),
    withSecret: (use) => use(secret.slice()),
  }
}

const token = { address: testTokenAddress, abi: erc20Abi } as const
const approve = (spender: Address, amount: bigint) => ({
  to: testTokenAddress,
  data: encodeFunctionData({ ...token, functionName: 'approve', args: [spender, amount] }),
})
const transfer = (to: Address, amount: bigint) => ({
  to: testTokenAddress,
  data: encodeFunctionData({ ...token, functionName: 'transfer', args: [to, amount] }),
})
const sendCalls = (calls: { to: Address; data: Hex }[], id?: string): Request => ({
  namespace: 'eip155',
  method: 'wallet_sendCalls',
  params: [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: true, calls, ...(id ? { id } : {}) }],
})
const empty: Description = { title: 'Send calls', rows: [], warnings: [] }

/** Sends `amount` ALT from account 0 of the devnet, which holds a million. */
async function fund(to: Address, amount: bigint) {
  const first = Accounts.all()[0]
  if (!first) throw new Error('no account 0')
  const hash = await createWalletClient({
    account: privateKeyToAccount(first.privateKey),
    chain: devnet.chains[0].chain,
    transport: http(devnet.chains[0].rpcUrl),
  }).writeContract({ ...token, functionName: 'transfer', args: [to, amount] })
  await client.waitForTransactionReceipt({ hash })
}

beforeAll(async () => {
  devnet = await Devnet.start({ ports: [0, 0] })
  const { rpcUrl } = devnet.chains[0]
  bundler = await Bundler.start({ rpcUrl, port: 0 })
  client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient
  test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  down = `http://127.0.0.1:${await closedPort()}`
  options = {
    rpc: Rpc.relay(() => rpcUrl),
    // The API's routes stand for the bundler (proxied as it is) and a paymaster that refuses (not there).
    endpoint: (path) => (path.startsWith('/v1/bundler/') ? bundler.url : down),
  }
})
afterAll(async () => {
  await bundler?.stop()
  await devnet?.stop()
})

describe('the embedded wallet’s smart accounts', () => {
  it('uses the contracts the devnet deploys', () => {
    expect(contracts).toEqual({
      entryPoint08: accountAbstraction.entryPoint08,
      accountFactory: accountAbstraction.accountFactory,
      account7702: accountAbstraction.account7702,
    })
  })

  it('shows the AirlockAccount’s counterfactual address, signs for ERC-6492 before it is deployed, then batches atomically', async () => {
    const wallet = await newWallet()
    const smart = await smartAccountFor(wallet, chainId, 'smartAccount', options)
    const factoryAddress = await client.readContract({
      address: accountAbstraction.accountFactory,
      abi: airlockAccountFactoryAbi,
      functionName: 'getAddress',
      args: [wallet.addresses.eip155 as Address, 0n],
    })
    expect(smart.account.address).toBe(factoryAddress)
    expect(smart.account.address).not.toBe(wallet.addresses.eip155)
    expect(await smart.deployed()).toBe(false)

    // personal_sign from the undeployed account: wrapped in ERC-6492, and valid on chain.
    const message = 'Sign in to shop.example'
    const signature = (
      await SmartRequests.sign(
        smart,
        { namespace: 'eip155', method: 'personal_sign', params: [toHex(message), smart.account.address] },
        undefined,
      )
    ).result as Hex
    expect(parseErc6492Signature(signature).address).toBe(accountAbstraction.accountFactory)
    expect(await client.verifyMessage({ address: smart.account.address, message, signature })).toBe(true)
    expect(await client.verifyMessage({ address: smart.account.address, message: 'other', signature })).toBe(
      false,
    )

    // The paymaster is down and the account has ETH: it pays, and the preview says so.
    await test.setBalance({ address: smart.account.address, value: parseEther('1') })
    await fund(smart.account.address, 100n)
    const spender = '0x00000000000000000000000000000000000a11ce' as Address
    const recipient = '0x00000000000000000000000000000000000b0b00' as Address
    const request = sendCalls([approve(spender, 40n), transfer(recipient, 30n)], 'batch-1')
    const previewed = await SmartRequests.preview(smart, request, empty)
    expect(previewed.prepared?.sponsored).toBe(false)
    expect(previewed.description.warnings.join(' ')).toContain('your account pays it')
    expect(previewed.description.warnings).toContain(
      'This also deploys your smart account, at the address shown.',
    )
    const sent = await SmartRequests.sign(smart, request, previewed.prepared)
    const hash = sent.operation as Hex
    await smart.bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    const status = await SmartRequests.status(smart, 'batch-1', hash)
    expect(status).toMatchObject({ id: 'batch-1', chainId: '0x7a69', status: 200, atomic: true })
    expect(status.receipts?.[0]?.status).toBe('0x1')
    expect(
      await client.readContract({
        ...token,
        functionName: 'allowance',
        args: [smart.account.address, spender],
      }),
    ).toBe(40n)
    expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [recipient] })).toBe(30n)
    expect(
      await client.readContract({ ...token, functionName: 'balanceOf', args: [smart.account.address] }),
    ).toBe(70n)
    expect(await smart.deployed()).toBe(true)
    // Deployed: a plain ERC-1271 signature now.
    const deployedSignature = (
      await SmartRequests.sign(
        smart,
        { namespace: 'eip155', method: 'personal_sign', params: [toHex(message), smart.account.address] },
        undefined,
      )
    ).result as Hex
    expect(deployedSignature.length).toBe(132)
    expect(
      await client.verifyMessage({ address: smart.account.address, message, signature: deployedSignature }),
    ).toBe(true)
  })

  it('shows why an operation would revert before anything is signed, and does not send it', async () => {
    const wallet = await newWallet()
    const smart = await smartAccountFor(wallet, chainId, 'smartAccount', options)
    await test.setBalance({ address: smart.account.address, value: parseEther('1') })
    // No ALT: the transfer reverts in the bundler's simulation.
    const request = sendCalls([transfer('0x00000000000000000000000000000000000b0b00', 5n)])
    const previewed = await SmartRequests.preview(smart, request, empty)
    expect(previewed.prepared).toBeUndefined()
    expect(previewed.failure).toBeInstanceOf(UserOps.WouldRevertError)
    expect(previewed.description.warnings[0]).toMatch(/^The network expects this transaction to fail/)

    const accounts = SmartAccounts.create({
      ...options,
      wallet: () => wallet,
      stored: () => undefined,
      store: () => {},
      changed: () => {},
    })
    await accounts.preview(request, chainId, empty)
    await expect(accounts.sign(request, chainId)).rejects.toBeInstanceOf(UserOps.WouldRevertError)
    expect(await smart.deployed()).toBe(false)
  })

  it('refuses clearly: a bundler that is down, a paymaster that refuses an account with no ETH, raw signatures', async () => {
    const wallet = await newWallet()
    const offline = await smartAccountFor(wallet, chainId, 'smartAccount', options)
    const failed = await SmartRequests.preview(
      offline,
      sendCalls([approve(wallet.addresses.eip155 as Address, 1n)]),
      empty,
    )
      .then(() => undefined)
      .catch((error: unknown) => error)
    // The paymaster (down) refuses first; with no ETH to pay itself the account cannot go on.
    expect(failed).toBeInstanceOf(UserOps.PaymasterRefusedError)

    const funded = await newWallet()
    const unreachable = await smartAccountFor(funded, chainId, 'smartAccount', {
      ...options,
      endpoint: () => down,
    })
    await test.setBalance({ address: unreachable.account.address, value: parseEther('1') })
    await expect(
      SmartRequests.preview(unreachable, sendCalls([approve(funded.addresses.eip155 as Address, 1n)]), empty),
    ).rejects.toThrow('The bundler could not be reached: nothing was sent.')

    const smart = await smartAccountFor(wallet, chainId, 'smartAccount', options)
    for (const method of ['eth_signTransaction', 'eth_sign']) {
      const refused = await SmartRequests.sign(
        smart,
        { namespace: 'eip155', method, params: [] } as Request,
        undefined,
      )
        .then(() => undefined)
        .catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(Errors.BaseError)
      expect(refused).toMatchObject({
        code: 4200,
        message: 'This application might not support Smart Accounts',
      })
    }
  })

  it('upgrades the EOA with EIP-7702 on its first operation, keeping its address', async () => {
    const wallet = await newWallet()
    const eoa = wallet.addresses.eip155 as Address
    const smart = await smartAccountFor(wallet, chainId, 'eip7702', options)
    expect(smart.account.address).toBe(eoa)
    expect(await smart.deployed()).toBe(false)
    await test.setBalance({ address: eoa, value: parseEther('1') })
    await fund(eoa, 50n)
    const recipient = '0x00000000000000000000000000000000000c0c00' as Address
    const request: Request = {
      namespace: 'eip155',
      method: 'eth_sendTransaction',
      params: [{ from: eoa, ...transfer(recipient, 20n) }],
    }
    const previewed = await SmartRequests.preview(smart, request, empty)
    expect(previewed.description.warnings).toContain(
      'This also upgrades your account to a smart account (EIP-7702); its address stays the same.',
    )
    const sent = await SmartRequests.sign(smart, request, previewed.prepared)
    const receipt = await client.getTransactionReceipt({ hash: sent.result as Hex })
    expect(receipt.status).toBe('success')
    expect(await client.getCode({ address: eoa })).toBe(
      `0xef0100${accountAbstraction.account7702.slice(2).toLowerCase()}`,
    )
    expect(await smart.deployed()).toBe(true)
    expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [recipient] })).toBe(20n)
  })

  it('answers EIP-5792 for the account type: atomic where a smart account serves, nothing for the EOA', async () => {
    const wallet = await newWallet()
    let type: AccountType | undefined
    const accounts = SmartAccounts.create({
      ...options,
      wallet: () => wallet,
      stored: () => type,
      store: (next) => {
        type = next
      },
      changed: () => {},
    })
    const capabilities: Calls.Capabilities = await accounts.capabilities([chainId])
    expect(capabilities).toEqual({
      '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } },
    })
    expect(accounts.state()).toMatchObject({ preferredAccountType: 'smartAccount' })
    expect(await accounts.address(chainId)).not.toBe(wallet.addresses.eip155)
    expect(await accounts.refuses('eth_signTransaction', chainId)).toMatchObject({
      code: 4200,
      message: 'This application might not support Smart Accounts',
    })
    expect(await accounts.refuses('eth_sign', chainId)).toMatchObject({ code: 4200 })
    expect(await accounts.refuses('eth_sendTransaction', chainId)).toBeUndefined()
    accounts.choose('eoa')
    expect(await accounts.refuses('eth_signTransaction', chainId)).toBeUndefined()
    expect(await accounts.capabilities([chainId])).toEqual({})
    expect(await accounts.address(chainId)).toBe(wallet.addresses.eip155)
    expect(accounts.state()).toEqual({ preferredAccountType: 'eoa' })
    accounts.choose('eip7702')
    expect(await accounts.address(chainId)).toBe(wallet.addresses.eip155)
    await expect(
      accounts.callsStatus({ namespace: 'eip155', method: 'wallet_getCallsStatus', params: ['nope'] }),
    ).rejects.toMatchObject({ code: 5730 })
  })

  it('defaults to the host’s preferredAccountTypes.eip155, and the visitor’s choice wins over it', async () => {
    const wallet = await newWallet()
    let type: AccountType | undefined
    const create = (preferred: AccountType) =>
      SmartAccounts.create({
        ...options,
        preferred,
        wallet: () => wallet,
        stored: () => type,
        store: (next) => {
          type = next
        },
        changed: () => {},
      })
    const plain = create('eoa')
    expect(plain.type()).toBe('eoa')
    expect(plain.state()).toEqual({ preferredAccountType: 'eoa' })
    expect(await plain.address(chainId)).toBe(wallet.addresses.eip155)
    expect(await plain.capabilities([chainId])).toEqual({})
    // EIP-7702 keeps the key's address and is a smart account in the product's terms (docs/behaviour.md): atomic batches.
    const upgraded = create('eip7702')
    expect(upgraded.state()).toMatchObject({ preferredAccountType: 'smartAccount' })
    expect(await upgraded.address(chainId)).toBe(wallet.addresses.eip155)
    expect(await upgraded.capabilities([chainId])).toMatchObject({
      '0x7a69': { atomic: { status: 'supported' } },
    })
    plain.choose('smartAccount')
    expect(plain.type()).toBe('smartAccount')
    expect(await plain.address(chainId)).not.toBe(wallet.addresses.eip155)
  })
})
