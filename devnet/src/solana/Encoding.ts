/**
 * Accounts as getAccountInfo, getMultipleAccounts, getTokenAccountsByOwner and accountSubscribe return them
 * (the node's `UiAccount`): data in the requested encoding, `jsonParsed` for SPL token accounts and mints
 * with base64 as its fallback, and `dataSlice`.
 */
import { type EncodedAccount, getBase58Decoder, getBase64Decoder } from '@solana/kit'
import * as Params from './Params.ts'
import { invalidParams, invalidRequest } from './Rpc.ts'
import * as Tokens from './Tokens.ts'

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed'
type Slice = { offset: number; length: number }
export type View = { encoding: AccountEncoding; slice: Slice | undefined }

// Every account is rent-exempt since rent collection ended, and the node writes u64::MAX for them all.
const rentEpoch = 2n ** 64n - 1n
const maxBase58Bytes = 128

/** Reads `encoding` and `dataSlice` from a config; `fallback` is the method's own default. */
export function viewOf(config: Params.Config, fallback: AccountEncoding): View {
  if (config.encoding === 'base64+zstd') {
    throw invalidParams('Invalid params: base64+zstd is not supported by this devnet; ask for base64')
  }
  const encoding = Params.oneOf(config, 'encoding', ['binary', 'base58', 'base64', 'jsonParsed'], fallback)
  const sliceConfig = Params.optionalRecord(config, 'dataSlice')
  const slice = sliceConfig && {
    offset: Number(Params.u64(sliceConfig.offset, 'dataSlice.offset')),
    length: Number(Params.u64(sliceConfig.length, 'dataSlice.length')),
  }
  if (slice && encoding === 'jsonParsed') {
    throw invalidRequest('Sliced account data can only be encoded using binary (base 58) or base64 encoding.')
  }
  return { encoding, slice }
}

export function render(read: Tokens.Reader, account: EncodedAccount | undefined, view: View): unknown {
  if (!account) return null
  return {
    data: dataOf(read, account, view),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch,
    space: account.data.length,
  }
}

function dataOf(read: Tokens.Reader, account: EncodedAccount, { encoding, slice }: View): unknown {
  if (encoding === 'jsonParsed') {
    return Tokens.parsed(read, account) ?? [getBase64Decoder().decode(account.data), 'base64']
  }
  const bytes = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data
  if (encoding === 'base64') return [getBase64Decoder().decode(bytes), 'base64']
  if (bytes.length > maxBase58Bytes) {
    throw invalidRequest(
      `Encoded binary (base 58) data should be less than ${maxBase58Bytes} bytes, please use Base64 encoding.`,
    )
  }
  const text = getBase58Decoder().decode(bytes)
  return encoding === 'binary' ? text : [text, 'base58']
}
