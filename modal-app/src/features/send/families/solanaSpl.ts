/**
 * The SPL Token pieces a send needs, written out instead of pulling in @solana/spl-token for three
 * instructions: the two token programs, associated token addresses, the idempotent creation of one, a
 * TransferChecked, and the few bytes of mints and token accounts that a send reads.
 */
import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js'

export const tokenProgram = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
export const token2022Program = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
export const associatedTokenProgram = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')

// Token-2022 keeps Token's layouts for the base fields; with extensions it pads a mint to a token account's
// length, writes the account type after it (1 mint, 2 token account), then the extensions.
const mintDecimalsOffset = 44
const mintBaseLength = 82
const accountAmountOffset = 64
const accountBaseLength = 165
const accountTypeMint = 1
const accountTypeAccount = 2
const createIdempotent = 1
const transferChecked = 12

/** An account as the node shows it, with its data decoded from base64. */
export type Account = { lamports: bigint; owner: string; data: Uint8Array }

export function isTokenProgram(owner: string): boolean {
  return owner === tokenProgram.toBase58() || owner === token2022Program.toBase58()
}

/** The mint's program (Token or Token-2022) and decimals; undefined when the account is no mint. */
export function mintOf(account: Account | null): { program: PublicKey; decimals: number } | undefined {
  if (!account || kindOf(account) !== 'mint') return undefined
  return { program: new PublicKey(account.owner), decimals: account.data[mintDecimalsOffset] ?? 0 }
}

/** The balance of a token account, 0 when it does not exist (a closed or never-created one holds nothing). */
export function amountOf(account: Account | null): bigint {
  if (!account || kindOf(account) !== 'account') return 0n
  return readU64(account.data, accountAmountOffset)
}

/** Whether the account is a mint or a token account of either token program, as the node's decoder reads it. */
export function kindOf(account: Account): 'mint' | 'account' | undefined {
  if (!isTokenProgram(account.owner)) return undefined
  const { length } = account.data
  if (length === mintBaseLength) return 'mint'
  if (length === accountBaseLength) return 'account'
  if (length <= accountBaseLength || account.owner !== token2022Program.toBase58()) return undefined
  const type = account.data[accountBaseLength]
  if (type === accountTypeMint) return 'mint'
  return type === accountTypeAccount ? 'account' : undefined
}

/**
 * The owner's associated token account for the mint under the mint's program.
 * @example associatedAddress(owner, usdcMint, tokenProgram).toBase58()
 */
export function associatedAddress(owner: PublicKey, mint: PublicKey, program: PublicKey): PublicKey {
  const seeds = [owner.toBytes(), program.toBytes(), mint.toBytes()]
  return PublicKey.findProgramAddressSync(seeds, associatedTokenProgram)[0]
}

/** Creates the owner's associated token account unless it exists; the payer pays its rent. */
export function createAssociatedIdempotent(options: {
  payer: PublicKey
  account: PublicKey
  owner: PublicKey
  mint: PublicKey
  program: PublicKey
}): TransactionInstruction {
  const { payer, account, owner, mint, program } = options
  return new TransactionInstruction({
    programId: associatedTokenProgram,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: program, isSigner: false, isWritable: false },
    ],
    data: instructionData([createIdempotent]),
  })
}

/** Moves `amount` base units; the program checks `decimals` against the mint's, so a wrong mint fails. */
export function transferCheckedInstruction(options: {
  source: PublicKey
  mint: PublicKey
  destination: PublicKey
  owner: PublicKey
  amount: bigint
  decimals: number
  program: PublicKey
}): TransactionInstruction {
  const { source, mint, destination, owner, amount, decimals, program } = options
  // DataView would wrap a larger amount silently into a smaller one.
  if (amount < 0n || amount >= 1n << 64n) throw new RangeError(`Not a u64 amount: ${amount}`)
  const data = new Uint8Array(10)
  data[0] = transferChecked
  new DataView(data.buffer).setBigUint64(1, amount, true)
  data[9] = decimals
  return new TransactionInstruction({
    programId: program,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: instructionData(data),
  })
}

// web3.js types instruction data as a Node Buffer but only ever base58-encodes it when it compiles the
// message, so plain bytes serve, and the modal needs no Buffer polyfill of its own.
function instructionData(bytes: Uint8Array | number[]): Buffer {
  return Uint8Array.from(bytes) as Buffer
}

function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)
}
