/**
 * getTransaction's `jsonParsed` encoding: account keys annotated with signer/writable/source, and the
 * instructions wallets show in a history (system transfers and account creation, SPL token transfers and
 * mints, associated-token-account creation, memos) parsed into `{ program, programId, parsed }`. Any other
 * instruction stays partially decoded (`{ programId, accounts, data }`), as the node leaves programs it has
 * no parser for.
 */
import { type Address, getBase58Decoder, getBase58Encoder } from '@solana/kit'
import type { Landed } from './Ledger.ts'
import * as Message from './Message.ts'
import * as Tokens from './Tokens.ts'

type Raw = { programId: Address; accounts: Address[]; data: Uint8Array }
type Parser = (raw: Raw, decimalsOf: (mint: Address) => number | undefined) => unknown

const ataProgram = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
const memoPrograms = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]

/** The `transaction` field in the jsonParsed encoding. */
export function transaction(landed: Landed, decimalsOf: (mint: Address) => number | undefined): unknown {
  const { message } = landed.wire
  const { all } = landed.keys
  const signers = message.header.numSignerAccounts
  const statics = message.staticAccounts.length
  const json = Message.toJson(landed.wire) as { message: Record<string, unknown>; signatures: string[] }
  return {
    message: {
      ...json.message,
      accountKeys: all.map((pubkey, index) => ({
        pubkey,
        signer: index < signers,
        source: index < statics ? 'transaction' : 'lookupTable',
        writable: Message.isWritable(message, landed.keys, index),
      })),
      instructions: message.instructions.map((instruction) =>
        parse(
          rawOf(all, instruction.programAddressIndex, instruction.accountIndices ?? [], instruction.data),
          decimalsOf,
        ),
      ),
    },
    signatures: json.signatures,
  }
}

/** meta.innerInstructions in the jsonParsed encoding. */
export function innerInstructions(
  landed: Landed,
  decimalsOf: (mint: Address) => number | undefined,
): unknown {
  const base58 = getBase58Encoder()
  return landed.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((inner) => ({
      ...(parse(
        rawOf(landed.keys.all, inner.programIdIndex, inner.accounts, base58.encode(inner.data)),
        decimalsOf,
      ) as object),
      stackHeight: inner.stackHeight,
    })),
  }))
}

function rawOf(
  keys: readonly Address[],
  programIndex: number,
  accountIndices: readonly number[],
  data: ArrayLike<number> | undefined,
): Raw {
  return {
    programId: keys[programIndex] ?? ('' as Address),
    accounts: accountIndices.map((index) => keys[index] ?? ('' as Address)),
    data: new Uint8Array(data ?? []),
  }
}

function parse(raw: Raw, decimalsOf: (mint: Address) => number | undefined): unknown {
  const parser = parsers[raw.programId]
  const parsed = parser?.(raw, decimalsOf)
  if (parsed !== undefined) return { ...(parsed as object), programId: raw.programId, stackHeight: null }
  return {
    accounts: raw.accounts,
    data: getBase58Decoder().decode(raw.data),
    programId: raw.programId,
    stackHeight: null,
  }
}

const parseSystem: Parser = ({ accounts: [a, b], data }) => {
  if (data.length < 4) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const kind = view.getUint32(0, true)
  if (kind === 2 && data.length >= 12) {
    const info = { destination: b, lamports: view.getBigUint64(4, true), source: a }
    return { program: 'system', parsed: { info, type: 'transfer' } }
  }
  if (kind === 0 && data.length >= 52) {
    const owner = getBase58Decoder().decode(data.subarray(20, 52))
    const info = {
      lamports: view.getBigUint64(4, true),
      newAccount: b,
      owner,
      source: a,
      space: view.getBigUint64(12, true),
    }
    return { program: 'system', parsed: { info, type: 'createAccount' } }
  }
  return undefined
}

const parseToken: Parser = ({ programId, accounts, data }, decimalsOf) => {
  const program = programId === Tokens.token2022ProgramId ? 'spl-token-2022' : 'spl-token'
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const amount = () => view.getBigUint64(1, true)
  const [a, b, c, d] = accounts
  if (data[0] === 3 && data.length >= 9) {
    return {
      program,
      parsed: {
        info: { amount: amount().toString(), authority: c, destination: b, source: a },
        type: 'transfer',
      },
    }
  }
  if (data[0] === 7 && data.length >= 9) {
    return {
      program,
      parsed: {
        info: { account: b, amount: amount().toString(), mint: a, mintAuthority: c },
        type: 'mintTo',
      },
    }
  }
  if (data[0] === 12 && data.length >= 10 && b) {
    const tokenAmount = Tokens.uiAmount(amount(), data[9] ?? decimalsOf(b) ?? 0)
    return {
      program,
      parsed: {
        info: { authority: d, destination: c, mint: b, source: a, tokenAmount },
        type: 'transferChecked',
      },
    }
  }
  return undefined
}

const parseAta: Parser = ({
  accounts: [source, account, wallet, mint, systemProgram, tokenProgram],
  data,
}) => {
  const type = data.length === 0 || data[0] === 0 ? 'create' : data[0] === 1 ? 'createIdempotent' : undefined
  if (!type) return undefined
  const info = { account, mint, source, systemProgram, tokenProgram, wallet }
  return { program: 'spl-associated-token-account', parsed: { info, type } }
}

const parseMemo: Parser = ({ data }) => ({ program: 'spl-memo', parsed: new TextDecoder().decode(data) })

const parsers: Record<string, Parser> = {
  [Message.systemProgram]: parseSystem,
  [Tokens.tokenProgramId]: parseToken,
  [Tokens.token2022ProgramId]: parseToken,
  [ataProgram]: parseAta,
  ...Object.fromEntries(memoPrograms.map((program) => [program, parseMemo])),
}
