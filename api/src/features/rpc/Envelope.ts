/**
 * JSON-RPC 2.0 requests as the relay takes them, read once here: one call, or a batch of 1 to
 * {@link maxBatch}; each with `jsonrpc: '2.0'`, an `id` (a string, a number or `null`: a notification, which
 * gets no answer, is refused, so every call can be told what became of it), a `method` of at most 64
 * characters and `params` as an array or an object, if any. Keys other than those are dropped. Anything
 * else is refused as a whole, with the JSON-RPC error a node would answer.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** Calls in one batch at most; each counts as a request to the rate limits. */
export const maxBatch = 20

export type Id = string | number | null

const call = S.object({
  jsonrpc: S.literal('2.0'),
  id: S.nullable(S.union(S.string(128), S.number())),
  method: S.string(64, 1),
  params: S.optional(S.union(S.array(S.unknown, 1000), S.record(S.unknown, 1000))),
})

const calls = S.check(
  S.array(call, maxBatch),
  (list) => list.length > 0,
  `expected a batch of 1..${maxBatch} calls`,
)

export type Call = S.Infer<typeof call>

/** What the client sent: `batch` says whether to answer with an array, even of one. */
export type Request = { batch: boolean; calls: Call[] }

/** An error answer; `data` names what was wrong with a refused request. */
export type Failure = { jsonrpc: '2.0'; id: Id; error: { code: number; message: string; data?: string } }

/** The standard codes the relay answers with itself. */
export const codes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
} as const

export function failure(id: Id, code: number, message: string, data?: string): Failure {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }
}

/**
 * @example
 * const parsed = Envelope.parse('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
 * if (parsed.ok) parsed.value.calls[0].method // 'eth_chainId'
 */
export function parse(text: string): { ok: true; value: Request } | { ok: false; answer: Failure } {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { ok: false, answer: failure(null, codes.parseError, 'Parse error') }
  }
  const batch = Array.isArray(body)
  const parsed = batch ? S.parse(calls, body) : S.parse(call, body)
  if (!parsed.ok)
    return { ok: false, answer: failure(null, codes.invalidRequest, 'Invalid Request', parsed.message) }
  return { ok: true, value: { batch, calls: Array.isArray(parsed.value) ? parsed.value : [parsed.value] } }
}
