/**
 * The RPC channel over the private `MessagePort`, in both directions: each side exposes one contract
 * (Schema.ts) and calls the other's.
 *
 * Messages are comlink's wire format (`{ id, type: 'APPLY', path: [method], argumentList: [{ type: 'RAW',
 * value }] }`, answered by `{ id, type: 'RAW', value }`), so either end can be a comlink `wrap`/`expose`
 * peer (Messenger.test.ts proves it). The library itself is not shipped: it costs 1.8 KB gzip of the host
 * SDK's 5 KB, and its GET/SET/CONSTRUCT and proxy transfer would let a hostile peer walk the exposed object,
 * so only APPLY of a contract method is served. Arguments and results are parsed through the contract's
 * shapes, and results travel in an envelope `{ ok, value } | { ok, error: { code, message, data } }` so
 * errors keep their EIP-1193 code.
 */
import {
  type BaseError,
  DisconnectedError,
  fromWire,
  InternalError,
  InvalidParamsError,
  TimeoutError,
  toWire,
  UnsupportedMethodError,
  type WireError,
} from './Errors.ts'
import type { Contract, Implementation, Remote } from './Schema.ts'
import * as S from './Shape.ts'

/** Time-outs in milliseconds. All configurable so tests can shorten them. */
export type Timeouts = {
  /** Frame load and handshake. @default 20_000 */
  load: number
  /** Calls that need no user. @default 30_000 */
  request: number
}

export const defaultTimeouts: Timeouts = { load: 20_000, request: 30_000 }

type Envelope = { ok: true; value: unknown } | { ok: false; error: WireError }

const envelope = S.variant('ok', {
  true: S.object({ ok: S.literal(true), value: S.unknown }),
  false: S.object({
    ok: S.literal(false),
    error: S.object({ code: S.number(), message: S.string(2000), data: S.unknown }),
  }),
})

/** Options of {@link create}. */
export type CreateOptions<Local extends Contract, Peer extends Contract> = {
  port: MessagePort
  /** The contract this side implements. */
  local: Local
  implementation: Implementation<Local>
  /** The contract the other side implements. */
  peer: Peer
  /** How long a call may wait. Return `undefined` for calls that wait for a person. */
  timeoutOf?: (method: keyof Peer & string, input: unknown) => number | undefined
}

/** One side of the bridge: `remote` calls the peer, `close()` ends the channel and fails pending calls. */
export type Messenger<Peer extends Contract> = {
  remote: Remote<Peer>
  close(error?: BaseError): void
}

/**
 * Opens both directions on a port.
 * @example
 * const messenger = Messenger.create({ port, local: Schema.hostApi, implementation, peer: Schema.modalApi })
 * await messenger.remote.open({ view: 'Connect' })
 */
export function create<Local extends Contract, Peer extends Contract>(
  options: CreateOptions<Local, Peer>,
): Messenger<Peer> {
  const { port, local, implementation, peer, timeoutOf } = options
  const pending = new Map<string, { answer(value: unknown): void; fail(error: BaseError): void }>()
  const prefix = Math.random().toString(36).slice(2)
  let sequence = 0
  let closed: BaseError | undefined

  const serve = async (method: string, argumentList: unknown): Promise<Envelope> => {
    const contract = Object.hasOwn(local, method) ? local[method] : undefined
    const arg = Array.isArray(argumentList) && argumentList.length <= 1 ? argumentList[0] : null
    if (!contract || (arg !== undefined && (arg?.type !== 'RAW' || !('value' in arg))))
      return { ok: false, error: toWire(new UnsupportedMethodError()) }
    const input = S.parse(contract.input, arg?.value)
    if (!input.ok)
      return { ok: false, error: toWire(new InvalidParamsError(`Invalid parameters: ${input.message}`)) }
    try {
      const run = implementation[method] as (input: unknown) => unknown
      const output = S.parse(contract.output, await run(input.value))
      if (output.ok) return { ok: true, value: output.value }
      return {
        ok: false,
        error: toWire(new InternalError(`Malformed result of ${method}: ${output.message}`)),
      }
    } catch (error) {
      return { ok: false, error: toWire(error) }
    }
  }

  const onMessage = async (event: MessageEvent) => {
    const message: unknown = event.data
    if (typeof message !== 'object' || message === null) return
    const { id, type, path, argumentList, value } = message as Record<string, unknown>
    if (typeof id !== 'string' || id.length > 64) return
    if (type === 'RAW') return pending.get(id)?.answer(value)
    // A comlink peer reports thrown values this way; the envelope makes it rare, but it is not a hang.
    if (type === 'HANDLER') return pending.get(id)?.fail(new InternalError())
    if (type !== 'APPLY' || closed) return
    const method = Array.isArray(path) && path.length === 1 && typeof path[0] === 'string' ? path[0] : ''
    const answer = await serve(method, argumentList)
    if (closed) return
    try {
      port.postMessage({ id, type: 'RAW', value: answer })
    } catch (error) {
      // The implementation's value could not be cloned; the caller gets an error, not silence.
      port.postMessage({
        id,
        type: 'RAW',
        value: { ok: false, error: toWire(new InternalError(String(error))) },
      })
    }
  }
  port.addEventListener('message', onMessage as unknown as EventListener)
  port.start()

  const call = (method: string, input: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(closed)
      const contract = Object.hasOwn(peer, method) ? peer[method] : undefined
      if (!contract) return reject(new UnsupportedMethodError())
      const parsed = S.parse(contract.input, input)
      if (!parsed.ok) return reject(new InvalidParamsError(`Invalid parameters: ${parsed.message}`))

      const id = `${prefix}.${++sequence}`
      const ms = timeoutOf?.(method as keyof Peer & string, parsed.value)
      const timer =
        ms === undefined ? undefined : setTimeout(() => fail(new TimeoutError('iframe_request_timeout')), ms)
      const settle = () => {
        clearTimeout(timer)
        pending.delete(id)
      }
      const fail = (error: BaseError) => {
        settle()
        reject(error)
      }
      const answer = (value: unknown) => {
        settle()
        const reply = S.parse(envelope, value)
        if (!reply.ok) return reject(new InternalError('Malformed reply from the other side of the bridge.'))
        if (!reply.value.ok) return reject(fromWire(reply.value.error))
        const result = S.parse(contract.output, reply.value.value)
        if (!result.ok) return reject(new InternalError(`Malformed result of ${method}: ${result.message}`))
        resolve(result.value)
      }
      pending.set(id, { answer, fail })
      try {
        port.postMessage({
          id,
          type: 'APPLY',
          path: [method],
          argumentList: [{ type: 'RAW', value: parsed.value }],
        })
      } catch (error) {
        fail(new InvalidParamsError(`Invalid parameters: ${String(error)}`))
      }
    })

  const remote = {} as Record<string, (input?: unknown) => Promise<unknown>>
  for (const method of Object.keys(peer)) remote[method] = (input) => call(method, input)

  return {
    remote: remote as Remote<Peer>,
    close(error = new DisconnectedError()) {
      if (closed) return
      closed = error
      for (const { fail } of [...pending.values()]) fail(error)
      port.removeEventListener('message', onMessage as unknown as EventListener)
      port.close()
    },
  }
}
