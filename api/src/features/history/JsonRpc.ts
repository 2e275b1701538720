/**
 * A small JSON-RPC 2.0 client over HTTP with batches: catching up means thousands of block and receipt
 * reads, and one HTTP round trip for many of them is what makes it fast. Raw results, no formatting: the
 * family's source parses what it needs.
 */

/** The RPC could not be reached, or answered something that is not JSON-RPC: worth retrying later. */
export class RpcUnavailable extends Error {
  override name = 'RpcUnavailable'
}

/** The RPC answered a call with a JSON-RPC error (a revert, an unknown method): retrying will not help. */
export class RpcFailure extends Error {
  override name = 'RpcFailure'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export type Call = readonly [method: string, params: readonly unknown[]]

export type Client = {
  /** One call; throws {@link RpcFailure} on a JSON-RPC error. */
  call(method: string, params: readonly unknown[]): Promise<unknown>
  /** Several calls in one request; each answer is its result or its {@link RpcFailure}, in order. */
  batch(calls: readonly Call[]): Promise<unknown[]>
}

export type ClientOptions = {
  /** @default 10_000 */
  timeoutMs?: number | undefined
  /** Reads the answer's text. @default JSON.parse */
  parse?: ((text: string) => unknown) | undefined
}

type Answer = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }

/**
 * @example
 * const rpc = JsonRpc.create('http://127.0.0.1:8545')
 * const [head, block] = await rpc.batch([['eth_blockNumber', []], ['eth_getBlockByNumber', ['0x1', false]]])
 */
export function create(url: string, options: ClientOptions = {}): Client {
  const timeoutMs = options.timeoutMs ?? 10_000
  const post = async (body: unknown): Promise<unknown> => {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new RpcUnavailable(`${url} did not answer`, { cause: error })
    }
    if (!response.ok) throw new RpcUnavailable(`${url} answered HTTP ${response.status}`)
    try {
      return (options.parse ?? JSON.parse)(await response.text())
    } catch (error) {
      throw new RpcUnavailable(`${url} answered something that is not JSON`, { cause: error })
    }
  }
  const batch = async (calls: readonly Call[]): Promise<unknown[]> => {
    if (calls.length === 0) return []
    const answers = await post(
      calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params: [...params] })),
    )
    if (!Array.isArray(answers)) throw new RpcUnavailable(`${url} did not answer the batch as a batch`)
    const byId = new Map<unknown, Answer>()
    for (const answer of answers as Answer[])
      if (answer && typeof answer === 'object') byId.set(answer.id, answer)
    return calls.map((_, id) => {
      const answer = byId.get(id)
      if (!answer) throw new RpcUnavailable(`${url} left call ${id} of a batch unanswered`)
      return answer.error ? failure(answer.error) : answer.result
    })
  }
  return {
    batch,
    async call(method, params) {
      const [result] = await batch([[method, params]])
      if (result instanceof RpcFailure) throw result
      return result
    },
  }
}

function failure(error: NonNullable<Answer['error']>): RpcFailure {
  return new RpcFailure(
    typeof error.code === 'number' ? error.code : 0,
    typeof error.message === 'string' ? error.message : 'JSON-RPC error',
  )
}
