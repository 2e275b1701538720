/**
 * `POST /v1/paymaster/{chainId}?projectId=`: an ERC-7677 paymaster web service for the chain's verifying
 * paymaster (its `accountAbstraction.paymaster`), for projects the configuration's `sponsorship` lists.
 * `pm_getPaymasterStubData` answers a stub to estimate gas with (`isFinal: false`); `pm_getPaymasterData`
 * the signed `paymasterData`, good for {@link Paymaster.validityS} seconds, with the paymaster's gas limits
 * it was signed over. Params: `[userOperation, entryPoint, chainId, context?]`, the operation unpacked
 * (v0.7/v0.8 fields, hex quantities).
 *
 * JSON-RPC 2.0, one call or a batch; every refusal is a JSON-RPC error with HTTP 200, so any ERC-7677 client
 * shows its message: -32003 for what the policy refuses (`Project id not configured`, `Project {id} is not
 * sponsored`, `No paymaster sponsors operations on {chainId}`, an operation over the project's gas cap or
 * offering more per gas than its fee cap),
 * -32602 for a chain the API does not serve, a malformed operation, another EntryPoint or chain id, -32601
 * for another method, -32603 when the chain's RPC cannot be asked. A body that is not JSON-RPC is answered
 * 400 as `/v1/rpc` answers it.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import { isAddressEqual } from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import type { Env } from '../../http/project.ts'
import { jsonText } from '../../http/validate.ts'
import { RpcError } from '../../internal/rpc.ts'
import type { Project } from '../projects/Projects.ts'
import * as Envelope from '../rpc/Envelope.ts'
import { codes, messages } from './messages.ts'
import * as Paymaster from './Paymaster.ts'
import * as Sponsorship from './Sponsorship.ts'
import * as UserOperation from './UserOperation.ts'

export type PaymasterRoutesOptions = {
  config: Config
  /** @default Date.now */
  now?: (() => number) | undefined
}

type Refusal = { code: number; message: string }
/** What a call is answered: ERC-7677's result, or an error. */
type Outcome = { result: unknown } | Refusal

const methods = new Set(['pm_getPaymasterStubData', 'pm_getPaymasterData'])

export function create(options: PaymasterRoutesOptions): Hono<Env> {
  const { config } = options
  const timeoutMs = Limits.resolve(config.limits).requestTimeoutMs
  const chains = new Map<string, { id: bigint; paymaster: Paymaster.Paymaster | undefined }>()
  for (const chain of config.chains) {
    const settings = chain.accountAbstraction
    if (!settings) continue
    const paymaster = settings.paymaster
      ? Paymaster.create({
          chainId: chain.id,
          rpcUrl: chain.rpcUrl,
          address: settings.paymaster.address as `0x${string}`,
          signerKey: settings.paymaster.signerKey as `0x${string}`,
          timeoutMs,
          now: options.now,
        })
      : undefined
    chains.set(chain.id, { id: BigInt(chain.id.slice('eip155:'.length)), paymaster })
  }
  /** Who pays for the request's operations on `chainId`, or why no one does. */
  const servedFor = (chainId: string, project: Project | undefined, query: unknown): Served | Refusal => {
    const parsed = S.parse(Contract.commonQuery, query)
    if (!parsed.ok || !project || project.id !== parsed.value.projectId)
      return { code: codes.refused, message: httpMessages.projectNotConfigured }
    const chain = chains.get(chainId)
    if (!chain) return { code: codes.invalidParams, message: httpMessages.unsupportedChain(chainId) }
    if (!chain.paymaster) return { code: codes.refused, message: messages.noPaymaster(chainId) }
    const caps = Sponsorship.capsOf(config.sponsorship, project.id)
    if (caps === undefined) return { code: codes.refused, message: messages.notSponsored(project.id) }
    return { chainId, id: chain.id, paymaster: chain.paymaster, caps }
  }
  const app = new Hono<Env>()

  app.post('/v1/paymaster/:chainId', async (c) => {
    const request = Envelope.parse(await jsonText(c))
    if (!request.ok) return c.json(request.answer, 400)
    Limits.weigh(c, request.value.calls.length)
    const served = servedFor(c.req.param('chainId'), c.get('project'), c.req.query())
    const answers = await Promise.all(
      request.value.calls.map(async (call) =>
        reply(call, 'code' in served ? served : await sponsor(call, served)),
      ),
    )
    return c.json(request.value.batch ? answers : answers[0])
  })

  return app
}

type Served = { chainId: string; id: bigint; paymaster: Paymaster.Paymaster; caps: Sponsorship.Caps }

async function sponsor(call: Envelope.Call, served: Served): Promise<Outcome> {
  if (!methods.has(call.method))
    return { code: codes.methodNotFound, message: messages.unknownMethod(call.method) }
  const params = call.params
  if (!Array.isArray(params) || params.length < 3 || params.length > 4) return invalid(messages.params)
  const [rawOperation, entryPoint, chainId] = params
  const op = UserOperation.parse(rawOperation)
  if (!op.ok) return invalid(op.message)
  if (typeof entryPoint !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(entryPoint))
    return invalid('entryPoint: expected an address')
  if (typeof chainId !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(chainId) || BigInt(chainId) !== served.id)
    return { code: codes.invalidParams, message: messages.otherChain(served.chainId, String(chainId)) }
  try {
    const servedEntryPoint = await served.paymaster.entryPoint()
    if (!isAddressEqual(servedEntryPoint, entryPoint as `0x${string}`))
      return {
        code: codes.invalidParams,
        message: messages.otherEntryPoint(served.chainId, servedEntryPoint, entryPoint),
      }
    if (call.method === 'pm_getPaymasterStubData') return { result: served.paymaster.stub(op.value) }
    const gas = UserOperation.totalGas(op.value, served.paymaster.gasOf(op.value))
    if (gas > served.caps.maxGas)
      return { code: codes.refused, message: messages.overCap(gas, served.caps.maxGas) }
    // The EntryPoint charges the deposit up to maxFeePerGas for every gas used: an absurd offer drains it.
    if (op.value.maxFeePerGas > served.caps.maxFeePerGas)
      return {
        code: codes.refused,
        message: messages.overFee(op.value.maxFeePerGas, served.caps.maxFeePerGas),
      }
    return { result: await served.paymaster.sign(op.value) }
  } catch (error) {
    if (error instanceof RpcError)
      return { code: codes.internal, message: httpMessages.rpcUnavailable(served.chainId) }
    console.error('[airlock-api] paymaster', served.chainId, error)
    return { code: codes.internal, message: httpMessages.internal }
  }
}

function invalid(reason: string): Outcome {
  return { code: codes.invalidParams, message: messages.invalidParams(reason) }
}

function reply(call: Envelope.Call, outcome: Outcome) {
  if ('result' in outcome) return { jsonrpc: '2.0' as const, id: call.id, result: outcome.result }
  return Envelope.failure(call.id, outcome.code, outcome.message)
}
