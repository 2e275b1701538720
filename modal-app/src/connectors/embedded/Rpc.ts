/**
 * The embedded wallet's reads: JSON-RPC through the Airlock API's relay, the node the project chose, not one
 * the host page names. Apart from the signing code so the wallet's first load carries no key material code.
 */
import { type Caip, Errors } from '@airlock/bridge-protocol'

/** A JSON-RPC call on a chain, by its CAIP-2 id. */
export type Rpc = (chainId: Caip.ChainId, method: string, params: unknown) => Promise<unknown>

/** A node that has not answered in 20 s is taken as down, as Send does. */
const rpcTimeoutMs = 20_000

/**
 * JSON-RPC through the API's relay (`/v1/rpc/{chainId}`); a node's error comes back with its own code and
 * message, so a dApp sees what the chain said.
 * @example const rpc = Rpc.relay(api.endpoint); await rpc('eip155:31337', 'eth_blockNumber', [])
 */
export function relay(
  endpoint: (path: string) => string,
  fetcher: typeof fetch = globalThis.fetch.bind(globalThis),
): Rpc {
  return async (chainId, method, params) => {
    let response: Response
    let answer: { result?: unknown; error?: unknown } | null | undefined
    try {
      response = await fetcher(endpoint(`/v1/rpc/${chainId}`), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'omit',
        signal: AbortSignal.timeout(rpcTimeoutMs),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      answer = (await response.json()) as typeof answer
    } catch (cause) {
      throw new Errors.InternalError(`The ${chainId} node could not be reached.`, { cause })
    }
    if (answer?.error) {
      const wire = answer.error as { code?: unknown; message?: unknown; data?: unknown }
      const code = typeof wire.code === 'number' ? wire.code : -32603
      const message = typeof wire.message === 'string' ? wire.message : Errors.messages[-32603]
      throw new Errors.BaseError(code, message, { data: wire.data })
    }
    // The API's own refusals (404 for a chain it does not relay, 429, 502, 503) are `{ message }`, not
    // JSON-RPC: without a result there is no answer, and a send must not pass for one.
    if (!response.ok || typeof answer !== 'object' || answer === null || !('result' in answer))
      throw new Errors.InternalError(Errors.messageOf(answer, `The ${chainId} node could not be reached.`))
    return answer.result
  }
}
