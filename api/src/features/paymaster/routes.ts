/**
 * `POST /v1/paymaster/{chainId}?projectId=`: an ERC-7677 paymaster web service for the chain's verifying
 * paymaster (its `accountAbstraction.paymaster`), for projects the configuration's `sponsorship` lists.
 * `pm_getPaymasterStubData` answers a stub to estimate gas with (`isFinal: false`); `pm_getPaymasterData`
 * the signed `paymasterData`, good for {@link Paymaster.validityS} seconds, with the paymaster's gas limits
 * it was signed over. Params: `[userOperation, entryPoint, chainId, context?]`, the operation unpacked
 * (v0.7/v0.8 fields, hex quantities).
 *
 * What each project's sponsorship allows is `Sponsor.ts`'s to decide, rule by rule.
 *
 * JSON-RPC 2.0, one call or a batch; every refusal is a JSON-RPC error with HTTP 200, so any ERC-7677 client
 * shows its message: -32003 for what the policy refuses (`Project id not configured`, `Project {id} is not
 * sponsored`, `No paymaster sponsors operations on {chainId}`, and each rule of `Sponsor.ts` by name),
 * -32602 for a chain the API does not serve, a malformed operation, another EntryPoint or chain id, -32601
 * for another method, -32603 when the chain's RPC or its bundler cannot be asked. A body that is not
 * JSON-RPC is answered 400 as `/v1/rpc` answers it.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import { type Address, isAddressEqual } from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import type { Env } from '../../http/project.ts'
import { jsonText } from '../../http/validate.ts'
import { evmClient } from '../../internal/rpc.ts'
import { timeoutMs as bundlerTimeoutMs } from '../bundler/routes.ts'
import type { Project } from '../projects/Projects.ts'
import * as Envelope from '../rpc/Envelope.ts'
import * as Fees from './Fees.ts'
import { codes, messages } from './messages.ts'
import * as Paymaster from './Paymaster.ts'
import * as Sponsor from './Sponsor.ts'
import * as Sponsorship from './Sponsorship.ts'
import * as UserOperation from './UserOperation.ts'

export type PaymasterRoutesOptions = {
  config: Config
  /** Where budgets are kept. */
  db: Pick<Database, 'query' | 'transaction'>
  /** @default Date.now */
  now?: (() => number) | undefined
}

const methods = new Set(['pm_getPaymasterStubData', 'pm_getPaymasterData'])

export function create(options: PaymasterRoutesOptions): Hono<Env> {
  const { config } = options
  const now = options.now ?? Date.now
  const requestTimeoutMs = Limits.resolve(config.limits).requestTimeoutMs
  const chains = new Map<string, { id: bigint; served: Sponsor.Chain | undefined }>()
  for (const chain of config.chains) {
    const settings = chain.accountAbstraction
    if (!settings) continue
    const id = BigInt(chain.id.slice('eip155:'.length))
    const served: Sponsor.Chain | undefined = settings.paymaster && {
      chainId: chain.id,
      id,
      paymaster: Paymaster.create({
        chainId: chain.id,
        rpcUrl: chain.rpcUrl,
        address: settings.paymaster.address as Address,
        signerKey: settings.paymaster.signerKey as `0x${string}`,
        timeoutMs: requestTimeoutMs,
        now,
      }),
      baseFee: Fees.baseFee(evmClient(chain.rpcUrl), chain.id, now),
      bundlerUrl: settings.bundlerUrl,
      currency: chain.nativeCurrency,
    }
    chains.set(chain.id, { id, served })
  }
  /** Who pays for the request's operations on `chainId`, or why no one does. */
  const servedFor = (
    chainId: string,
    project: Project | undefined,
    query: unknown,
  ): { chain: Sponsor.Chain; policy: Sponsorship.Policy } | Sponsor.Refusal => {
    const parsed = S.parse(Contract.commonQuery, query)
    if (!parsed.ok || !project || project.id !== parsed.value.projectId)
      return { code: codes.refused, message: httpMessages.projectNotConfigured }
    const chain = chains.get(chainId)
    if (!chain) return { code: codes.invalidParams, message: httpMessages.unsupportedChain(chainId) }
    if (!chain.served) return { code: codes.refused, message: messages.noPaymaster(chainId) }
    const policy = Sponsorship.policyOf(config.sponsorship, project.id)
    if (policy === undefined) return { code: codes.refused, message: messages.notSponsored(project.id) }
    return { chain: chain.served, policy }
  }
  const app = new Hono<Env>()

  app.post('/v1/paymaster/:chainId', async (c) => {
    const request = Envelope.parse(await jsonText(c))
    if (!request.ok) return c.json(request.answer, 400)
    Limits.weigh(c, request.value.calls.length)
    const served = servedFor(c.req.param('chainId'), c.get('project'), c.req.query())
    const answers = await Promise.all(
      request.value.calls.map(async (call) =>
        reply(
          call,
          'code' in served
            ? served
            : await sponsor(call, {
                ...served,
                db: options.db,
                now,
                // The estimate answers before the request times out.
                timeoutMs: Math.max(50, Math.min(bundlerTimeoutMs, requestTimeoutMs - 250)),
              }),
        ),
      ),
    )
    return c.json(request.value.batch ? answers : answers[0])
  })

  return app
}

async function sponsor(
  call: Envelope.Call,
  context: Omit<Sponsor.Context, 'entryPoint'>,
): Promise<Sponsor.Outcome> {
  if (!methods.has(call.method))
    return { code: codes.methodNotFound, message: messages.unknownMethod(call.method) }
  const params = call.params
  if (!Array.isArray(params) || params.length < 3 || params.length > 4) return invalid(messages.params)
  const [rawOperation, entryPoint, chainId] = params
  const op = UserOperation.parse(rawOperation)
  if (!op.ok) return invalid(op.message)
  if (typeof entryPoint !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(entryPoint))
    return invalid('entryPoint: expected an address')
  const { chain } = context
  if (typeof chainId !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(chainId) || BigInt(chainId) !== chain.id)
    return { code: codes.invalidParams, message: messages.otherChain(chain.chainId, String(chainId)) }
  try {
    const servedEntryPoint = await chain.paymaster.entryPoint()
    if (!isAddressEqual(servedEntryPoint, entryPoint as Address))
      return {
        code: codes.invalidParams,
        message: messages.otherEntryPoint(chain.chainId, servedEntryPoint, entryPoint),
      }
    const full = { ...context, entryPoint: servedEntryPoint }
    return call.method === 'pm_getPaymasterStubData'
      ? await Sponsor.stub(full, op.value)
      : await Sponsor.sign(full, op.value)
  } catch (error) {
    return Sponsor.failure(chain.chainId, error)
  }
}

function invalid(reason: string): Sponsor.Outcome {
  return { code: codes.invalidParams, message: messages.invalidParams(reason) }
}

function reply(call: Envelope.Call, outcome: Sponsor.Outcome) {
  if ('result' in outcome) return { jsonrpc: '2.0' as const, id: call.id, result: outcome.result }
  return Envelope.failure(call.id, outcome.code, outcome.message)
}
