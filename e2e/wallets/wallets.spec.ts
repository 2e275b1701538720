/**
 * Self-test of the injected wallets, driven only through the standard discovery protocols and the
 * page-side control global, with every signature checked in Node.
 */

import * as Regtest from '@airlock/devnet/bitcoin-regtest'
import { secp256k1 } from '@noble/curves/secp256k1'
import { hexToBytes } from '@noble/hashes/utils'
import { expect, type Page, test } from '@playwright/test'
import {
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { Psbt, payments } from 'bitcoinjs-lib'
import bs58 from 'bs58'
import { type Address, type Hex, isHex, type TypedDataDefinition, toHex } from 'viem'
import {
  BITCOIN_WALLET_NAME,
  defaultWalletOptions,
  EVM_WALLET_NAME,
  EVM_WALLET_RDNS,
  SOLANA_CHAINS,
  SOLANA_WALLET_NAME,
  setWalletMode,
  type WalletOptions,
  walletCalls,
  walletInitScript,
} from './index.ts'
import { type RunningAnvil, type RunningServer, startAnvil, startBlankPageServer } from './test-env.ts'
import {
  addressesFromOptions,
  verifyBitcoinMessage,
  verifyEvmPersonalSign,
  verifyEvmTypedData,
  verifySolanaSignature,
  type WalletAddresses,
} from './verify.ts'

declare global {
  interface Window {
    __registeredWalletNames?: string[]
  }
}

const ANVIL_PORT = Number(process.env.AIRLOCK_WALLETS_ANVIL_PORT ?? 18600)
const ANVIL_CHAIN_ID = 31337
/** Configured but not known at start-up, to exercise 4902 followed by wallet_addEthereumChain. */
const ALIAS_CHAIN_ID = 1337
const ANVIL_ACCOUNT_1: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

test.describe.configure({ mode: 'serial' })

let server: RunningServer | undefined
let anvil: RunningAnvil | undefined
let options: WalletOptions = {}
let addresses: WalletAddresses = {}

test.beforeAll(async () => {
  server = await startBlankPageServer()
  anvil = await startAnvil(ANVIL_PORT, ANVIL_CHAIN_ID)
  const base = defaultWalletOptions([
    { chainId: ANVIL_CHAIN_ID, rpcUrl: anvil.rpcUrl, name: 'Anvil' },
    { chainId: ALIAS_CHAIN_ID, rpcUrl: anvil.rpcUrl, name: 'Anvil alias' },
  ])
  options = { ...base, evm: base.evm && { ...base.evm, knownChainIds: [ANVIL_CHAIN_ID] } }
  addresses = addressesFromOptions(options)
})

test.afterAll(async () => {
  await anvil?.stop()
  await server?.close()
})

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set up`)
  return value
}

/** Runs before the wallet script, so it sees the `wallet-standard:register-wallet` dispatch itself. */
function recordRegisteredWallets(): void {
  const names: string[] = []
  window.__registeredWalletNames = names
  window.addEventListener('wallet-standard:register-wallet', (event) => {
    const callback = 'detail' in event ? event.detail : undefined
    const register = (...wallets: { name: string }[]) => {
      names.push(...wallets.map((wallet) => wallet.name))
      return () => undefined
    }
    if (typeof callback === 'function') Reflect.apply(callback, undefined, [{ register }])
  })
}

async function openWalletPage(page: Page): Promise<void> {
  page.on('pageerror', (error) => console.error('page error:', error))
  await page.addInitScript(recordRegisteredWallets)
  await page.addInitScript({ content: await walletInitScript(options) })
  await page.goto(required(server, 'server').url)
}

type Outcome = { ok: true; result: unknown } | { ok: false; code: unknown; message: string }

/** Errors do not survive page.evaluate intact, so the page reports code and message itself. */
function evmRequest(page: Page, method: string, params: unknown[] = []): Promise<Outcome> {
  return page.evaluate(
    async ({ method, params }): Promise<Outcome> => {
      const provider = window.__airlockTestWallets?.evm?.provider
      if (!provider) throw new Error('no EVM test wallet in the page')
      try {
        return { ok: true, result: await provider.request({ method, params }) }
      } catch (error) {
        const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
        return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
      }
    },
    { method, params },
  )
}

async function evmCall(page: Page, method: string, params: unknown[] = []): Promise<unknown> {
  const outcome = await evmRequest(page, method, params)
  if (!outcome.ok) throw new Error(`${method} failed: ${String(outcome.code)} ${outcome.message}`)
  return outcome.result
}

function asHex(value: unknown): Hex {
  if (typeof value !== 'string' || !isHex(value)) throw new Error(`expected hex, got ${String(value)}`)
  return value
}

function evmAddress(): Address {
  return required(addresses.evm, 'EVM address').address
}

async function nodeRpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(required(anvil, 'anvil').rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body: unknown = await response.json()
  return typeof body === 'object' && body !== null && 'result' in body ? body.result : undefined
}

test.describe('EVM wallet', () => {
  test('is announced through EIP-6963', async ({ page }) => {
    await openWalletPage(page)
    const announced = await page.evaluate(() => {
      const seen: { info: unknown; frozen: boolean; sameProvider: boolean }[] = []
      window.addEventListener('eip6963:announceProvider', (event) => {
        const detail: unknown = event instanceof CustomEvent ? event.detail : undefined
        if (typeof detail !== 'object' || detail === null || !('info' in detail) || !('provider' in detail))
          return
        const frozen = Object.isFrozen(detail) && Object.isFrozen(detail.info)
        seen.push({
          info: detail.info,
          frozen,
          sameProvider: detail.provider === window.__airlockTestWallets?.evm?.provider,
        })
      })
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      return seen
    })
    expect(announced).toHaveLength(1)
    expect(announced[0]).toMatchObject({
      info: { name: EVM_WALLET_NAME, rdns: EVM_WALLET_RDNS, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      frozen: true,
      sameProvider: true,
    })
    expect(announced[0]?.info).toHaveProperty('icon', expect.stringMatching(/^data:image\/svg\+xml;base64,/))
  })

  test('eth_requestAccounts connects and returns the address', async ({ page }) => {
    await openWalletPage(page)
    expect(await evmCall(page, 'eth_accounts')).toEqual([])
    expect(await evmCall(page, 'eth_chainId')).toBe(toHex(ANVIL_CHAIN_ID))
    const lowercase = evmAddress().toLowerCase()
    expect(await evmCall(page, 'eth_requestAccounts')).toEqual([lowercase])
    expect(await evmCall(page, 'eth_accounts')).toEqual([lowercase])
    await evmCall(page, 'wallet_revokePermissions', [{ eth_accounts: {} }])
    expect(await evmCall(page, 'eth_accounts')).toEqual([])
  })

  test('personal_sign and eth_signTypedData_v4 verify in Node', async ({ page }) => {
    await openWalletPage(page)
    await evmCall(page, 'eth_requestAccounts')
    const message = 'Sign in to Airlock'
    const personal = await evmCall(page, 'personal_sign', [toHex(message), evmAddress()])
    expect(await verifyEvmPersonalSign(message, asHex(personal), evmAddress())).toBe(true)

    const typedData = {
      domain: { name: 'Airlock', version: '1', chainId: ANVIL_CHAIN_ID },
      types: { Login: [{ name: 'nonce', type: 'uint256' }] },
      primaryType: 'Login',
      message: { nonce: 7 },
    } as const satisfies TypedDataDefinition
    const typed = await evmCall(page, 'eth_signTypedData_v4', [evmAddress(), JSON.stringify(typedData)])
    expect(await verifyEvmTypedData(typedData, asHex(typed), evmAddress())).toBe(true)
  })

  test('eth_sendTransaction is signed locally and mined on anvil', async ({ page }) => {
    await openWalletPage(page)
    await evmCall(page, 'eth_requestAccounts')
    const hash = await evmCall(page, 'eth_sendTransaction', [
      { from: evmAddress(), to: ANVIL_ACCOUNT_1, value: '0x1' },
    ])
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    // The node may answer the hash a moment before the block that holds it is mined.
    await expect
      .poll(() => nodeRpc('eth_getTransactionReceipt', [hash]))
      .toMatchObject({ status: '0x1', from: evmAddress().toLowerCase() })
    // Reads go straight to the chain's RPC.
    expect(await evmCall(page, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
  })

  test('switching chains: 4902 for unknown, add then switch, 4200 for unknown methods', async ({ page }) => {
    await openWalletPage(page)
    await page.evaluate(() => {
      const changes: unknown[] = []
      Object.assign(window, { chainChanges: changes })
      window.__airlockTestWallets?.evm?.provider.on('chainChanged', (chainId) => changes.push(chainId))
    })
    const unknown = await evmRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x999' }])
    expect(unknown).toMatchObject({ ok: false, code: 4902 })
    const notYetAdded = await evmRequest(page, 'wallet_switchEthereumChain', [
      { chainId: toHex(ALIAS_CHAIN_ID) },
    ])
    expect(notYetAdded).toMatchObject({ ok: false, code: 4902 })

    await evmCall(page, 'wallet_addEthereumChain', [
      { chainId: toHex(ALIAS_CHAIN_ID), chainName: 'Anvil alias' },
    ])
    expect(await evmCall(page, 'eth_chainId')).toBe(toHex(ALIAS_CHAIN_ID))
    await evmCall(page, 'wallet_switchEthereumChain', [{ chainId: toHex(ANVIL_CHAIN_ID) }])
    expect(await page.evaluate(() => Reflect.get(window, 'chainChanges'))).toEqual([
      toHex(ALIAS_CHAIN_ID),
      toHex(ANVIL_CHAIN_ID),
    ])
    expect(await evmRequest(page, 'airlock_unknownMethod')).toMatchObject({ ok: false, code: 4200 })
  })
})

test.describe('reject mode', () => {
  test('every wallet answers 4001 User rejected the request.', async ({ page }) => {
    await openWalletPage(page)
    await evmCall(page, 'eth_requestAccounts')
    await setWalletMode(page, 'reject')
    const rejected = { ok: false, code: 4001, message: 'User rejected the request.' }
    expect(await evmRequest(page, 'personal_sign', [toHex('no'), evmAddress()])).toEqual(rejected)
    const send = [{ from: evmAddress(), to: ANVIL_ACCOUNT_1, value: '0x1' }]
    expect(await evmRequest(page, 'eth_sendTransaction', send)).toEqual(rejected)
    await evmCall(page, 'wallet_revokePermissions', [{ eth_accounts: {} }])
    expect(await evmRequest(page, 'eth_requestAccounts')).toEqual(rejected)

    const standardRejections = await page.evaluate(async () => {
      const describe = (error: unknown): string => {
        const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '?'
        return `${code} ${error instanceof Error ? error.message : String(error)}`
      }
      const wallets = window.__airlockTestWallets
      const solana = wallets?.solana?.wallet.features['standard:connect'].connect()
      const bitcoin = wallets?.bitcoin?.wallet.features['bitcoin:connect'].connect({ purposes: ['payment'] })
      return Promise.all([solana, bitcoin].map((pending) => pending?.then(() => 'approved', describe)))
    })
    expect(standardRejections).toEqual(['4001 User rejected the request.', '4001 User rejected the request.'])

    const calls = await walletCalls(page)
    expect(calls).toContainEqual({ wallet: 'evm', method: 'personal_sign' })
    expect(calls).toContainEqual({ wallet: 'solana', method: 'standard:connect' })
    expect(calls).toContainEqual({ wallet: 'bitcoin', method: 'bitcoin:connect' })
  })

  test('signing before connecting is 4100, and the wallet UI can disconnect the site', async ({ page }) => {
    await openWalletPage(page)
    expect(await evmRequest(page, 'personal_sign', [toHex('early'), evmAddress()])).toMatchObject({
      ok: false,
      code: 4100,
    })
    await evmCall(page, 'eth_requestAccounts')
    const changes = await page.evaluate(() => {
      const seen: unknown[] = []
      const evm = window.__airlockTestWallets?.evm
      evm?.provider.on('accountsChanged', (accounts) => seen.push(accounts))
      evm?.disconnect()
      return seen
    })
    expect(changes).toEqual([[]])
    expect(await evmCall(page, 'eth_accounts')).toEqual([])
  })
})

/** Registers through `wallet-standard:app-ready`, the path an app that loads after the wallets takes. */
async function walletNamesViaAppReady(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const names: string[] = []
    const register = (...wallets: { name: string }[]) => {
      names.push(...wallets.map((wallet) => wallet.name))
      return () => undefined
    }
    const event = new Event('wallet-standard:app-ready')
    Object.defineProperty(event, 'detail', { value: Object.freeze({ register }) })
    window.dispatchEvent(event)
    return names
  })
}

test.describe('Wallet Standard', () => {
  test('both wallets register through both Wallet Standard events', async ({ page }) => {
    await openWalletPage(page)
    const expected = [SOLANA_WALLET_NAME, BITCOIN_WALLET_NAME]
    expect(await page.evaluate(() => window.__registeredWalletNames)).toEqual(expected)
    expect(await walletNamesViaAppReady(page)).toEqual(expected)
  })

  test('Solana connect, signMessage and signTransaction verify in Node', async ({ page }) => {
    await openWalletPage(page)
    const solana = required(addresses.solana, 'Solana address')
    expect(await connectSolanaInPage(page)).toEqual({
      addresses: [solana.address],
      keyLength: 32,
      changes: [1],
      chains: [...SOLANA_CHAINS],
    })

    const message = 'Sign in to Airlock (Solana)'
    const signature = await page.evaluate(async (text) => {
      const wallet = window.__airlockTestWallets?.solana?.wallet
      const account = wallet?.accounts[0]
      if (!wallet || !account) throw new Error('Solana test wallet is not connected')
      const message = new TextEncoder().encode(text)
      const [output] = await wallet.features['solana:signMessage'].signMessage({ account, message })
      return Array.from(output?.signature ?? [])
    }, message)
    expect(verifySolanaSignature(message, signature, solana.address)).toBe(true)

    await checkSolanaTransactionSigning(page, new PublicKey(solana.address))
  })

  test('Bitcoin connect, signMessage and PSBT signing verify in Node', async ({ page }) => {
    await openWalletPage(page)
    const bitcoin = required(addresses.bitcoin, 'Bitcoin address')
    const accounts = await page.evaluate(async () => {
      const connect = window.__airlockTestWallets?.bitcoin?.wallet.features['bitcoin:connect']
      const result = await connect?.connect({ purposes: ['payment'] })
      return (result?.accounts ?? []).map((a) => ({
        address: a.address,
        publicKey: Array.from(a.publicKey),
        chains: a.chains,
      }))
    })
    const publicKey = Array.from(hexToBytes(bitcoin.publicKeyHex))
    expect(accounts).toEqual([{ address: bitcoin.address, publicKey, chains: [Regtest.caipNetworkId] }])
    expect(publicKey).toHaveLength(33)
    expect(bitcoin.address).toMatch(/^rltc1q/)

    const message = 'Sign in to Airlock (Bitcoin)'
    const signature = await page.evaluate(async (text) => {
      const wallet = window.__airlockTestWallets?.bitcoin?.wallet
      const account = wallet?.accounts[0]
      if (!wallet || !account) throw new Error('Bitcoin test wallet is not connected')
      const message = new TextEncoder().encode(text)
      const [output] = await wallet.features['bitcoin:signMessage'].signMessage({ account, message })
      return Array.from(output?.signature ?? [])
    }, message)
    expect(signature).toHaveLength(65)
    expect(signature[0]).toBeGreaterThanOrEqual(39) // BIP-137 native segwit header range 39..42
    expect(verifyBitcoinMessage(message, signature, bitcoin.publicKeyHex)).toBe(true)
    expect(verifyBitcoinMessage('another message', signature, bitcoin.publicKeyHex)).toBe(false)

    await checkPsbtSigning(page, bitcoin.publicKeyHex)
  })
})

/** Connects as an app would, listening to `standard:events` first. */
function connectSolanaInPage(page: Page) {
  return page.evaluate(async () => {
    const wallet = window.__airlockTestWallets?.solana?.wallet
    if (!wallet) throw new Error('no Solana test wallet')
    const changes: number[] = []
    wallet.features['standard:events'].on('change', (change) => changes.push(change.accounts?.length ?? -1))
    const { accounts } = await wallet.features['standard:connect'].connect()
    return {
      addresses: accounts.map((account) => account.address),
      keyLength: accounts[0]?.publicKey.length,
      changes,
      chains: wallet.chains,
    }
  })
}

async function signSolanaTransactionInPage(page: Page, bytes: Uint8Array): Promise<Uint8Array> {
  const signed = await page.evaluate(async (raw) => {
    const wallet = window.__airlockTestWallets?.solana?.wallet
    const account = wallet?.accounts[0]
    if (!wallet || !account) throw new Error('Solana test wallet is not connected')
    const transaction = Uint8Array.from(raw)
    const [output] = await wallet.features['solana:signTransaction'].signTransaction({ account, transaction })
    return Array.from(output?.signedTransaction ?? [])
  }, Array.from(bytes))
  return Uint8Array.from(signed)
}

async function checkSolanaTransactionSigning(page: Page, owner: PublicKey): Promise<void> {
  // Offline signing only needs some blockhash; nothing is sent to a cluster.
  const recentBlockhash = bs58.encode(new Uint8Array(32).fill(7))
  const instruction = SystemProgram.transfer({
    fromPubkey: owner,
    toPubkey: SystemProgram.programId,
    lamports: 1,
  })
  const legacy = new Transaction({ feePayer: owner, recentBlockhash }).add(instruction)
  const legacySigned = await signSolanaTransactionInPage(
    page,
    legacy.serialize({ requireAllSignatures: false }),
  )
  expect(Transaction.from(legacySigned).verifySignatures()).toBe(true)

  const v0 = new TransactionMessage({
    payerKey: owner,
    recentBlockhash,
    instructions: [instruction],
  }).compileToV0Message()
  const v0Bytes = await signSolanaTransactionInPage(page, new VersionedTransaction(v0).serialize())
  const v0Signed = VersionedTransaction.deserialize(v0Bytes)
  expect(v0Signed.version).toBe(0)
  const v0Signature = v0Signed.signatures[0] ?? new Uint8Array()
  expect(verifySolanaSignature(v0Signed.message.serialize(), v0Signature, owner.toBase58())).toBe(true)
}

async function signPsbtInPage(page: Page, psbt: Uint8Array): Promise<Uint8Array> {
  const signed = await page.evaluate(async (raw) => {
    const wallet = window.__airlockTestWallets?.bitcoin?.wallet
    const account = wallet?.accounts[0]
    if (!wallet || !account) throw new Error('Bitcoin test wallet is not connected')
    const inputsToSign = [{ account, signingIndexes: [0] }]
    const [result] = await wallet.features['bitcoin:signTransaction'].signTransaction({
      psbt: Uint8Array.from(raw),
      inputsToSign,
    })
    return Array.from(result?.signedPsbt ?? [])
  }, Array.from(psbt))
  return Uint8Array.from(signed)
}

async function checkPsbtSigning(page: Page, publicKeyHex: string): Promise<void> {
  const network = Regtest.network
  const { output, address } = payments.p2wpkh({ pubkey: hexToBytes(publicKeyHex), network })
  if (!output || !address) throw new Error('could not derive the P2WPKH script')
  const psbt = new Psbt({ network })
  // A made-up UTXO: signing a segwit input needs only its script and value (witnessUtxo).
  psbt.addInput({ hash: 'ab'.repeat(32), index: 0, witnessUtxo: { script: output, value: 100_000n } })
  psbt.addOutput({ address, value: 90_000n })

  const signed = Psbt.fromBuffer(await signPsbtInPage(page, psbt.toBuffer()), { network })
  const validator = (pubkey: Uint8Array, hash: Uint8Array, signature: Uint8Array) =>
    secp256k1.verify(signature, hash, pubkey)
  expect(signed.validateSignaturesOfInput(0, validator)).toBe(true)
  signed.finalizeAllInputs()
  const transaction = signed.extractTransaction()
  expect(transaction.ins[0]?.witness).toHaveLength(2)
}
