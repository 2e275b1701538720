/**
 * The JSON-RPC 2.0 envelope as a Solana node speaks it: single calls and batches, the standard error codes,
 * and the node's own server errors (-32002 preflight failure, -32003 signature verification, …). A body
 * becomes typed calls here, once; a method only ever sees its `params` array.
 */
import * as Json from './Json.ts'

type Id = string | number | null

export type ErrorObject = { code: number; message: string; data?: unknown }

/** A failure a method reports to its caller; anything else thrown is answered as -32603. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }

  toObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

export const invalidRequest = (message = 'Invalid request') => new RpcError(-32600, message)
const methodNotFound = () => new RpcError(-32601, 'Method not found')
export const invalidParams = (message: string) => new RpcError(-32602, message)
const internalError = (message = 'Internal error') => new RpcError(-32603, message)

/** What a method is handed: its positional params, already known to be an array. */
export type Handler = (params: readonly unknown[]) => unknown

export type Methods = ReadonlyMap<string, Handler>

type Response = { jsonrpc: '2.0'; id: Id; result?: unknown; error?: ErrorObject }

/**
 * Answers one HTTP body or WebSocket frame: the JSON text to send back, or undefined when every call was a
 * notification (JSON-RPC forbids answering those, even with an error).
 */
export async function answer(
  text: string,
  methods: Methods,
  onError?: (error: unknown) => void,
): Promise<string | undefined> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Json.stringify(failure(null, new RpcError(-32700, 'Parse error')))
  }
  if (!Array.isArray(body)) return toText(await call(body, methods, onError))
  if (body.length === 0) return Json.stringify(failure(null, invalidRequest()))
  const replies: Response[] = []
  // In order, one after another: a batch's transfers land in the order the client listed them.
  for (const item of body) {
    const reply = await call(item, methods, onError)
    if (reply) replies.push(reply)
  }
  return replies.length === 0 ? undefined : Json.stringify(replies)
}

function toText(reply: Response | undefined): string | undefined {
  return reply && Json.stringify(reply)
}

async function call(
  request: unknown,
  methods: Methods,
  onError?: (error: unknown) => void,
): Promise<Response | undefined> {
  if (!isRecord(request) || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return failure(isRecord(request) ? (idOf(request.id) ?? null) : null, invalidRequest())
  }
  const id = idOf(request.id)
  if ('id' in request && id === undefined) return failure(null, invalidRequest())
  const reply = await run(request.method, request.params, methods, onError)
  if (id === undefined) return undefined
  return 'error' in reply ? failure(id, reply.error) : { jsonrpc: '2.0', result: reply.result, id }
}

async function run(
  method: string,
  params: unknown,
  methods: Methods,
  onError?: (error: unknown) => void,
): Promise<{ result: unknown } | { error: RpcError }> {
  const handler = methods.get(method)
  if (!handler) return { error: methodNotFound() }
  if (params !== undefined && params !== null && !Array.isArray(params)) {
    return { error: invalidParams(`Invalid params: ${method} takes its params as an array`) }
  }
  try {
    return { result: await handler(params ?? []) }
  } catch (error) {
    if (error instanceof RpcError) return { error }
    // One bad request must not take the node down for every other client.
    onError?.(error)
    return { error: internalError() }
  }
}

function failure(id: Id, error: RpcError): Response {
  return { jsonrpc: '2.0', error: error.toObject(), id }
}

function idOf(value: unknown): Id | undefined {
  if (value === null || typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
