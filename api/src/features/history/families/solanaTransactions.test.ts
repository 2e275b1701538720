import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import * as JsonRpc from '../JsonRpc.ts'
import * as SolanaTransactions from './solanaTransactions.ts'

const key = (n: number) => base58.encode(new Uint8Array(32).fill(n))
const [payer, other, tokenA, tokenB, mint, program] = [key(1), key(2), key(3), key(4), key(5), key(6)]
const token = SolanaTransactions.tokenPrograms[0]
const signature = base58.encode(new Uint8Array(64).fill(7))

/** A getTransaction answer: balances by key index, token balances as [index, owner, amount]. */
function answer(options: {
  keys: string[]
  pre: (number | string)[]
  post: (number | string)[]
  preTokens?: [number, string, string][]
  postTokens?: [number, string, string][]
  programs?: { index: number; data: number[] }[]
  err?: unknown
  loaded?: { writable: string[]; readonly: string[] }
}) {
  const tokens = (list: [number, string, string][] = []) =>
    list.map(([accountIndex, owner, amount]) => ({
      accountIndex,
      mint,
      owner,
      uiTokenAmount: { amount, decimals: 6 },
    }))
  return {
    slot: 42,
    blockTime: 1_700_000_000,
    meta: {
      err: options.err ?? null,
      fee: 5000,
      preBalances: options.pre,
      postBalances: options.post,
      preTokenBalances: tokens(options.preTokens),
      postTokenBalances: tokens(options.postTokens),
      loadedAddresses: options.loaded ?? { writable: [], readonly: [] },
    },
    transaction: {
      signatures: [signature],
      message: {
        accountKeys: options.keys,
        instructions: (options.programs ?? []).map(({ index, data }) => ({
          programIdIndex: index,
          accounts: [],
          data: base58.encode(Uint8Array.from(data)),
        })),
      },
    },
  }
}

const flows = (read: SolanaTransactions.Read) =>
  read.transaction.transfers.map(({ kind, asset, from, to, amount }) => [kind, asset, from, to, amount])

describe('SolanaTransactions.read', () => {
  it('reads balances past 2^53 exactly (as BigJson leaves them) and adds the fee back to the payer', () => {
    const read = SolanaTransactions.read(
      answer({
        keys: [payer, other, '11111111111111111111111111111111'],
        pre: ['499999999998528400', 0, 1],
        post: ['499999999898523400', 100_000_000, 1],
        programs: [{ index: 2, data: [2, 0, 0, 0] }],
      }),
    )
    expect(flows(read)).toEqual([
      ['native', '', payer, other, 100_000_000n],
      ['fee', '', payer, '', 5000n],
    ])
    expect(read.transaction).toMatchObject({ kind: 'send', from: payer, to: other, status: 'confirmed' })
    expect(read).toMatchObject({ slot: 42, timestamp: 1_700_000_000_000 })
  })

  it("reads a burn to '' and a closed token account's balance as gone, by owner", () => {
    const read = SolanaTransactions.read(
      answer({
        keys: [payer, tokenA, tokenB, mint, token],
        pre: [10_000, 2_039_280, 2_039_280, 1, 1],
        post: [2_044_280, 0, 2_039_280, 1, 1],
        preTokens: [
          [1, payer, '700'],
          [2, other, '0'],
        ],
        postTokens: [[2, other, '500']],
        programs: [{ index: 4, data: [12] }],
      }),
    )
    expect(flows(read)).toEqual([
      ['native', '', tokenA, payer, 2_039_280n],
      ['fungible', mint, payer, other, 500n],
      ['fungible', mint, payer, '', 200n],
      ['fee', '', payer, '', 5000n],
    ])
    expect(read.tokenAccounts).toContainEqual({ address: tokenA, owner: payer })
    expect(read.mints).toContainEqual({ mint, decimals: 6 })
  })

  it('keys accounts loaded from lookup tables after the static ones', () => {
    const read = SolanaTransactions.read(
      answer({
        keys: [payer],
        pre: [10_000, 0],
        post: [4_000, 1_000],
        loaded: { writable: [other], readonly: [] },
      }),
    )
    expect(flows(read)[0]).toEqual(['native', '', payer, other, 1_000n])
  })

  it('names approvals, other programs and failures', () => {
    const base = { keys: [payer, token], pre: [10_000, 1], post: [5_000, 1] }
    expect(
      SolanaTransactions.read(answer({ ...base, programs: [{ index: 1, data: [4] }] })).transaction.kind,
    ).toBe('approve')
    const executed = SolanaTransactions.read(
      answer({
        keys: [payer, program],
        pre: [10_000, 1],
        post: [5_000, 1],
        programs: [{ index: 1, data: [9] }],
      }),
    )
    expect(executed.transaction).toMatchObject({ kind: 'execute', to: program })
    const failed = SolanaTransactions.read(answer({ ...base, err: { InstructionError: [0, 'Custom'] } }))
    expect(failed.transaction.status).toBe('failed')
    expect(flows(failed)).toEqual([['fee', '', payer, '', 5000n]])
  })

  it('refuses an answer of another shape as an RPC fault (retried), not a crash', () => {
    expect(() => SolanaTransactions.read({ slot: 1 })).toThrow(JsonRpc.RpcUnavailable)
  })
})
