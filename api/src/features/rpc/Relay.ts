/**
 * One chain's relay: the calls of a request whose method is allowed go to the node in one HTTP request,
 * the others are answered -32601 without it. The node's answer goes back as the text it sent, so what a
 * double would round (a Solana u64 such as `rentEpoch`, 2⁶⁴ − 1) stays exact; it is parsed only to check
 * that it is JSON-RPC.
 */
import { RpcError } from '../../internal/rpc.ts'
import * as Envelope from './Envelope.ts'
import { messages } from './messages.ts'

export type RelayOptions = {
  /** CAIP-2 id, named by the 502 when the node fails. */
  chainId: string
  /** The node; never told to the client. */
  rpcUrl: string
  /** The methods passed to the node. */
  methods: ReadonlySet<string>
  /** A node that has not answered by then is abandoned. */
  timeoutMs: number
}

/** Answers a request: the JSON text of the answer, a batch's as an array. */
export type Relay = (request: Envelope.Request) => Promise<string>

/**
 * @example
 * const relay = Relay.create({ chainId: 'eip155:1', rpcUrl, methods: methodsOf('eip155:1'), timeoutMs: 10_000 })
 * await relay({ batch: false, calls: [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }] }) // '{"jsonrpc":"2.0","id":1,"result":"0x1"}'
 * @throws {RpcError} when the node does not answer, or not with JSON-RPC
 */
export function create(options: RelayOptions): Relay {
  return async ({ batch, calls }) => {
    const passed = calls.filter((call) => options.methods.has(call.method))
    const refused = calls
      .filter((call) => !options.methods.has(call.method))
      .map((call) =>
        Envelope.failure(call.id, Envelope.codes.methodNotFound, messages.notRelayed(call.method)),
      )
    if (passed.length === 0) return JSON.stringify(batch ? refused : refused[0])
    const answer = await post(options, batch ? passed : passed[0], batch)
    if (refused.length === 0) return answer
    // Only a batch mixes the two. JSON-RPC matches a batch's answers to its calls by id, in any order, so the
    // refusals follow the node's answers and its text stays as it was.
    const answered = answer.trim().slice(1, -1).trim()
    return `[${[...(answered ? [answered] : []), ...refused.map((entry) => JSON.stringify(entry))].join(',')}]`
  }
}

async function post(options: RelayOptions, body: unknown, batch: boolean): Promise<string> {
  let text: string
  try {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    if (!response.ok) {
      await response.body?.cancel()
      throw new Error(`${options.chainId}'s RPC answered HTTP ${response.status}`)
    }
    text = await response.text()
  } catch (cause) {
    throw new RpcError(options.chainId, { cause })
  }
  if (!isAnswer(text, batch)) throw new RpcError(options.chainId, { cause: new Error(text.slice(0, 200)) })
  return text
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
