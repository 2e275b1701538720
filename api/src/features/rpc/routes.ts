/**
 * `POST /v1/rpc/{chainId}`: JSON-RPC 2.0 relayed to an `eip155` or `solana` chain's configured RPC, for the
 * modal's Send feature, which runs in a browser and is never told the API's RPC URLs. The body is one call
 * or a batch of at most 20, each call counted as a request by the rate limits; the answer is the node's, as
 * it sent it, with HTTP 200.
 *
 * Only the methods of `methods.ts` reach the node (reads, simulations, already-signed broadcasts); any other
 * call is answered `{ jsonrpc, id, error: { code: -32601, message: 'The Airlock API does not relay {method}' } }`
 * without asking it, and one whose params `Params.ts` refuses (overrides, a simulation of more than one block
 * or 8 calls, more than 100 Solana accounts) `{ code: -32602, message: 'Invalid params: {reason}' }`; in a
 * batch the other calls still go through.
 *
 * Errors: 400 with a JSON-RPC error for a body that is not JSON (-32700 `Parse error`) or not a JSON-RPC
 * request (-32600 `Invalid Request`, `data` saying what is wrong); otherwise `{ message }`: 403 without a
 * configured project, 404 for a chain the API relays nothing for (unconfigured, `bip122`, another family),
 * 429 when the batch's calls are more than the budgets hold, 502 `The RPC of {chainId} is unavailable` or
 * `The node's answer is too large` (over 4 MiB), 503 when the node has not answered within the request
 * time-out.
 */
import { Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError, messages as httpMessages } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import { type Env, known } from '../../http/project.ts'
import { jsonText } from '../../http/validate.ts'
import * as Envelope from './Envelope.ts'
import { messages } from './messages.ts'
import { methodsOf } from './methods.ts'
import * as Relay from './Relay.ts'

export type RpcOptions = { config: Config }

export function create(options: RpcOptions): Hono<Env> {
  const { chains } = options.config
  // The same bound as the request's: a node still silent when the request is answered 503 is let go then.
  const timeoutMs = Limits.resolve(options.config.limits).requestTimeoutMs
  const relays = new Map<string, Relay.Relay>()
  for (const chain of chains) {
    const methods = methodsOf(chain.id)
    if (methods)
      relays.set(chain.id, Relay.create({ chainId: chain.id, rpcUrl: chain.rpcUrl, methods, timeoutMs }))
  }
  const app = new Hono<Env>()

  app.post('/v1/rpc/:chainId', async (c) => {
    known(c, Contract.commonQuery)
    const chainId = c.req.param('chainId')
    const relay = relays.get(chainId)
    if (!relay) {
      const esplora = chainId.startsWith('bip122:') && chains.some((chain) => chain.id === chainId)
      throw new HttpError(
        404,
        esplora ? messages.esploraOnly(chainId) : httpMessages.unsupportedChain(chainId),
      )
    }
    const request = Envelope.parse(await jsonText(c))
    if (!request.ok) return c.json(request.answer, 400)
    Limits.weigh(c, request.value.calls.length)
    return c.body(await relay(request.value), 200, { 'Content-Type': 'application/json' })
  })

  return app
}
