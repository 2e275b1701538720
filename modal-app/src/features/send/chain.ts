/**
 * The modal's {@link Chain}: JSON-RPC to the network's RPC URL when the page or the registry names one, else
 * to the Airlock API's relay for that chain (which keeps its RPC URLs to itself); Esplora through the API.
 */
import type { Network } from '../../shared/Network.ts'
import { type Chain, RpcError, SendFailure } from './Family.ts'
import { sendTexts } from './texts.ts'

/** A node that has not answered in 20 s is taken as down: the visitor is told, nothing is sent twice. */
const timeoutMs = 20_000

export type ChainOptions = {
  network: Network
  /** The API's URL for a path, with the project's query (`Api.Client.endpoint`). */
  endpoint(path: string): string
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

type Answer = { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }

export function create(options: ChainOptions): Chain {
  const { network, endpoint } = options
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  const rpcUrl = network.rpcUrl || endpoint(`/v1/rpc/${network.id}`)
  const unavailable = (cause: unknown) =>
    new SendFailure('unavailable', sendTexts.unavailable(network.name), { cause })

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetcher(url, { ...init, credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      throw unavailable(error)
    }
  }

  return {
    network,
    async rpc(method, params) {
      const response = await send(rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      let answer: Answer
      try {
        answer = (await response.json()) as Answer
      } catch (error) {
        throw unavailable(error)
      }
      if (answer && typeof answer === 'object' && answer.error) {
        const { code, message, data } = answer.error
        throw new RpcError(
          typeof code === 'number' ? code : 0,
          typeof message === 'string' ? message : 'JSON-RPC error',
          data,
        )
      }
      if (!response.ok || !answer || typeof answer !== 'object' || !('result' in answer))
        throw unavailable(new Error(`${method} answered HTTP ${response.status}`))
      return answer.result
    },
    async esplora(path, body) {
      const reference = network.id.slice(network.id.indexOf(':') + 1)
      const url = endpoint(`/v1/bip122/${reference}/esplora${path}`)
      const response = await send(
        url,
        body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body },
      )
      const text = await response.text()
      if (response.ok) return text
      if (response.status >= 500) throw unavailable(new Error(`${path} answered HTTP ${response.status}`))
      let message = text
      try {
        const parsed = JSON.parse(text) as { message?: unknown }
        if (typeof parsed.message === 'string') message = parsed.message
      } catch {}
      throw new RpcError(response.status, message)
    },
  }
}
