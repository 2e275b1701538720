/** The account reads: balances, accounts in every encoding, and SPL token accounts by owner. */
import type { Address } from '@solana/kit'
import * as Encoding from '../Encoding.ts'
import * as Params from '../Params.ts'
import { invalidParams } from '../Rpc.ts'
import * as Tokens from '../Tokens.ts'
import { type Chain, type Handlers, slotFor, withContext } from './Context.ts'

const maxMultipleAccounts = 100

export const accountMethods: Handlers = {
  getBalance(chain, params) {
    const address = Params.address(params, 0)
    const slot = slotFor(chain, Params.config(params, 1))
    return withContext(slot, chain.bank.lamports(address))
  },

  getAccountInfo(chain, params) {
    const address = Params.address(params, 0)
    const config = Params.config(params, 1)
    const view = Encoding.viewOf(config, 'binary')
    const slot = slotFor(chain, config)
    return withContext(slot, Encoding.render(chain.bank.read, chain.bank.read(address), view))
  },

  getMultipleAccounts(chain, params) {
    const addresses = Params.array(params, 0, 'addresses', maxMultipleAccounts).map((_, index, all) =>
      Params.address(all, index),
    )
    const config = Params.config(params, 1)
    const view = Encoding.viewOf(config, 'base64')
    const slot = slotFor(chain, config)
    const { read } = chain.bank
    return withContext(
      slot,
      addresses.map((address) => Encoding.render(read, read(address), view)),
    )
  },

  getTokenAccountsByOwner(chain, params) {
    const owner = Params.address(params, 0, 'owner')
    const programs = tokenPrograms(chain, Params.config(params, 1))
    const config = Params.config(params, 2)
    const view = Encoding.viewOf(config, 'binary')
    const slot = slotFor(chain, config)
    const { read } = chain.bank
    const accounts = programs.program.flatMap((program) => chain.bank.svm.getProgramAccounts(program))
    const value = accounts
      .filter((account) => {
        const token = Tokens.asToken(account)
        return token?.owner === owner && (programs.mint === undefined || token.mint === programs.mint)
      })
      .map((account) => ({ pubkey: account.address, account: Encoding.render(read, account, view) }))
    return withContext(slot, value)
  },

  getTokenAccountBalance(chain, params) {
    const address = Params.address(params, 0, 'token account')
    const slot = slotFor(chain, Params.config(params, 1))
    const account = chain.bank.read(address)
    const held = account && Tokens.holding(chain.bank.read, account)
    if (!held) throw invalidParams('Invalid param: not a Token account')
    return withContext(slot, Tokens.uiAmount(held.token.amount, held.decimals))
  },

  getMinimumBalanceForRentExemption(chain, params) {
    const size = Params.u64(params[0] ?? 0, 'data length')
    return chain.bank.svm.minimumBalanceForRentExemption(size)
  },
}

/** The `{ mint }` or `{ programId }` filter: the token programs to scan, and the mint to keep. */
function tokenPrograms(chain: Chain, filter: Params.Config): { program: Address[]; mint?: Address } {
  if (typeof filter.mint === 'string') {
    const mint = Params.address([filter.mint], 0, 'mint')
    const account = chain.bank.read(mint)
    if (!account || !Tokens.asMint(account)) throw invalidParams('Invalid param: could not find mint')
    return { program: [account.programAddress], mint }
  }
  if (typeof filter.programId === 'string') {
    const program = Params.address([filter.programId], 0, 'programId')
    if (!Tokens.isTokenProgram(program)) throw invalidParams('Invalid param: unrecognized Token program id')
    return { program: [program] }
  }
  throw invalidParams('Invalid params: the second parameter must be { mint } or { programId }')
}
