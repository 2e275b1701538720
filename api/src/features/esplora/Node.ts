/**
 * A JSON-RPC client for a Bitcoin Core-style node (Bitcoin Core, Litecoin Core): JSON-RPC 1.0 over HTTP
 * with Basic auth taken from the URL (`http://user:password@host:port`), batches, a time-out per call.
 * A node that cannot be reached is an {@link RpcError} (the API answers 502); a node that answers with an
 * error is a {@link NodeError} carrying the node's code and message.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { RpcError } from '../../internal/rpc.ts'

/** The node answered, with an error: `code` is the node's (-5 not found, -26 rejected, -25 verify error …). */
export class NodeError extends Error {
  override name = 'NodeError'
  constructor(
    readonly method: string,
    readonly code: number,
    /** The node's own words, e.g. `min relay fee not met, 100 < 141`. */
    readonly reason: string,
  ) {
    super(`${method} failed: ${reason} (code ${code})`)
  }
}

/** One call of a batch. */
type Call = readonly [method: string, params: readonly unknown[]]

export type Node = {
  /** @throws {NodeError} when the node refuses, {@link RpcError} when it cannot be reached */
  call<T>(method: string, params?: readonly unknown[]): Promise<T>
  /** Several calls in one round trip; each result is the value or the {@link NodeError} of that call. */
  batch(calls: readonly Call[]): Promise<(unknown | NodeError)[]>
  /** Closes idle connections (a node shutting down waits for them). */
  close(): void
}

export type NodeOptions = {
  /** `http://user:password@127.0.0.1:19443` */
  rpcUrl: string
  /** CAIP-2 id of the chain, named in the 502 when the node cannot be reached. */
  chainId: string
  /** @default 10_000 */
  timeoutMs?: number
}

type Reply = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } | null }

/**
 * @example
 * const node = Node.create({ rpcUrl: 'http://airlock:secret@127.0.0.1:19443', chainId })
 * const height = await node.call<number>('getblockcount')
 */
export function create(options: NodeOptions): Node {
  const url = new URL(options.rpcUrl)
  const secure = url.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const auth = url.username
    ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    : undefined
  const endpoint = `${url.protocol}//${url.host}${url.pathname}`
  const timeoutMs = options.timeoutMs ?? 10_000
  let nextId = 0

  const post = async (body: unknown, what: string): Promise<unknown> => {
    let answer: { status: number; text: string }
    try {
      answer = await send(secure, endpoint, { agent, auth, timeoutMs }, JSON.stringify(body))
    } catch (error) {
      throw new RpcError(options.chainId, { cause: error })
    }
    if (answer.status === 401 || answer.status === 403) {
      throw new RpcError(options.chainId, { cause: new Error(`${endpoint} refused the RPC credentials`) })
    }
    try {
      return JSON.parse(answer.text)
    } catch {
      const cause = new Error(`${what}: ${endpoint} answered ${answer.status}: ${answer.text.slice(0, 200)}`)
      throw new RpcError(options.chainId, { cause })
    }
  }

  return {
    async call<T>(method: string, params: readonly unknown[] = []): Promise<T> {
      const reply = await post({ jsonrpc: '1.0', id: ++nextId, method, params }, method)
      const result = resultOf(method, reply)
      if (result instanceof NodeError) throw result
      return result as T
    },
    async batch(calls) {
      if (calls.length === 0) return []
      const first = nextId + 1
      nextId += calls.length
      const body = calls.map(([method, params], i) => ({ jsonrpc: '1.0', id: first + i, method, params }))
      const replies = await post(body, `batch of ${calls.length}`)
      if (!Array.isArray(replies))
        throw new RpcError(options.chainId, { cause: new Error('batch answer is not a list') })
      const byId = new Map(replies.map((reply: Reply) => [reply?.id, reply]))
      return calls.map(([method], i) => resultOf(method, byId.get(first + i)))
    },
    close() {
      agent.destroy()
    },
  }
}

function resultOf(method: string, reply: unknown): unknown {
  if (typeof reply !== 'object' || reply === null) return new NodeError(method, 0, 'no answer')
  const { result, error } = reply as Reply
  if (error) return new NodeError(method, Number(error.code), String(error.message))
  return result
}

type SendOptions = { agent: HttpAgent; auth: string | undefined; timeoutMs: number }

// node:http rather than fetch: fetch refuses URLs with credentials and gives no handle on idle
// connections, which a node that is shutting down waits for.
function send(secure: boolean, endpoint: string, options: SendOptions, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(endpoint, {
      method: 'POST',
      agent: options.agent,
      auth: options.auth,
      headers: { 'content-type': 'application/json' },
    })
    const timer = setTimeout(
      () => request.destroy(new Error(`${endpoint} did not answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    request.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    request.once('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
      })
      response.once('end', () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, text })
      })
    })
    request.end(body)
  })
}
