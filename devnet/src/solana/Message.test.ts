import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  type Instruction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { LiteSVM } from 'litesvm'
import { describe, expect, it } from 'vitest'
import * as Json from './Json.ts'
import * as Message from './Message.ts'

const computeBudget = 'ComputeBudget111111111111111111111111111111' as Address
const memo = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address

function unitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programAddress: computeBudget, data }
}

function unitLimit(units: number): Instruction {
  const data = new Uint8Array(5)
  data[0] = 2
  new DataView(data.buffer).setUint32(1, units, true)
  return { programAddress: computeBudget, data }
}

describe('Message.fee', () => {
  // litesvm runs the real fee logic, so the fee computed from the message must be what the payer loses.
  it.each([
    ['no priority fee', [] as Instruction[]],
    ['a price without a limit', [unitPrice(1_000_000n)]],
    ['a price and a limit', [unitPrice(2_500_000n), unitLimit(12_345)]],
    [
      'a price with a non-builtin instruction',
      [unitPrice(1_000_000n), { programAddress: memo, data: new Uint8Array([104, 105]) }],
    ],
  ])('matches what the runtime charges with %s', async (_, extra) => {
    const svm = new LiteSVM().withBlockhashCheck(false)
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    svm.airdrop(payer.address, lamports(10_000_000_000n))
    const amount = 1_000_000_000n
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n },
            m,
          ),
        (m) =>
          appendTransactionMessageInstructions(
            [...extra, getTransferSolInstruction({ source: payer, destination: recipient.address, amount })],
            m,
          ),
      ),
    )
    const before = svm.getBalance(payer.address) ?? 0n
    svm.sendTransaction(transaction)
    const charged = before - (svm.getBalance(payer.address) ?? 0n) - amount

    const wire = Message.fromBytes(new Uint8Array(getTransactionEncoder().encode(transaction)))
    expect(Message.fee(wire.message)).toBe(charged)
  })
})

describe('Message.decode', () => {
  it('refuses text that is not a transaction with -32602', () => {
    expect(() => Message.decode('AAAA', 'base64')).toThrow(/failed to deserialize/)
    expect(() => Message.decode('0OIl', 'base58')).toThrow(/invalid base58 encoding/)
  })
})

describe('Json.stringify', () => {
  it('writes u64 values digit for digit', () => {
    expect(Json.stringify({ rentEpoch: 2n ** 64n - 1n, list: [1n, undefined, 'a'], skip: undefined })).toBe(
      '{"rentEpoch":18446744073709551615,"list":[1,null,"a"]}',
    )
  })
})
