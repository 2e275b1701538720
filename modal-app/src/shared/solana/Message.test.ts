import {
  AddressLookupTableAccount,
  Keypair,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, it } from 'vitest'
import * as Message from './Message.ts'

const payer = Keypair.fromSeed(new Uint8Array(32).fill(1)).publicKey
const thief = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey
const blockhash = Keypair.fromSeed(new Uint8Array(32).fill(3)).publicKey.toBase58()
const steal = SystemProgram.transfer({ fromPubkey: payer, toPubkey: thief, lamports: 1_000_000_000 })

/** A compiled legacy transfer's message: what a dApp would pass to signMessage, then broadcast signed. */
const legacy = () =>
  new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(steal).serializeMessage()

/** The same transfer as a v0 message, with a lookup table lending it a key. */
function v0() {
  const table = new AddressLookupTableAccount({
    key: Keypair.fromSeed(new Uint8Array(32).fill(4)).publicKey,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses: [thief],
    },
  })
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: blockhash,
    instructions: [steal],
  })
  return message.compileToV0Message([table]).serialize()
}

/** Solana's off-chain message: the signing domain, version 0, a format, a length, the text. */
function offchain(text: string) {
  const body = new TextEncoder().encode(text)
  const header = Uint8Array.of(0xff, ...new TextEncoder().encode('solana offchain'), 0, 0, body.length, 0)
  return Uint8Array.of(...header, ...body)
}

const refusal = (bytes: Uint8Array) => {
  try {
    Message.refuseTransaction(bytes)
    return undefined
  } catch (error) {
    const { code, message } = error as { code?: number; message?: string }
    return { code, message }
  }
}

describe('Message', () => {
  it('knows a compiled legacy or v0 transfer, handed over as a message, for the transaction it is', () => {
    expect(Message.isTransactionMessage(legacy())).toBe(true)
    expect(Message.isTransactionMessage(v0())).toBe(true)
    expect(Message.readMessage(v0())).toMatchObject({ lookupTables: 1 })
    for (const bytes of [legacy(), v0()])
      expect(refusal(bytes)).toEqual({ code: -32602, message: Message.transactionAsMessage })
  })

  it('lets messages through: text, a sign-in, bytes, an off-chain message, nothing at all', () => {
    const messages = [
      new TextEncoder().encode('Sign in to the shop'),
      new TextEncoder().encode(
        'shop.example wants you to sign in with your Solana account:\nabc\n\nNonce: 1',
      ),
      new TextEncoder().encode('こんにちは'),
      Uint8Array.of(1),
      new Uint8Array(),
      offchain('Transfer approved'),
    ]
    for (const message of messages) {
      expect(Message.isTransactionMessage(message)).toBe(false)
      expect(refusal(message)).toBeUndefined()
    }
  })

  it('reads an off-chain message as none, even one that carries a transaction’s message as its text', () => {
    const inner = legacy()
    const wrapped = Uint8Array.of(
      ...offchain('').subarray(0, 18),
      inner.length & 0xff,
      inner.length >> 8,
      ...inner,
    )
    expect(Message.isTransactionMessage(wrapped)).toBe(false)
  })

  it('signs what is only part of a transaction, or more: no signature over them is the transaction’s', () => {
    const message = legacy()
    expect(Message.isTransactionMessage(message.subarray(0, -1))).toBe(false)
    expect(Message.isTransactionMessage(Uint8Array.of(...message, 0))).toBe(false)
    // A whole wire transaction's signature covers its signatures too, so it signs nothing on chain.
    const wire = new Transaction({ feePayer: payer, recentBlockhash: blockhash })
      .add(steal)
      .serialize({ requireAllSignatures: false })
    expect(Message.isTransactionMessage(wire)).toBe(false)
  })

  it('still reads a wire transaction, legacy or v0, for the preview', () => {
    const legacyWire = new Transaction({ feePayer: payer, recentBlockhash: blockhash })
      .add(steal)
      .serialize({ requireAllSignatures: false })
    const v0Wire = new VersionedTransaction(VersionedMessage.deserialize(v0())).serialize()
    for (const wire of [legacyWire, v0Wire]) {
      const { staticAccountKeys, compiledInstructions } = Message.read(wire)
      expect(staticAccountKeys[0]).toBe(payer.toBase58())
      expect(compiledInstructions.map(({ data }) => [...data])).toEqual([[...steal.data]])
    }
  })

  it('holds a message to the rules a node checks before it runs one: no signer, a payer that is a program', () => {
    const message = legacy()
    const noSigner = Uint8Array.of(0, ...message.subarray(1))
    expect(Message.isTransactionMessage(noSigner)).toBe(false)
    const parsed = Message.readMessage(message)
    expect(parsed.staticAccountKeys[0]).toBe(payer.toBase58())
    // The instruction's program index is its first byte after the keys, blockhash and instruction count.
    const at = 3 + 1 + parsed.staticAccountKeys.length * 32 + 32 + 1
    const payerAsProgram = message.slice()
    payerAsProgram[at] = 0
    expect(Message.isTransactionMessage(payerAsProgram)).toBe(false)
  })
})
