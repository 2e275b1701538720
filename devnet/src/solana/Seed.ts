/**
 * What the chain holds from its first slot: a faucet with SOL for airdrops, and a USDC-like SPL mint (6
 * decimals) whose authority is the faucet. Both keys are fixed so every run has the same addresses; funding
 * and airdrops are ordinary signed transactions from the faucet, so wallets and indexers see them in the
 * history like any other transfer.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import type { Bank } from './Bank.ts'
import * as Message from './Message.ts'

// DEVNET-ONLY KEYS, published on purpose so addresses stay the same across runs (sha256 of
// "airlock devnet solana faucet" and "airlock devnet solana usdc mint"). Never hold real funds with them.
const faucetSeed = '3fbce59b978fd6e893796c7f0d8a19ea0deea0cfafe4a16ebe899148e355243f'
const usdcMintSeed = '4bf52a33e3c856c2c866f8a270cf6408f51a558249280250db076744001f4352'

/** The faucet: pays airdrops and funding, and is the USDC mint's authority. */
export const faucetAddress = 'CMKwpWxRuZkEpjt1rgQDensv5cXcA7ucm72i994Uz5pw' as Address
/** The devnet's USDC-like token (SPL Token program, 6 decimals). */
export const usdcMint = '3BstcRQ9cc9NBFaKRoDDsRhaFX5ow4FQdm6HU6fC6t4B' as Address
export const usdcDecimals = 6

export const lamportsPerSol = 1_000_000_000n
// Half a billion SOL: airdrops never run dry, and the balance still fits a u64 with room to spare.
const faucetLamports = 500_000_000n * lamportsPerSol

export type Amounts = {
  /** SOL to send each address, in lamports. @default 100 SOL */
  lamports?: bigint
  /** USDC to mint to each address's associated token account, in base units. @default 1,000,000 USDC */
  usdc?: bigint
}

const defaultAmounts = { lamports: 100n * lamportsPerSol, usdc: 1_000_000n * 10n ** 6n }

export type Keys = { faucet: KeyPairSigner; mint: KeyPairSigner }

export async function keys(): Promise<Keys> {
  const [faucet, mint] = await Promise.all(
    [faucetSeed, usdcMintSeed].map((hex) => createKeyPairSignerFromPrivateKeyBytes(Buffer.from(hex, 'hex'))),
  )
  if (faucet?.address !== faucetAddress || mint?.address !== usdcMint) {
    throw new Error('the devnet keys no longer derive the published addresses')
  }
  return { faucet, mint }
}

/** The genesis allocation (the faucet's SOL) and the USDC mint, created by a transaction of slot 0. */
export async function genesis(bank: Bank, { faucet, mint }: Keys): Promise<void> {
  bank.svm.setAccount({
    address: faucet.address,
    lamports: lamports(faucetLamports),
    programAddress: Message.systemProgram,
    executable: false,
    data: new Uint8Array(),
    space: 0n,
  })
  const space = BigInt(getMintSize())
  await send(bank, faucet, [
    getCreateAccountInstruction({
      payer: faucet,
      newAccount: mint,
      lamports: bank.svm.minimumBalanceForRentExemption(space),
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({
      mint: mint.address,
      decimals: usdcDecimals,
      mintAuthority: faucet.address,
    }),
  ])
}

/** One transfer from the faucet; the signature, as requestAirdrop returns it. */
export function airdrop(bank: Bank, { faucet }: Keys, to: Address, amount: bigint): Promise<string> {
  return send(bank, faucet, [getTransferSolInstruction({ source: faucet, destination: to, amount })])
}

/** SOL and USDC for each address, one transaction each; creates the token accounts as needed. */
export async function fund(
  bank: Bank,
  { faucet }: Keys,
  addresses: readonly Address[],
  amounts: Amounts = {},
): Promise<string[]> {
  const sol = amounts.lamports ?? defaultAmounts.lamports
  const usdc = amounts.usdc ?? defaultAmounts.usdc
  const signatures: string[] = []
  for (const owner of addresses) {
    const [ata] = await findAssociatedTokenPda({ owner, mint: usdcMint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const instructions: Instruction[] = []
    if (sol > 0n)
      instructions.push(getTransferSolInstruction({ source: faucet, destination: owner, amount: sol }))
    if (usdc > 0n) {
      instructions.push(
        getCreateAssociatedTokenIdempotentInstruction({ payer: faucet, ata, owner, mint: usdcMint }),
        getMintToInstruction({ mint: usdcMint, token: ata, mintAuthority: faucet, amount: usdc }),
      )
    }
    if (instructions.length > 0) signatures.push(await send(bank, faucet, instructions))
  }
  return signatures
}

async function send(bank: Bank, payer: KeyPairSigner, instructions: readonly Instruction[]): Promise<string> {
  for (;;) {
    const wire = await sign(bank, payer, instructions)
    // The same transfer twice in one slot signs to the same signature; the second waits for a new blockhash
    // instead of being refused as already processed.
    if (!bank.ledger.get(wire.signatures[0] ?? '')) return bank.submit(wire, { skipPreflight: false })
    await new Promise<void>((resolve) => {
      const stop = bank.onSlot(() => {
        stop()
        resolve()
      })
    })
  }
}

async function sign(
  bank: Bank,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<Message.Wire> {
  const { blockhash } = bank.clock.tip()
  const message = pipe(
    // Legacy, so a client that asks getTransaction without maxSupportedTransactionVersion can read it.
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const signed = await signTransactionMessageWithSigners(message)
  return Message.fromBytes(new Uint8Array(getTransactionEncoder().encode(signed)))
}
