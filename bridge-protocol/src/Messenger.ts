/**
 * The RPC channel over the private `MessagePort`: comlink in both directions, hardened for a peer that may
 * be hostile. Each side exposes one contract (Schema.ts) and calls the other's.
 *
 * comlink alone would let the peer GET, SET or CONSTRUCT anything reachable from the exposed object, hand
 * over proxies, and turn a thrown error into a plain `Error`. So messages are filtered before comlink sees
 * them (only APPLY of a contract method with plain values), arguments and results are parsed through the
 * contract's shapes, and results travel in an envelope `{ ok, value } | { ok, error: { code, message,
 * data } }` so errors keep their EIP-1193 code.
 */
import * as Comlink from 'comlink'
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
  const split = endpoints(port, Object.keys(local))
  Comlink.expose(guard(local, implementation), split.exposed)
  const proxy = Comlink.wrap<Record<string, (input: unknown) => Promise<unknown>>>(split.caller)
  port.start()

  const pending = new Set<(error: BaseError) => void>()
  let closed: BaseError | undefined

  const call = (method: string, input: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(closed)
      const contract = Object.hasOwn(peer, method) ? peer[method] : undefined
      if (!contract) return reject(new UnsupportedMethodError())
      const parsed = S.parse(contract.input, input)
      if (!parsed.ok) return reject(new InvalidParamsError(`Invalid parameters: ${parsed.message}`))

      const ms = timeoutOf?.(method as keyof Peer & string, parsed.value)
      const timer =
        ms === undefined ? undefined : setTimeout(() => fail(new TimeoutError('iframe_request_timeout')), ms)
      const settle = () => {
        clearTimeout(timer)
        pending.delete(fail)
      }
      const fail = (error: BaseError) => {
        settle()
        reject(error)
      }
      pending.add(fail)
      const send = proxy[method] as (input: unknown) => Promise<unknown>
      send(parsed.value).then(
        (answer) => {
          if (!pending.has(fail)) return
          settle()
          const reply = S.parse(envelope, answer)
          if (!reply.ok)
            return reject(new InternalError('Malformed reply from the other side of the bridge.'))
          if (!reply.value.ok) return reject(fromWire(reply.value.error))
          const result = S.parse(contract.output, reply.value.value)
          if (!result.ok) return reject(new InternalError(`Malformed result of ${method}: ${result.message}`))
          resolve(result.value)
        },
        (error: unknown) => {
          // comlink could not send the value (not cloneable) or the peer threw outside the envelope.
          if (pending.has(fail)) fail(new InternalError(undefined, { cause: error }))
        },
      )
    })

  const remote = {} as Record<string, (input?: unknown) => Promise<unknown>>
  for (const method of Object.keys(peer)) remote[method] = (input) => call(method, input)

  return {
    remote: remote as Remote<Peer>,
    close(error = new DisconnectedError()) {
      if (closed) return
      closed = error
      for (const fail of [...pending]) fail(error)
      split.detach()
      port.close()
    },
  }
}

type Listener = (event: MessageEvent) => void

/**
 * Splits one port into the two comlink endpoints, letting through only what each may see: requests (APPLY
 * of a contract method with plain arguments) to the exposed side, responses to the calling side. Any other
 * APPLY is answered with 4200 here, so a version-skewed peer gets an error rather than silence.
 */
function endpoints(port: MessagePort, methods: readonly string[]) {
  const requests = new Set<Listener>()
  const responses = new Set<Listener>()

  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null) return
    const message = data as Record<string, unknown>
    if (typeof message.id !== 'string' || message.id.length > 64) return
    if (message.type === 'RAW' || message.type === 'HANDLER') return each(responses, event)
    if (message.type !== 'APPLY') return
    if (isPlainApply(message, methods)) return each(requests, event)
    const answer: Envelope = { ok: false, error: toWire(new UnsupportedMethodError()) }
    port.postMessage({ id: message.id, type: 'RAW', value: answer })
  }
  port.addEventListener('message', onMessage)

  const endpoint = (listeners: Set<Listener>): Comlink.Endpoint => ({
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      listeners.add(listener as Listener)
    },
    removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      listeners.delete(listener as Listener)
    },
    start: () => port.start(),
  })
  return {
    exposed: endpoint(requests),
    caller: endpoint(responses),
    detach: () => port.removeEventListener('message', onMessage),
  }
}

function each(listeners: Set<Listener>, event: MessageEvent) {
  for (const listener of listeners) listener(event)
}

function isPlainApply(message: Record<string, unknown>, methods: readonly string[]): boolean {
  const { path, argumentList } = message
  if (!Array.isArray(path) || path.length !== 1 || !methods.includes(path[0] as string)) return false
  if (!Array.isArray(argumentList) || argumentList.length > 1) return false
  return argumentList.every(
    (arg: unknown) =>
      typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'RAW' && 'value' in arg,
  )
}

/** Wraps an implementation so every call is parsed on the way in and out and never throws across. */
function guard<C extends Contract>(contract: C, implementation: Implementation<C>) {
  // No prototype: comlink resolves the path on this object, and only contract methods may be found.
  const target: Record<string, (input: unknown) => Promise<Envelope>> = Object.create(null)
  for (const method of Object.keys(contract)) {
    const shapes = contract[method] as C[string]
    const run = implementation[method] as (input: unknown) => unknown
    target[method] = async (input: unknown): Promise<Envelope> => {
      const parsed = S.parse(shapes.input, input)
      if (!parsed.ok)
        return { ok: false, error: toWire(new InvalidParamsError(`Invalid parameters: ${parsed.message}`)) }
      try {
        const output = S.parse(shapes.output, await run(parsed.value))
        if (output.ok) return { ok: true, value: output.value }
        return {
          ok: false,
          error: toWire(new InternalError(`Malformed result of ${method}: ${output.message}`)),
        }
      } catch (error) {
        return { ok: false, error: toWire(error) }
      }
    }
  }
  return target
}
