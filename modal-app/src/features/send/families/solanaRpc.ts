/**
 * The Solana JSON-RPC calls a send makes, each answer parsed once into a typed value. Everything goes through
 * `chain.rpc`, so it works on a network's own RPC URL and through the API's relay alike. Reads use
 * `confirmed`, the commitment wallets show balances at, and the simulation runs on the same state.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as base64 from '../../../shared/encoding/base64.ts'
import { type Chain, RpcError, SendFailure } from '../Family.ts'
import type { Account } from './solanaSpl.ts'
import { solanaTexts } from './solanaTexts.ts'

const commitment = 'confirmed'
/** The base fee the node charges per signature (a send sets no priority fee). */
const lamportsPerSignature = 5000n

export const texts = solanaTexts.rpc

const u64 = S.number(0)
const withContext = <T>(value: S.Shape<T>) => S.object({ value })
const account = S.nullable(
  S.object({ lamports: u64, owner: S.string(64, 32), data: S.array(S.string(20_000_000), 2) }),
)
const transactionError = S.unknown
const simulation = withContext(
  S.object({
    err: transactionError,
    logs: S.nullable(S.array(S.string(100_000), 10_000)),
    accounts: S.nullable(S.array(account, 100)),
  }),
)
const status = S.nullable(S.object({ err: transactionError, confirmationStatus: S.nullable(S.string(16)) }))

/** A read: node errors become the visitor's `chain` failure, an unreadable answer too. */
async function call<T>(chain: Chain, method: string, params: unknown[], shape: S.Shape<T>): Promise<T> {
  let answer: unknown
  try {
    answer = await chain.rpc(method, params)
  } catch (error) {
    if (error instanceof RpcError)
      throw new SendFailure('chain', texts.refused(error.message), { cause: error })
    throw error
  }
  const parsed = S.parse(shape, answer)
  if (!parsed.ok)
    throw new SendFailure('chain', texts.unexpected(method), { cause: new Error(parsed.message) })
  return parsed.value
}

function toAccount(value: S.Infer<typeof account>): Account | null {
  if (!value) return null
  const [data = ''] = value.data
  return { lamports: BigInt(value.lamports), owner: value.owner, data: base64.decode(data) }
}

/** The accounts at these addresses, `null` where none exists. */
export async function accounts(chain: Chain, addresses: readonly string[]): Promise<(Account | null)[]> {
  const config = { encoding: 'base64', commitment }
  const { value } = await call(
    chain,
    'getMultipleAccounts',
    [addresses, config],
    withContext(S.array(account)),
  )
  return value.map(toAccount)
}

export async function balance(chain: Chain, address: string): Promise<bigint> {
  const { value } = await call(chain, 'getBalance', [address, { commitment }], withContext(u64))
  return BigInt(value)
}

type Blockhash = { blockhash: string; lastValidBlockHeight: number }

export async function latestBlockhash(chain: Chain): Promise<Blockhash> {
  const shape = withContext(S.object({ blockhash: S.string(64, 32), lastValidBlockHeight: u64 }))
  return (await call(chain, 'getLatestBlockhash', [{ commitment }], shape)).value
}

/** The fee of a compiled message; the base fee per signature when the node no longer knows its blockhash. */
export async function feeFor(chain: Chain, message: Uint8Array, signatures: number): Promise<bigint> {
  const params = [base64.encode(message), { commitment }]
  const { value } = await call(chain, 'getFeeForMessage', params, withContext(S.nullable(u64)))
  return value === null ? BigInt(signatures) * lamportsPerSignature : BigInt(value)
}

export async function minimumBalance(chain: Chain, space: number): Promise<bigint> {
  return BigInt(await call(chain, 'getMinimumBalanceForRentExemption', [space, { commitment }], u64))
}

export type Simulation = { err: unknown; logs: string[]; accounts: (Account | null)[] }

/**
 * Runs the unsigned transaction on the node's current state and answers the watched accounts as they would
 * be after it. The node swaps in its latest blockhash, so the preview never fails for the blockhash's age.
 */
export async function simulate(
  chain: Chain,
  transaction: Uint8Array,
  watched: readonly string[],
): Promise<Simulation> {
  const config = {
    encoding: 'base64',
    commitment,
    sigVerify: false,
    replaceRecentBlockhash: true,
    accounts: { addresses: watched, encoding: 'base64' },
  }
  const { value } = await call(chain, 'simulateTransaction', [base64.encode(transaction), config], simulation)
  const accounts = value.accounts?.map(toAccount) ?? []
  const err = value.err ?? null
  // Without the accounts after it, a successful simulation shows nothing the visitor could check.
  if (err === null && accounts.length !== watched.length)
    throw new SendFailure('chain', texts.unexpected('simulateTransaction'))
  return { err, logs: value.logs ?? [], accounts }
}

/**
 * Broadcasts a signed transaction; the node's preflight refuses one that would fail. Node errors pass as
 * {@link RpcError}: what they mean depends on whether the transaction was already sent.
 */
export async function sendTransaction(chain: Chain, signed: Uint8Array): Promise<void> {
  await chain.rpc('sendTransaction', [
    base64.encode(signed),
    { encoding: 'base64', preflightCommitment: commitment },
  ])
}

export async function signatureStatus(chain: Chain, signature: string): Promise<S.Infer<typeof status>> {
  const { value } = await call(chain, 'getSignatureStatuses', [[signature]], withContext(S.array(status, 1)))
  return value[0] ?? null
}

export async function blockHeight(chain: Chain): Promise<number> {
  return call(chain, 'getBlockHeight', [{ commitment }], u64)
}
