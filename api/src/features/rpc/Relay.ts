/**
 * One chain's relay: the calls of a request whose method is allowed and whose params pass `Params.ts` go to
 * the node in one HTTP request, the others are answered -32601 or -32602 without it. The node's answer goes
 * back as the text it sent, so what a double would round (a Solana u64 such as `rentEpoch`, 2⁶⁴ − 1) stays
 * exact; it is parsed only to check that it is JSON-RPC. It is read up to {@link maxAnswerBytes}: past that,
 * the node is let go and the client answered 502.
 */
import { HttpError } from '../../http/errors.ts'
import { RpcError } from '../../internal/rpc.ts'
import * as Envelope from './Envelope.ts'
import { messages } from './messages.ts'
import * as Params from './Params.ts'

/**
 * The most of a node's answer the relay holds for one request: far above what Send reads (a few accounts, a
 * simulation), far below what a process serving hundreds of requests at once can hold for each.
 */
export const maxAnswerBytes = 4 * 1024 * 1024

export type RelayOptions = {
  /** CAIP-2 id, named by the 502 when the node fails. */
  chainId: string
  /** The node; never told to the client. */
  rpcUrl: string
  /** The methods passed to the node. */
  methods: ReadonlySet<string>
  /** A node that has not answered by then is abandoned. */
  timeoutMs: number
  /** A longer answer is abandoned and refused. @default maxAnswerBytes */
  maxAnswerBytes?: number | undefined
}

/** Answers a request: the JSON text of the answer, a batch's as an array. */
export type Relay = (request: Envelope.Request) => Promise<string>

/**
 * @example
 * const relay = Relay.create({ chainId: 'eip155:1', rpcUrl, methods: methodsOf('eip155:1'), timeoutMs: 10_000 })
 * await relay({ batch: false, calls: [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }] }) // '{"jsonrpc":"2.0","id":1,"result":"0x1"}'
 * @throws {RpcError} when the node does not answer, or not with JSON-RPC
 * @throws {HttpError} 502 when its answer is longer than `maxAnswerBytes`
 */
export function create(options: RelayOptions): Relay {
  return async ({ batch, calls }) => {
    const passed: Envelope.Call[] = []
    const refused: Envelope.Failure[] = []
    for (const call of calls) {
      const refusal = refusalOf(options.methods, call)
      if (refusal) refused.push(refusal)
      else passed.push(call)
    }
    if (passed.length === 0) return JSON.stringify(batch ? refused : refused[0])
    const answer = await post(options, batch ? passed : passed[0], batch)
    if (refused.length === 0) return answer
    // Only a batch mixes the two. JSON-RPC matches a batch's answers to its calls by id, in any order, so the
    // refusals follow the node's answers and its text stays as it was.
    const answered = answer.trim().slice(1, -1).trim()
    return `[${[...(answered ? [answered] : []), ...refused.map((entry) => JSON.stringify(entry))].join(',')}]`
  }
}

/** The answer to a call the node is not asked, or undefined when it is. */
function refusalOf(methods: ReadonlySet<string>, call: Envelope.Call): Envelope.Failure | undefined {
  if (!methods.has(call.method))
    return Envelope.failure(call.id, Envelope.codes.methodNotFound, messages.notRelayed(call.method))
  const reason = Params.check(call)
  if (reason === undefined) return undefined
  return Envelope.failure(call.id, Envelope.codes.invalidParams, messages.invalidParams(reason))
}

async function post(options: RelayOptions, body: unknown, batch: boolean): Promise<string> {
  const abandon = new AbortController()
  let text: string | undefined
  try {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any([abandon.signal, AbortSignal.timeout(options.timeoutMs)]),
    })
    if (!response.ok) {
      await response.body?.cancel()
      throw new Error(`${options.chainId}'s RPC answered HTTP ${response.status}`)
    }
    text = await read(response, options.maxAnswerBytes ?? maxAnswerBytes)
  } catch (cause) {
    throw new RpcError(options.chainId, { cause })
  } finally {
    // Ends the node's request whatever became of it: a refused answer is not read to its end.
    abandon.abort()
  }
  if (text === undefined) throw new HttpError(502, messages.answerTooLarge)
  if (!isAnswer(text, batch)) throw new RpcError(options.chainId, { cause: new Error(text.slice(0, 200)) })
  return text
}

/** The body as text; undefined, having stopped reading, once it is past `max` bytes. */
async function read(response: Response, max: number): Promise<string | undefined> {
  if (Number(response.headers.get('content-length')) > max) return undefined
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return Buffer.concat(chunks, size).toString('utf8')
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
}

/** JSON, and an array of answers for a batch, one answer otherwise. */
function isAnswer(text: string, batch: boolean): boolean {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return false
  }
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
  return batch ? Array.isArray(parsed) && parsed.every(isObject) : isObject(parsed)
}
