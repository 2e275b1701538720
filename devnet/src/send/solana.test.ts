import { createServer } from 'node:net'
import type { Request } from '@airlock/bridge-protocol'
import * as ModalChain from '@airlock/modal-app/send/chain'
import { family, texts } from '@airlock/modal-app/send/families/solana'
import * as Errors from '@airlock/modal-app/send/families/solanaErrors'
import * as Spl from '@airlock/modal-app/send/families/solanaSpl'
import {
  type Chain,
  type Draft,
  type Preview,
  SendFailure,
  type WalletRequest,
} from '@airlock/modal-app/send/family'
import { address } from '@solana/kit'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaDevnetId } from '../Chains.ts'
import * as Solana from '../solana/Solana.ts'
import { solanaAddress, solanaSeedHex } from '../TestWallets.ts'

const sol = { symbol: 'SOL', decimals: 9 }
const usdcAsset = () => ({ symbol: 'USDC', decimals: 6, address: devnet.usdcMint })
const network = {
  id: solanaDevnetId,
  namespace: 'solana',
  name: 'Send Test Solana',
  nativeCurrency: { name: 'Solana', ...sol },
  rpcUrl: '',
  testnet: true,
} as const
const fee = 5_000n

let devnet: Solana.Instance
let connection: Connection
let chain: Chain
// The e2e test wallet's key: the devnet funds exactly this address, as it does for the browser journeys.
const testWallet = Keypair.fromSeed(Buffer.from(solanaSeedHex, 'hex'))

beforeAll(async () => {
  // Quick slots, so a transaction is confirmed within one settle poll and a blockhash expires in seconds.
  devnet = await Solana.start({ port: 0, slotMs: 20, finalizedDepth: 5 })
  connection = new Connection(devnet.rpcUrl, 'processed')
  chain = chainAt(devnet.rpcUrl)
  await devnet.fund([address(testWallet.publicKey.toBase58())])
})

afterAll(async () => {
  await devnet?.stop()
})

/** The modal's Chain on the node itself: no API in these tests, so the node stands where its relay would. */
function chainAt(rpcUrl: string): Chain {
  return ModalChain.create({ network: { ...network, rpcUrl }, endpoint: () => rpcUrl })
}

/**
 * A wallet as the e2e Solana test wallet is one: it signs the bytes it is given with its key, through
 * VersionedTransaction exactly as `e2e/wallets/solana-wallet.ts` does, and never sends them itself.
 */
function localWallet(keypair: Keypair, answer: 'sign' | 'reject' | 'rewrite' = 'sign') {
  const requests: Request[] = []
  const request: WalletRequest = async (req) => {
    requests.push(req)
    if (req.namespace !== 'solana' || req.method !== 'solana:signTransaction')
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    if (req.params.address !== keypair.publicKey.toBase58())
      throw Object.assign(new Error('not this wallet'), { code: 4100 })
    if (answer === 'reject') throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const transaction = VersionedTransaction.deserialize(req.params.transaction)
    // A wallet that "improves" the transaction, here by pointing it at another blockhash.
    if (answer === 'rewrite') transaction.message.recentBlockhash = Keypair.generate().publicKey.toBase58()
    transaction.sign([keypair])
    return { signedTransaction: transaction.serialize() }
  }
  return { request, requests }
}

async function funded(lamports = 10n * BigInt(LAMPORTS_PER_SOL), usdc = 0n): Promise<Keypair> {
  const keypair = Keypair.generate()
  await devnet.fund([address(keypair.publicKey.toBase58())], { lamports, usdc })
  return keypair
}

const stranger = () => Keypair.generate().publicKey.toBase58()
const lamports = async (address: string) => BigInt(await connection.getBalance(new PublicKey(address)))

function tokenAccountOf(
  owner: string,
  mint = devnet.usdcMint as string,
  program = Spl.tokenProgram,
): PublicKey {
  return Spl.associatedAddress(new PublicKey(owner), new PublicKey(mint), program)
}

async function tokens(account: PublicKey): Promise<bigint> {
  const info = await connection.getAccountInfo(account)
  return info ? BigInt((await connection.getTokenAccountBalance(account)).value.amount) : 0n
}

async function failureOf(promise: Promise<unknown>): Promise<SendFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof SendFailure)) throw new Error(`expected a SendFailure, got ${String(error)}`)
  return error
}

async function send(preview: Preview, wallet: WalletRequest): Promise<string> {
  const signature = await family.submit(chain, preview, wallet)
  expect(await family.settle(chain, signature)).toBe('confirmed')
  return signature
}

describe('checkAddress', () => {
  it('takes base58 keys of 32 bytes and refuses everything else with the network named', () => {
    expect(family.checkAddress(solanaAddress(), network)).toBeUndefined()
    expect(family.checkAddress('11111111111111111111111111111111', network)).toBeUndefined()
    const invalid = `This is not an address on ${network.name}`
    for (const address of [
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      solanaAddress().replace(/.$/, '0'),
      solanaAddress().slice(0, 31),
      // 44 characters that decode to more than 32 bytes.
      'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      ` ${solanaAddress()}`,
    ])
      expect(family.checkAddress(address, network), address).toBe(invalid)
  })
})

describe('SOL', () => {
  it('previews, signs and lands a transfer; the simulation shows the fee in the sender’s change', async () => {
    const receiver = stranger()
    const amount = 2n * BigInt(LAMPORTS_PER_SOL)
    const before = await lamports(testWallet.publicKey.toBase58())
    const wallet = localWallet(testWallet)
    const draft: Draft = { from: testWallet.publicKey.toBase58(), to: receiver, asset: sol, amount }

    const preview = await family.preview(chain, draft)
    expect(preview.fee).toBe(fee)
    expect(preview.details).toEqual([])
    expect(preview.changes).toEqual([
      { address: draft.from, asset: sol, delta: -(amount + fee) },
      { address: receiver, asset: sol, delta: amount },
    ])

    const signature = await send(preview, wallet.request)
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    expect(wallet.requests).toHaveLength(1)
    expect(wallet.requests[0]).toMatchObject({ params: { chain: solanaDevnetId } })
    expect(await lamports(receiver)).toBe(amount)
    expect(await lamports(draft.from)).toBe(before - amount - fee)
  })

  it('sends the max: everything but the fee, leaving the account empty', async () => {
    const sender = await funded(3n * BigInt(LAMPORTS_PER_SOL))
    const from = sender.publicKey.toBase58()
    const max = await family.max(chain, { from, asset: sol })
    expect(max).toBe(3n * BigInt(LAMPORTS_PER_SOL) - fee)

    const receiver = stranger()
    await send(
      await family.preview(chain, { from, to: receiver, asset: sol, amount: max }),
      localWallet(sender).request,
    )
    expect(await lamports(from)).toBe(0n)
    expect(await lamports(receiver)).toBe(max)
    expect(await family.max(chain, { from, asset: sol })).toBe(0n)
  })

  it('refuses more than the balance as insufficient funds, before anything is signed', async () => {
    const sender = await funded(BigInt(LAMPORTS_PER_SOL))
    const from = sender.publicKey.toBase58()
    const draft = { from, to: stranger(), asset: sol, amount: BigInt(LAMPORTS_PER_SOL) }
    const failure = await failureOf(family.preview(chain, draft))
    expect(failure.kind).toBe('funds')
    expect(failure.message).toBe('Insufficient funds for this amount and the network fee')
  })

  it('explains the rent minimum when the receiver would be left below it', async () => {
    const draft = { from: testWallet.publicKey.toBase58(), to: stranger(), asset: sol, amount: 1n }
    const failure = await failureOf(family.preview(chain, draft))
    expect(failure.kind).toBe('chain')
    expect(failure.message).toBe(
      'A new account needs at least 0.00089088 SOL: send more, or to an account that exists',
    )
  })

  it('explains the rent minimum when the sender would keep less than it, short of sending all', async () => {
    const sender = await funded(BigInt(LAMPORTS_PER_SOL))
    const amount = BigInt(LAMPORTS_PER_SOL) - fee - 1n
    const draft = { from: sender.publicKey.toBase58(), to: stranger(), asset: sol, amount }
    const failure = await failureOf(family.preview(chain, draft))
    expect(failure).toMatchObject({
      kind: 'chain',
      message: 'Your account must keep at least 0.00089088 SOL, or send all of it',
    })
  })

  it('refuses an invalid receiver', async () => {
    const draft = { from: testWallet.publicKey.toBase58(), to: 'not-an-address', asset: sol, amount: 1n }
    const failure = await failureOf(family.preview(chain, draft))
    expect(failure.kind).toBe('invalid')
    expect(failure.message).toBe(`This is not an address on ${network.name}`)
  })
})

describe('SPL tokens', () => {
  it('creates the receiver’s token account first, says so and what rent it costs', async () => {
    const from = testWallet.publicKey.toBase58()
    const receiver = stranger()
    const amount = 12_500_000n
    const sourceBefore = await tokens(tokenAccountOf(from))
    const solBefore = await lamports(from)
    const draft: Draft = { from, to: receiver, asset: usdcAsset(), amount }

    const preview = await family.preview(chain, draft)
    const rent = 2_039_280n
    expect(preview.details).toEqual([
      { label: 'New token account', value: texts.newTokenAccountValue('USDC', '0.00203928', 'SOL') },
    ])
    expect(preview.changes).toEqual([
      { address: from, asset: sol, delta: -(fee + rent) },
      { address: from, asset: usdcAsset(), delta: -amount },
      { address: receiver, asset: usdcAsset(), delta: amount },
    ])

    await send(preview, localWallet(testWallet).request)
    expect(await tokens(tokenAccountOf(receiver))).toBe(amount)
    expect(await tokens(tokenAccountOf(from))).toBe(sourceBefore - amount)
    expect(await lamports(from)).toBe(solBefore - fee - rent)
  })

  it('sends to a receiver that has a token account without creating one', async () => {
    const receiver = (await funded(BigInt(LAMPORTS_PER_SOL), 5n)).publicKey.toBase58()
    const from = testWallet.publicKey.toBase58()
    const preview = await family.preview(chain, {
      from,
      to: receiver,
      asset: usdcAsset(),
      amount: 1_000_000n,
    })
    expect(preview.details).toEqual([])
    expect(preview.changes[0]).toEqual({ address: from, asset: sol, delta: -fee })

    await send(preview, localWallet(testWallet).request)
    expect(await tokens(tokenAccountOf(receiver))).toBe(1_000_005n)
  })

  it('answers the token balance as the max, and sends all of it', async () => {
    const sender = await funded(BigInt(LAMPORTS_PER_SOL), 7_654_321n)
    const from = sender.publicKey.toBase58()
    expect(await family.max(chain, { from, asset: usdcAsset() })).toBe(7_654_321n)
    expect(await family.max(chain, { from: stranger(), asset: usdcAsset() })).toBe(0n)

    const preview = await family.preview(chain, {
      from,
      to: stranger(),
      asset: usdcAsset(),
      amount: 7_654_321n,
    })
    await send(preview, localWallet(sender).request)
    expect(await family.max(chain, { from, asset: usdcAsset() })).toBe(0n)
  })

  it('refuses more tokens than held, and a sender without SOL for the fee, as insufficient funds', async () => {
    const rich = await funded(BigInt(LAMPORTS_PER_SOL), 100n)
    const tooMuch = { from: rich.publicKey.toBase58(), to: stranger(), asset: usdcAsset(), amount: 101n }
    expect((await failureOf(family.preview(chain, tooMuch))).kind).toBe('funds')

    const penniless = await funded(0n, 100n)
    const noFee = { from: penniless.publicKey.toBase58(), to: stranger(), asset: usdcAsset(), amount: 1n }
    expect((await failureOf(family.preview(chain, noFee))).kind).toBe('funds')
  })

  it('refuses the mint itself and a token account as the receiver', async () => {
    const from = testWallet.publicKey.toBase58()
    const toMint = await failureOf(
      family.preview(chain, { from, to: devnet.usdcMint, asset: usdcAsset(), amount: 1n }),
    )
    expect(toMint).toMatchObject({
      kind: 'invalid',
      message: 'This is the USDC contract itself: tokens sent to it are lost',
    })

    const tokenAccount = tokenAccountOf(from).toBase58()
    const toAccount = await failureOf(
      family.preview(chain, { from, to: tokenAccount, asset: usdcAsset(), amount: 1n }),
    )
    expect(toAccount).toMatchObject({ kind: 'invalid', message: texts.tokenAccount })
  })

  it('sends a Token-2022 token, whose accounts are larger and cost more rent', async () => {
    const sender = await funded()
    const mint = await token2022Mint(sender, 2, 50_000n)
    const from = sender.publicKey.toBase58()
    const receiver = stranger()
    const asset = { symbol: 'T22', decimals: 2, address: mint }
    expect(await family.max(chain, { from, asset })).toBe(50_000n)

    const preview = await family.preview(chain, { from, to: receiver, asset, amount: 1_234n })
    // Token-2022's associated accounts carry the immutable-owner extension: 170 bytes, not 165.
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(170))
    expect(preview.changes[0]).toEqual({ address: from, asset: sol, delta: -(fee + rent) })
    await send(preview, localWallet(sender).request)
    expect(await tokens(tokenAccountOf(receiver, mint, Spl.token2022Program))).toBe(1_234n)
    expect(await tokens(tokenAccountOf(from, mint, Spl.token2022Program))).toBe(50_000n - 1_234n)
  })
})

describe('submit and settle', () => {
  it('is declined when the wallet refuses with 4001, sends nothing, and asks again on retry', async () => {
    const sender = await funded()
    const from = sender.publicKey.toBase58()
    const receiver = stranger()
    const preview = await family.preview(chain, {
      from,
      to: receiver,
      asset: sol,
      amount: BigInt(LAMPORTS_PER_SOL),
    })

    const failure = await failureOf(family.submit(chain, preview, localWallet(sender, 'reject').request))
    expect(failure).toMatchObject({ kind: 'declined', message: 'Signature declined' })
    expect(await lamports(receiver)).toBe(0n)
    expect(await lamports(from)).toBe(10n * BigInt(LAMPORTS_PER_SOL))

    await send(preview, localWallet(sender).request)
    expect(await lamports(receiver)).toBe(BigInt(LAMPORTS_PER_SOL))
  })

  it('sends once when the same preview is submitted twice: the second broadcasts the same bytes', async () => {
    const sender = await funded()
    const from = sender.publicKey.toBase58()
    const receiver = stranger()
    const wallet = localWallet(sender)
    const preview = await family.preview(chain, {
      from,
      to: receiver,
      asset: sol,
      amount: BigInt(LAMPORTS_PER_SOL),
    })

    const first = await family.submit(chain, preview, wallet.request)
    const second = await family.submit(chain, preview, wallet.request)
    expect(second).toBe(first)
    expect(wallet.requests).toHaveLength(1)
    expect(await family.settle(chain, first)).toBe('confirmed')
    expect(await lamports(receiver)).toBe(BigInt(LAMPORTS_PER_SOL))
    expect(await lamports(from)).toBe(9n * BigInt(LAMPORTS_PER_SOL) - fee)
  })

  it('counts a broadcast whose answer was lost as sent: the retry sends the same bytes, signed once', async () => {
    const sender = await funded()
    const receiver = stranger()
    const wallet = localWallet(sender)
    let lost = 0
    // The node gets the transaction, but its answer never comes back.
    const flaky: Chain = {
      ...chain,
      rpc: async (method, params) => {
        const result = await chain.rpc(method, params)
        if (method === 'sendTransaction' && lost++ === 0)
          throw new SendFailure('unavailable', `${network.name} cannot be reached. Nothing was sent.`)
        return result
      },
    }
    const draft = {
      from: sender.publicKey.toBase58(),
      to: receiver,
      asset: sol,
      amount: BigInt(LAMPORTS_PER_SOL),
    }
    const preview = await family.preview(flaky, draft)

    expect((await failureOf(family.submit(flaky, preview, wallet.request))).kind).toBe('unavailable')
    const signature = await family.submit(flaky, preview, wallet.request)
    expect(await family.settle(flaky, signature)).toBe('confirmed')
    expect(wallet.requests).toHaveLength(1)
    expect(await lamports(receiver)).toBe(BigInt(LAMPORTS_PER_SOL))
  })

  it('sends nothing when the wallet signs another transaction than the one previewed', async () => {
    const sender = await funded()
    const receiver = stranger()
    const draft = {
      from: sender.publicKey.toBase58(),
      to: receiver,
      asset: sol,
      amount: BigInt(LAMPORTS_PER_SOL),
    }
    const preview = await family.preview(chain, draft)
    const failure = await failureOf(family.submit(chain, preview, localWallet(sender, 'rewrite').request))
    expect(failure).toMatchObject({
      kind: 'chain',
      message: 'The wallet changed the transaction, so it was not sent',
    })
    expect(await lamports(receiver)).toBe(0n)
  })

  it('settles as failed once the blockhash has expired without the transaction landing', async () => {
    const sender = await funded()
    const from = sender.publicKey.toBase58()
    // A node that accepts the transaction and drops it, as a busy leader may.
    const dropping: Chain = {
      ...chain,
      rpc: (method, params) =>
        method === 'sendTransaction' ? Promise.resolve('dropped') : chain.rpc(method, params),
    }
    const preview = await family.preview(dropping, {
      from,
      to: stranger(),
      asset: sol,
      amount: 1_000_000_000n,
    })
    const signature = await family.submit(dropping, preview, localWallet(sender).request)

    expect(await family.settle(dropping, signature)).toBe('failed')
    expect(await lamports(from)).toBe(10n * BigInt(LAMPORTS_PER_SOL))
  })
})

describe('failure texts', () => {
  it('names the failing instruction, its program error and what the program logged', () => {
    const err = { InstructionError: [1, { Custom: 17 }] }
    const logs = [
      'Program Tokenkeg… invoke [1]',
      'Program log: Error: Account is frozen',
      'Program Tokenkeg… failed',
    ]
    expect(Errors.describe(err, logs)).toBe(
      'instruction 1: custom program error 0x11 (Program Tokenkeg… failed)',
    )
    expect(Errors.describe('InvalidAccountForFee', [])).toBe('InvalidAccountForFee')
  })

  it('reads running out of SOL or of the token as funds, whichever program says it', () => {
    const custom1 = (index: number) => ({ InstructionError: [index, { Custom: 1 }] })
    const programs = [
      '11111111111111111111111111111111',
      Spl.tokenProgram.toBase58(),
      'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
    ]
    expect(Errors.isFundsError(custom1(0), programs)).toBe(true)
    expect(Errors.isFundsError(custom1(1), programs)).toBe(true)
    expect(Errors.isFundsError(custom1(2), programs)).toBe(false)
    expect(Errors.isFundsError('InsufficientFundsForFee', programs)).toBe(true)
    expect(Errors.isFundsError('BlockhashNotFound', programs)).toBe(false)
  })
})

describe('a node that cannot be reached', () => {
  it('makes max and preview unavailable', async () => {
    const dead = chainAt(`http://127.0.0.1:${await closedPort()}`)
    const from = testWallet.publicKey.toBase58()
    const draft = { from, to: stranger(), asset: sol, amount: 1n }
    for (const call of [family.max(dead, { from, asset: sol }), family.preview(dead, draft)]) {
      const failure = await failureOf(call)
      expect(failure.kind).toBe('unavailable')
      expect(failure.message).toBe(`${network.name} cannot be reached. Nothing was sent.`)
    }
  })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** A Token-2022 mint of the sender's, with `amount` minted to its associated account. */
async function token2022Mint(owner: Keypair, decimals: number, amount: bigint): Promise<string> {
  const mint = Keypair.generate()
  const program = Spl.token2022Program
  const account = Spl.associatedAddress(owner.publicKey, mint.publicKey, program)
  const initializeMint2 = Uint8Array.from([20, decimals, ...owner.publicKey.toBytes(), 0])
  const mintTo = new Uint8Array(9)
  mintTo[0] = 7
  new DataView(mintTo.buffer).setBigUint64(1, amount, true)
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
  const transaction = new Transaction({ feePayer: owner.publicKey, blockhash, lastValidBlockHeight }).add(
    SystemProgram.createAccount({
      fromPubkey: owner.publicKey,
      newAccountPubkey: mint.publicKey,
      lamports: await connection.getMinimumBalanceForRentExemption(82),
      space: 82,
      programId: program,
    }),
    new TransactionInstruction({
      programId: program,
      keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
      data: Buffer.from(initializeMint2),
    }),
    Spl.createAssociatedIdempotent({
      payer: owner.publicKey,
      account,
      owner: owner.publicKey,
      mint: mint.publicKey,
      program,
    }),
    new TransactionInstruction({
      programId: program,
      keys: [
        { pubkey: mint.publicKey, isSigner: false, isWritable: true },
        { pubkey: account, isSigner: false, isWritable: true },
        { pubkey: owner.publicKey, isSigner: true, isWritable: false },
      ],
      data: Buffer.from(mintTo),
    }),
  )
  transaction.sign(owner, mint)
  // The devnet executes a transaction as it receives it: it has landed once the node answers.
  await connection.sendRawTransaction(transaction.serialize())
  return mint.publicKey.toBase58()
}
