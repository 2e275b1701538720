import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaDevnetId } from '../Chains.ts'
import * as Solana from './Solana.ts'

const finalizedDepth = 5
let chain: Solana.Instance
let rpc: Rpc<SolanaRpcApi>
let subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>

beforeAll(async () => {
  chain = await Solana.start({ port: 0, slotMs: 40, finalizedDepth })
  rpc = createSolanaRpc(chain.rpcUrl)
  subscriptions = createSolanaRpcSubscriptions(chain.wsUrl)
})

afterAll(async () => {
  // web3.js closes its socket 500 ms after its last subscription ends; stopping first makes it reconnect.
  await sleep(700)
  await chain?.stop()
})

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function fundedKeypair(): Promise<Keypair> {
  const keypair = Keypair.generate()
  await chain.fund([address(keypair.publicKey.toBase58())])
  return keypair
}

async function fundedSigner(): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner()
  await chain.fund([signer.address])
  return signer
}

async function sendWithKit(payer: KeyPairSigner, instructions: readonly Instruction[]): Promise<string> {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  )
  assertIsTransactionWithBlockhashLifetime(transaction)
  await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subscriptions })(transaction, {
    commitment: 'confirmed',
  })
  return getSignatureFromTransaction(transaction)
}

async function usdcAccount(owner: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner,
    mint: chain.usdcMint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  })
  return ata
}

/** Polls like a wallet would; web3.js's confirmTransaction rejects early when its poll sees an error. */
async function confirmedStatus(connection: Connection, signature: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { value } = await connection.getSignatureStatuses([signature])
    const status = value[0]
    if (status && status.confirmationStatus !== 'processed') return status
    await sleep(20)
  }
  throw new Error(`${signature} was not confirmed`)
}

function transfer(from: Keypair, to: PublicKey, lamports: number): Transaction {
  return new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }))
}

describe('identity', () => {
  it('keeps the CAIP-2 id the browser side names it by: its genesis hash is fixed', () => {
    expect(Solana.caipNetworkId).toBe(solanaDevnetId)
  })
})

describe('web3.js v1', () => {
  it('confirms a SOL transfer with sendAndConfirmTransaction and charges 5,000 lamports', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const payer = await fundedKeypair()
    const recipient = Keypair.generate().publicKey
    const before = await connection.getBalance(payer.publicKey)

    const signature = await sendAndConfirmTransaction(
      connection,
      transfer(payer, recipient, LAMPORTS_PER_SOL),
      [payer],
    )

    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL)
    expect(await connection.getBalance(payer.publicKey)).toBe(before - LAMPORTS_PER_SOL - 5_000)
    const status = await connection.getSignatureStatus(signature)
    expect(status.value?.confirmationStatus).toMatch(/confirmed|finalized/)
  })

  it('works as a plain new Connection(rpcUrl), WebSocket on port + 1, up to finalized', async () => {
    expect(new URL(chain.wsUrl).port).toBe(String(Number(new URL(chain.rpcUrl).port) + 1))
    const connection = new Connection(chain.rpcUrl)
    const payer = await fundedKeypair()
    const tx = transfer(payer, PublicKey.unique(), 1e9)

    const signature = await sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'finalized' })

    const { value } = await connection.getSignatureStatuses([signature])
    expect(value[0]).toMatchObject({ confirmationStatus: 'finalized', confirmations: null, err: null })
  })

  it('refuses an overdraft in preflight the way the node does', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const payer = await fundedKeypair()

    const failure = await sendAndConfirmTransaction(
      connection,
      transfer(payer, PublicKey.unique(), 1_000 * LAMPORTS_PER_SOL),
      [payer],
    ).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(SendTransactionError)
    const error = failure as SendTransactionError
    expect(error.transactionError.message).toBe(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    )
    expect(error.logs?.join('\n')).toContain('Transfer: insufficient lamports')
  })

  it('lands an overdraft sent with skipPreflight as a failed transaction that paid its fee', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const payer = await fundedKeypair()
    const before = await connection.getBalance(payer.publicKey)
    const tx = transfer(payer, PublicKey.unique(), 1_000 * LAMPORTS_PER_SOL)
    tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash
    tx.sign(payer)

    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })
    const status = await confirmedStatus(connection, signature)

    expect(status.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(await connection.getBalance(payer.publicKey)).toBe(before - 5_000)
    const landed = await connection.getTransaction(signature, { commitment: 'confirmed' })
    expect(landed?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(landed?.meta?.fee).toBe(5_000)
  })

  it('airdrops through requestAirdrop', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const recipient = Keypair.generate().publicKey
    const signature = await connection.requestAirdrop(recipient, 2 * LAMPORTS_PER_SOL)
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) })
    expect(await connection.getBalance(recipient)).toBe(2 * LAMPORTS_PER_SOL)
  })
})

describe('SPL token transfer and history', () => {
  let sender: KeyPairSigner
  let recipient: Address
  let signature: string
  let fundingSignature: string
  const amount = 2_500_000n

  beforeAll(async () => {
    sender = await generateKeyPairSigner()
    ;[fundingSignature = ''] = await chain.fund([sender.address])
    recipient = (await generateKeyPairSigner()).address
    const destination = await usdcAccount(recipient)
    signature = await sendWithKit(sender, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: sender,
        ata: destination,
        owner: recipient,
        mint: chain.usdcMint,
      }),
      getTransferCheckedInstruction({
        source: await usdcAccount(sender.address),
        mint: chain.usdcMint,
        destination,
        authority: sender,
        amount,
        decimals: Solana.usdcDecimals,
      }),
    ])
  })

  it('shows the balances through getTokenAccountsByOwner and getTokenAccountBalance', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const owner = new PublicKey(recipient)
    const parsed = await connection.getParsedTokenAccountsByOwner(owner, {
      mint: new PublicKey(chain.usdcMint),
    })
    expect(parsed.value).toHaveLength(1)
    expect(parsed.value[0]?.account.data.parsed.info).toMatchObject({
      mint: chain.usdcMint,
      owner: recipient,
      state: 'initialized',
      tokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' },
    })
    const raw = await connection.getTokenAccountsByOwner(owner, {
      programId: new PublicKey(TOKEN_PROGRAM_ADDRESS),
    })
    expect(raw.value.map((entry) => entry.pubkey.toBase58())).toEqual([await usdcAccount(recipient)])
    expect(raw.value[0]?.account.data).toHaveLength(165)

    const senderBalance = await connection.getTokenAccountBalance(
      new PublicKey(await usdcAccount(sender.address)),
    )
    expect(senderBalance.value.amount).toBe(String(1_000_000n * 10n ** 6n - amount))
  })

  it('lists the transfer first in getSignaturesForAddress, and pages with before/until/limit', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const owner = new PublicKey(sender.address)
    const all = await connection.getSignaturesForAddress(owner)
    expect(all.map((entry) => entry.signature)).toEqual([signature, fundingSignature])
    expect(all[0]).toMatchObject({ err: null, memo: null })
    expect(all[0]?.slot).toBeGreaterThanOrEqual(all[1]?.slot ?? Number.POSITIVE_INFINITY)

    expect((await connection.getSignaturesForAddress(owner, { limit: 1 })).map((e) => e.signature)).toEqual([
      signature,
    ])
    expect(
      (await connection.getSignaturesForAddress(owner, { before: signature })).map((e) => e.signature),
    ).toEqual([fundingSignature])
    expect(await connection.getSignaturesForAddress(owner, { until: signature })).toEqual([])
  })

  it('returns the transfer from getTransaction with its SOL and token balances', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    if (!landed?.meta) throw new Error('transaction not found')
    const { meta } = landed
    const keys = landed.transaction.message.staticAccountKeys.map((key) => key.toBase58())
    expect(landed.version).toBe(0)
    expect(meta.err).toBeNull()
    expect(meta.fee).toBe(5_000)
    const payerIndex = keys.indexOf(sender.address)
    const rent = 2_039_280 // the recipient's new token account
    expect((meta.preBalances[payerIndex] ?? 0) - (meta.postBalances[payerIndex] ?? 0)).toBe(5_000 + rent)
    const byOwner = (balances: typeof meta.postTokenBalances) =>
      Object.fromEntries((balances ?? []).map((b) => [b.owner, b.uiTokenAmount.amount]))
    expect(byOwner(meta.preTokenBalances)).toEqual({ [sender.address]: '1000000000000' })
    expect(byOwner(meta.postTokenBalances)).toEqual({
      [sender.address]: '999997500000',
      [recipient]: '2500000',
    })
    expect(meta.logMessages).toContain('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success')
    expect(landed.blockTime).toBeGreaterThan(1_700_000_000)
  })

  it('parses the transfer in the jsonParsed encoding, as getParsedTransaction reads it', async () => {
    const connection = new Connection(chain.rpcUrl, 'confirmed')
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 })
    if (!parsed) throw new Error('transaction not found')
    const { instructions, accountKeys } = parsed.transaction.message
    expect(instructions.map((i) => ('parsed' in i ? i.parsed.type : 'raw'))).toEqual([
      'createIdempotent',
      'transferChecked',
    ])
    expect(instructions[1]).toMatchObject({
      program: 'spl-token',
      parsed: {
        info: {
          mint: chain.usdcMint,
          authority: sender.address,
          tokenAmount: { amount: '2500000', decimals: 6 },
        },
      },
    })
    expect(accountKeys[0]?.pubkey.toBase58()).toBe(sender.address)
    expect(accountKeys[0]).toMatchObject({ signer: true, writable: true, source: 'transaction' })
    const inner = parsed.meta?.innerInstructions?.[0]?.instructions ?? []
    expect(inner.some((i) => 'parsed' in i && i.parsed.type === 'createAccount')).toBe(true)
  })

  it('returns the wire transaction in the base64 encoding', async () => {
    const landed = await rpc
      .getTransaction(signature as never, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send()
    if (!landed) throw new Error('transaction not found')
    const wire = getTransactionDecoder().decode(Buffer.from(landed.transaction[0], 'base64'))
    expect(getSignatureFromTransaction(wire)).toBe(signature)
    expect(landed.meta?.fee).toBe(5_000n)
  })
})

describe('@solana/kit', () => {
  it('reads balances and the parsed mint with createSolanaRpc', async () => {
    const owner = await fundedSigner()
    const { value: balance } = await rpc.getBalance(owner.address).send()
    expect(balance).toBe(100n * Solana.lamportsPerSol)
    const { value: mint } = await rpc.getAccountInfo(chain.usdcMint, { encoding: 'jsonParsed' }).send()
    expect(mint?.owner).toBe(TOKEN_PROGRAM_ADDRESS)
    expect(mint?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6 } },
    })
    expect(await rpc.getGenesisHash().send()).toBe(Solana.genesisHash)
  })

  it('notifies accountSubscribe when a transfer changes the account', async () => {
    const payer = await fundedSigner()
    const watched = (await generateKeyPairSigner()).address
    const abort = new AbortController()
    const notifications = await subscriptions
      .accountNotifications(watched, { commitment: 'confirmed', encoding: 'base64' })
      .subscribe({ abortSignal: abort.signal })
    // kit hands out only what arrives while the iterator is being read, so start reading first.
    const first = (async () => {
      for await (const notification of notifications) return notification
    })()
    await sendWithKit(payer, [
      getTransferSolInstruction({ source: payer, destination: watched, amount: 3_000_000n }),
    ])
    expect((await first)?.value.lamports).toBe(3_000_000n)
    abort.abort()
  })

  it('notifies slotSubscribe once a slot', async () => {
    const abort = new AbortController()
    const slots = await subscriptions.slotNotifications().subscribe({ abortSignal: abort.signal })
    const seen: bigint[] = []
    for await (const { slot } of slots) {
      seen.push(slot)
      if (seen.length === 3) break
    }
    abort.abort()
    expect(seen[1]).toBe((seen[0] ?? 0n) + 1n)
    expect(seen[2]).toBe((seen[0] ?? 0n) + 2n)
  })
})
