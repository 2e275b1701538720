/**
 * SOL and SPL balances of an address on one configured Solana chain, read from its JSON-RPC: `getBalance`,
 * and `getTokenAccountsByOwner` for the Token and Token-2022 programs (jsonParsed, so no layout decoding
 * here). Only the configured mints are reported, as on EVM: an airdropped mint nobody listed is spam until
 * an operator lists it.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import type { Chain } from '../../Config.ts'
import { RpcError } from '../../internal/rpc.ts'
import type { Amount } from './Balances.ts'

const tokenPrograms = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
] as const

/** What the route needs of `getTokenAccountsByOwner` with `jsonParsed`; everything else is left unread. */
const tokenAccounts = S.object({
  value: S.array(
    S.object({
      account: S.object({
        data: S.object({
          parsed: S.object({
            info: S.object({
              mint: S.string(44, 32),
              tokenAmount: S.object({ amount: S.string(40, 1, /^\d+$/), decimals: S.number(0, 255) }),
            }),
          }),
        }),
      }),
    }),
    10_000,
  ),
})
const balance = S.object({ value: S.number(0, Number.MAX_SAFE_INTEGER) })

const attempts = 3
const baseDelayMs = 150
const timeoutMs = 10_000

/**
 * @throws {RpcError} when the chain's RPC does not answer, or answers what Solana's RPC never would
 * @example await Solana.amounts(chain, '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')
 */
export async function amounts(chain: Chain, address: string): Promise<Amount[]> {
  const tokens = (chain.tokens ?? []).filter((token) => token.decimals !== 0)
  try {
    const [lamports, ...perProgram] = await Promise.all([
      call(chain.rpcUrl, 'getBalance', [address, { commitment: 'confirmed' }], balance),
      ...(tokens.length === 0
        ? []
        : tokenPrograms.map((programId) =>
            call(
              chain.rpcUrl,
              'getTokenAccountsByOwner',
              [address, { programId }, { encoding: 'jsonParsed', commitment: 'confirmed' }],
              tokenAccounts,
            ),
          )),
    ])
    const found: Amount[] = [{ amount: BigInt(lamports.value), ...chain.nativeCurrency }]
    const accounts = perProgram.flatMap((answer) =>
      answer.value.map((entry) => entry.account.data.parsed.info),
    )
    for (const token of tokens) {
      // An owner may hold one mint in several accounts (its associated one and others): they add up.
      const held = accounts.filter((info) => info.mint === token.address)
      const amount = held.reduce((sum, info) => sum + BigInt(info.tokenAmount.amount), 0n)
      if (amount === 0n) continue
      found.push({
        amount,
        decimals: held[0]?.tokenAmount.decimals ?? token.decimals,
        name: token.name,
        symbol: token.symbol,
        iconUrl: token.iconUrl,
        token: token.address,
      })
    }
    return found
  } catch (error) {
    throw new RpcError(chain.id, { cause: error })
  }
}

/** HTTP statuses worth another attempt (the product's retry codes, docs/behaviour.md §8; the rest are the caller's mistake). */
const retryStatuses = new Set([403, 408, 413, 429, 500, 502, 503, 504])
/** JSON-RPC errors worth another attempt: unknown (-1) and internal (-32603). */
const retryCodes = new Set([-1, -32603])
const maxRetryAfterMs = 10_000

class Attempt extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly waitMs?: number,
  ) {
    super(message)
  }
}

/**
 * One JSON-RPC call, tried up to 3 times with 150 ms exponential backoff (a `Retry-After` up to 10 s wins)
 * when the failure may pass: a time-out, a refused connection, or a retry code.
 */
export async function call<T>(url: string, method: string, params: unknown[], shape: S.Shape<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(url, method, params, shape)
    } catch (error) {
      const retry = !(error instanceof Attempt) || error.retry
      if (!retry || attempt >= attempts) throw error
      const backoff = baseDelayMs * 2 ** (attempt - 1)
      const wait = error instanceof Attempt && error.waitMs !== undefined ? error.waitMs : backoff
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}

async function once<T>(url: string, method: string, params: unknown[], shape: S.Shape<T>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok) {
    const header = response.headers.get('retry-after')
    const seconds = header === null ? Number.NaN : Number(header)
    const waitMs =
      Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, maxRetryAfterMs) : undefined
    throw new Attempt(`${method}: HTTP ${response.status}`, retryStatuses.has(response.status), waitMs)
  }
  const body = (await response.json()) as { result?: unknown; error?: { code?: number; message?: string } }
  if (body.error)
    throw new Attempt(`${method}: ${body.error.message ?? 'error'}`, retryCodes.has(body.error.code ?? 0))
  const parsed = S.parse(shape, body.result)
  if (!parsed.ok) throw new Attempt(`${method}: ${parsed.message}`, false)
  return parsed.value
}
