/**
 * The modal's {@link Chain}: JSON-RPC through the Airlock API's relay for the chain, and only for a chain the
 * API does not serve (the relay answers 404) to the network's own RPC URL; Esplora through the API. The relay
 * comes first because a network's URL may come from the host page (`rpcUrls`, `customNetworks`), which the
 * modal does not trust to tell it what a transaction will do: a node of the page's choosing could show a
 * simulation that is not what gets signed.
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
  const relay = endpoint(`/v1/rpc/${network.id}`)
  let rpcUrl = relay
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
      const init = {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }
      let response = await send(rpcUrl, init)
      if (response.status === 404 && rpcUrl === relay && network.rpcUrl) {
        rpcUrl = network.rpcUrl
        response = await send(rpcUrl, init)
      }
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
