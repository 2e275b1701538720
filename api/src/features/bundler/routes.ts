/**
 * `POST /v1/bundler/{chainId}?projectId=`: JSON-RPC 2.0 relayed to the chain's ERC-4337 bundler (its
 * `accountAbstraction.bundlerUrl`, never told to the client), one call or a batch, each call counted by the
 * rate limits; a batch goes to the bundler call by call (Alto takes no batches, and numeric ids only). Only
 * ERC-4337's methods reach it ({@link methods}); the bundler's answers, its errors included (an AA21 or a
 * simulation's revert reason, with its code and data), go back as it sent them.
 *
 * Refusals are JSON-RPC errors with HTTP 200, so any bundler client shows their message: -32003 `Project id
 * not configured`, -32602 `Unsupported chain: {chainId}` for a chain without a bundler, -32601 `The Airlock
 * API does not relay {method}` (in a batch the other calls still go through), and -32603 `The bundler of
 * {chainId} is unavailable` when it cannot be reached (nothing was sent) or has not answered in time (an
 * operation it was sent may still land: the client knows its hash for `eth_getUserOperationReceipt`). A
 * body that is not JSON-RPC is answered 400 as `/v1/rpc` answers it.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import type { Env } from '../../http/project.ts'
import { jsonText } from '../../http/validate.ts'
import { RpcError } from '../../internal/rpc.ts'
import * as Envelope from '../rpc/Envelope.ts'
import * as Relay from '../rpc/Relay.ts'

/** ERC-4337's bundler methods, and the gas price Alto and Pimlico's clients ask for. */
export const methods: ReadonlySet<string> = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_supportedEntryPoints',
  'eth_chainId',
  'pimlico_getUserOperationGasPrice',
])

/** The longest a bundler is waited for; less when the API's request time-out is shorter, so this answers first. */
export const timeoutMs = 20_000

export const messages = {
  unavailable: (chainId: string) => `The bundler of ${chainId} is unavailable`,
} as const

/** JSON-RPC codes: EIP-1474's, -32003 ("transaction rejected") for a request the API will not relay. */
const codes = { refused: -32003, invalidParams: -32602, internal: -32603 } as const

export type BundlerOptions = { config: Config }

export function create(options: BundlerOptions): Hono<Env> {
  const requestTimeoutMs = Limits.resolve(options.config.limits).requestTimeoutMs
  const waitMs = Math.max(50, Math.min(timeoutMs, requestTimeoutMs - 250))
  const relays = new Map<string, Relay.Relay>()
  for (const chain of options.config.chains) {
    const bundlerUrl = chain.accountAbstraction?.bundlerUrl
    if (bundlerUrl)
      relays.set(
        chain.id,
        Relay.create({ chainId: chain.id, rpcUrl: bundlerUrl, methods, timeoutMs: waitMs }),
      )
  }
  const app = new Hono<Env>()

  app.post('/v1/bundler/:chainId', async (c) => {
    const request = Envelope.parse(await jsonText(c))
    if (!request.ok) return c.json(request.answer, 400)
    Limits.weigh(c, request.value.calls.length)
    const chainId = c.req.param('chainId')
    const { batch, calls } = request.value
    const refuse = (code: number, message: string) => {
      const answers = calls.map((call) => Envelope.failure(call.id, code, message))
      return c.json(batch ? answers : answers[0])
    }
    const query = S.parse(Contract.commonQuery, c.req.query())
    const project = c.get('project')
    if (!query.ok || !project || project.id !== query.value.projectId)
      return refuse(codes.refused, httpMessages.projectNotConfigured)
    const relay = relays.get(chainId)
    if (!relay) return refuse(codes.invalidParams, httpMessages.unsupportedChain(chainId))
    // Alto answers one call per request, with a numeric id: a batch goes as its calls, side by side, and
    // each answer gets back the id its call came with (a bundler's answers hold no number a double rounds).
    const answers = await Promise.all(
      calls.map((one) =>
        relay({ batch: false, calls: [{ ...one, id: 1 }] }).then(
          (text) => JSON.stringify({ ...JSON.parse(text), id: one.id }),
          (error: unknown) => {
            if (!(error instanceof RpcError)) throw error
            return JSON.stringify(Envelope.failure(one.id, codes.internal, messages.unavailable(chainId)))
          },
        ),
      ),
    )
    return c.body(batch ? `[${answers.join(',')}]` : (answers[0] ?? ''), 200, {
      'Content-Type': 'application/json',
    })
  })

  return app
}
