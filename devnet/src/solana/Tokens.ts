/**
 * SPL Token and Token-2022 accounts read the way the node's account decoder reads them: which accounts are
 * token accounts or mints, their `jsonParsed` form, UI amounts, and the token balances a transaction's meta
 * lists. Token-2022's extensions are not decoded; its base layout is the same as Token's.
 */
import { type Address, type EncodedAccount, unwrapOption } from '@solana/kit'
import {
  getMintDecoder,
  getTokenDecoder,
  type Mint,
  TOKEN_PROGRAM_ADDRESS,
  type Token,
} from '@solana-program/token'

export const tokenProgramId = TOKEN_PROGRAM_ADDRESS
export const token2022ProgramId = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address

export type Reader = (address: Address) => EncodedAccount | undefined

export type UiTokenAmount = { amount: string; decimals: number; uiAmount: number; uiAmountString: string }

export type TokenBalance = {
  accountIndex: number
  mint: Address
  owner: Address
  programId: Address
  uiTokenAmount: UiTokenAmount
}

/** A token account with the decimals of its mint. */
export type Holding = { token: Token; decimals: number; programId: Address }

const mintBytes = 82
const accountBytes = 165
// Token-2022 pads a mint with extensions to an account's length, then writes the account type after it.
const accountTypeOffset = accountBytes
const accountTypeMint = 1
const accountTypeAccount = 2
const stateNames = ['uninitialized', 'initialized', 'frozen'] as const

export function isTokenProgram(address: Address): boolean {
  return address === tokenProgramId || address === token2022ProgramId
}

function kindOf(account: EncodedAccount): 'mint' | 'account' | undefined {
  if (!isTokenProgram(account.programAddress)) return undefined
  const { length } = account.data
  if (length === mintBytes) return 'mint'
  if (length === accountBytes) return 'account'
  if (length <= accountTypeOffset || account.programAddress !== token2022ProgramId) return undefined
  const type = account.data[accountTypeOffset]
  if (type === accountTypeMint) return 'mint'
  return type === accountTypeAccount ? 'account' : undefined
}

export function asToken(account: EncodedAccount): Token | undefined {
  if (kindOf(account) !== 'account') return undefined
  return getTokenDecoder().decode(account.data.subarray(0, accountBytes))
}

export function asMint(account: EncodedAccount): Mint | undefined {
  if (kindOf(account) !== 'mint') return undefined
  return getMintDecoder().decode(account.data.subarray(0, mintBytes))
}

/** A token account and its mint's decimals; undefined when either is missing. */
export function holding(read: Reader, account: EncodedAccount): Holding | undefined {
  const token = asToken(account)
  if (!token || token.state === 0) return undefined
  const mintAccount = read(token.mint)
  const mint = mintAccount && asMint(mintAccount)
  return mint ? { token, decimals: mint.decimals, programId: account.programAddress } : undefined
}

export function uiAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString().padStart(decimals + 1, '0')
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals)
  const fraction = decimals === 0 ? '' : digits.slice(-decimals).replace(/0+$/, '')
  const uiAmountString = fraction === '' ? whole : `${whole}.${fraction}`
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** The `parsed` data of a token account or mint, as `jsonParsed` returns it; undefined for anything else. */
export function parsed(read: Reader, account: EncodedAccount): unknown {
  const program = account.programAddress === token2022ProgramId ? 'spl-token-2022' : 'spl-token'
  const mint = asMint(account)
  if (mint) {
    const info = {
      decimals: mint.decimals,
      freezeAuthority: unwrapOption(mint.freezeAuthority),
      isInitialized: mint.isInitialized,
      mintAuthority: unwrapOption(mint.mintAuthority),
      supply: mint.supply.toString(),
    }
    return { program, parsed: { info, type: 'mint' }, space: account.data.length }
  }
  const held = holding(read, account)
  if (!held) return undefined
  return { program, parsed: { info: accountInfo(held), type: 'account' }, space: account.data.length }
}

function accountInfo({ token, decimals }: Holding): Record<string, unknown> {
  const delegate = unwrapOption(token.delegate)
  const closeAuthority = unwrapOption(token.closeAuthority)
  const reserve = unwrapOption(token.isNative)
  return {
    isNative: reserve !== null,
    mint: token.mint,
    owner: token.owner,
    ...(reserve !== null ? { rentExemptReserve: uiAmount(reserve, decimals) } : {}),
    state: stateNames[token.state],
    tokenAmount: uiAmount(token.amount, decimals),
    ...(delegate ? { delegate, delegatedAmount: uiAmount(token.delegatedAmount, decimals) } : {}),
    ...(closeAuthority ? { closeAuthority } : {}),
  }
}

/** preTokenBalances / postTokenBalances: one entry per token account among the transaction's keys. */
export function balances(read: Reader, keys: readonly Address[]): TokenBalance[] {
  return keys.flatMap((key, accountIndex) => {
    const account = read(key)
    const held = account && holding(read, account)
    if (!held) return []
    const { token, decimals, programId } = held
    return [
      {
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId,
        uiTokenAmount: uiAmount(token.amount, decimals),
      },
    ]
  })
}
