import { ed25519 } from '@noble/curves/ed25519'
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import {
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
} from 'viem'
import { describe, expect, it } from 'vitest'
import * as base58 from '../../shared/encoding/base58.ts'
import * as Keys from './Keys.ts'
import * as Signing from './Signing.ts'

const secret = Keys.secretOf('test test test test test test test test test test test junk')
const { eip155, solana } = await Keys.accountsOf(secret)
const wallet = new PublicKey(solana.address)
const other = Keypair.fromSeed(new Uint8Array(32).fill(9))
const blockhash = base58.encode(new Uint8Array(32).fill(1))

describe('EVM', () => {
  it('signs a personal_sign message the address recovers from', async () => {
    for (const message of ['hello', { raw: '0xdeadbeef' as const }]) {
      const signature = await Signing.signEvmMessage(secret, message)
      expect(await recoverMessageAddress({ message, signature })).toBe(eip155.address)
    }
  })

  it('signs EIP-712 typed data the address recovers from', async () => {
    const typedData = {
      domain: { name: 'Airlock', version: '1', chainId: 31337 },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hello' },
    } as const
    const signature = await Signing.signEvmTypedData(secret, typedData)
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(eip155.address)
  })

  it('signs an EIP-1559 transaction sent from the address, fields unchanged', async () => {
    const transaction = {
      chainId: 31337,
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      value: 10n ** 18n,
      nonce: 3,
      gas: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    } as const
    const signed = await Signing.signEvmTransaction(secret, transaction)
    expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(eip155.address)
    expect(parseTransaction(signed)).toMatchObject({ ...transaction, type: 'eip1559' })
  })

  it('signs a legacy transaction with EIP-155 replay protection', async () => {
    const signed = await Signing.signEvmTransaction(secret, {
      chainId: 31338,
      to: eip155.address,
      value: 1n,
      nonce: 0,
      gas: 21_000n,
      gasPrice: 1_000_000_000n,
    })
    expect(parseTransaction(signed)).toMatchObject({ type: 'legacy', chainId: 31338 })
    expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(eip155.address)
  })
})

describe('Solana', () => {
  const transfer = (from: PublicKey) =>
    SystemProgram.transfer({ fromPubkey: from, toPubkey: other.publicKey, lamports: 1 })

  it('signs a message that verifies under the address', async () => {
    const message = new TextEncoder().encode('Sign in to Airlock')
    const signature = await Signing.signSolanaMessage(secret, message)
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(solana.address))).toBe(true)
    expect(ed25519.verify(signature, new TextEncoder().encode('Sign in to Airlock!'), wallet.toBytes())).toBe(
      false,
    )
  })

  it('puts its signature in the fee payer’s slot of a legacy transaction', async () => {
    const tx = new Transaction({ feePayer: wallet, recentBlockhash: blockhash }).add(transfer(wallet))
    const wire = tx.serialize({ requireAllSignatures: false })
    const signed = Transaction.from(await Signing.signSolanaTransaction(secret, wire))
    expect(signed.verifySignatures()).toBe(true)
    expect(signed.serializeMessage()).toEqual(tx.serializeMessage())
  })

  it('signs a v0 transaction', async () => {
    const message = new TransactionMessage({
      payerKey: wallet,
      recentBlockhash: blockhash,
      instructions: [transfer(wallet)],
    }).compileToV0Message()
    const wire = new VersionedTransaction(message).serialize()
    const signed = VersionedTransaction.deserialize(await Signing.signSolanaTransaction(secret, wire))
    const [signature] = signed.signatures
    expect(signature && ed25519.verify(signature, signed.message.serialize(), wallet.toBytes())).toBe(true)
  })

  it('fills its own slot and keeps another signer’s signature', async () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: blockhash }).add(
      transfer(wallet),
    )
    tx.partialSign(other)
    const wire = tx.serialize({ requireAllSignatures: false })
    const signed = Transaction.from(await Signing.signSolanaTransaction(secret, wire))
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual([
      other.publicKey.toBase58(),
      solana.address,
    ])
    expect(signed.verifySignatures()).toBe(true)
  })

  it('refuses a transaction that does not ask for its signature', async () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: blockhash }).add(
      transfer(other.publicKey),
    )
    const wire = tx.serialize({ requireAllSignatures: false })
    await expect(Signing.signSolanaTransaction(secret, wire)).rejects.toThrow(
      'This transaction does not ask for this wallet’s signature.',
    )
  })

  it('refuses bytes that are not a transaction', async () => {
    const tx = new Transaction({ feePayer: wallet, recentBlockhash: blockhash }).add(transfer(wallet))
    const wire = tx.serialize({ requireAllSignatures: false })
    for (const bytes of [
      new Uint8Array(0),
      wire.subarray(0, 80),
      wire.subarray(0, 65),
      new Uint8Array([0xff, 0xff, 0xff]),
    ])
      await expect(Signing.signSolanaTransaction(secret, bytes)).rejects.toThrow(
        Signing.SolanaTransactionError,
      )
    const versioned = Uint8Array.from(wire)
    versioned[65] = 0x81
    await expect(Signing.signSolanaTransaction(secret, versioned)).rejects.toThrow(
      'Unsupported transaction version 1.',
    )
  })
})
