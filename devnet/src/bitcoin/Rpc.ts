/**
 * JSON-RPC 1.0 over HTTP with Basic auth, as Bitcoin Core and its forks speak it.
 */
import { request as httpRequest } from 'node:http'

/** The node answered, and its answer was an error (`code` is the node's, e.g. -26 for a rejected tx). */
export class NodeError extends Error {
  override name = 'NodeError'
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (code ${code})`)
  }
}

export type Client = {
  /** Calls `method`; resolves its `result` or rejects with {@link NodeError}, or an Error if unreachable. */
  call<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>
}

export type ClientOptions = {
  /** `http://127.0.0.1:19443` */
  url: string
  user: string
  password: string
  /** @default 120_000 (mining or a wallet send on a machine busy with other work has taken over 30 s) */
  timeoutMs?: number
}

type Reply = { result?: unknown; error?: { code?: unknown; message?: unknown } | null }

/**
 * @example
 * const rpc = Rpc.client({ url: 'http://127.0.0.1:19443', user, password })
 * await rpc.call<number>('getblockcount')
 */
export function client(options: ClientOptions): Client {
  let id = 0
  return {
    async call<T>(method: string, params: readonly unknown[] = []): Promise<T> {
      const body = JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params })
      const { status, text } = await post(options, body)
      if (status === 401) throw new Error(`${options.url} refused the RPC credentials`)
      const reply = parseReply(text)
      if (!reply) throw new Error(`${method}: ${options.url} answered ${status}: ${text.slice(0, 200)}`)
      if (reply.error) {
        const { code, message } = reply.error
        throw new NodeError(method, Number(code), String(message))
      }
      return reply.result as T
    },
  }
}

// node:http rather than fetch: without an agent each call closes its connection, whereas fetch keeps
// idle ones open for 4 s, and litecoind's shutdown waits for every open connection to close.
function post(options: ClientOptions, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(options.url, {
      method: 'POST',
      agent: false,
      auth: `${options.user}:${options.password}`,
      headers: { 'content-type': 'application/json' },
      timeout: options.timeoutMs ?? 120_000,
    })
    request.once('timeout', () => request.destroy(new Error(`${options.url} did not answer in time`)))
    request.once('error', reject)
    request.once('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
      })
      response.once('error', reject)
      response.once('end', () => resolve({ status: response.statusCode ?? 0, text }))
    })
    request.end(body)
  })
}
function parseReply(text: string): Reply | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Reply) : undefined
  } catch {
    return undefined
  }
}
