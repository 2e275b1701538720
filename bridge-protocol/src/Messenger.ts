/**
 * The RPC channel over the private `MessagePort`: comlink in both directions, hardened for a peer that may
 * be hostile. Each side exposes one contract (Schema.ts) and calls the other's.
 *
 * comlink alone would let the peer GET, SET or CONSTRUCT anything reachable from the exposed object, and
 * would turn a thrown error into a plain `Error`. So messages are filtered before comlink sees them (only
 * APPLY of a contract method with plain values), arguments and results are parsed through the contract's
 * schemas, and results travel in an envelope `{ ok, value } | { ok, error: { code, message, data } }`.
 */
import * as Comlink from 'comlink'
import * as v from 'valibot'
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

/** Time-outs in milliseconds. All configurable so tests can shorten them. */
export type Timeouts = {
  /** Frame load and handshake. @default 20_000 */
  load: number
  /** Calls that need no user. @default 30_000 */
  request: number
}

export const defaultTimeouts: Timeouts = { load: 20_000, request: 30_000 }

type Envelope = { ok: true; value: unknown } | { ok: false; error: WireError }

const wireError = v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) })
const envelope = v.variant('ok', [
  v.object({ ok: v.literal(true), value: v.unknown() }),
  v.object({ ok: v.literal(false), error: wireError }),
])

type Listener = (event: MessageEvent) => void

/**
 * Splits one port into the two comlink endpoints, letting through only what each may see:
 * requests (APPLY of a known method, raw arguments) to the exposed side, responses to the calling side.
 */
function endpoints(port: MessagePort, methods: readonly string[]) {
  const requestListeners = new Set<Listener>()
  const responseListeners = new Set<Listener>()

  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null) return
    const message = data as Record<string, unknown>
    if (typeof message.id !== 'string' || message.id.length > 64) return
    if (message.type === 'RAW' || message.type === 'HANDLER') {
      for (const listener of responseListeners) listener(event)
      return
    }
    if (message.type !== 'APPLY') return
    if (!isPlainApply(message, methods)) {
      const answer: Envelope = { ok: false, error: toWire(new UnsupportedMethodError()) }
      port.postMessage({ id: message.id, type: 'RAW', value: answer })
      return
    }
    for (const listener of requestListeners) listener(event)
  }
  port.addEventListener('message', onMessage)

  const make = (listeners: Set<Listener>): Comlink.Endpoint => ({
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
    exposed: make(requestListeners),
    caller: make(responseListeners),
    detach: () => port.removeEventListener('message', onMessage),
  }
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

  const call = (method: string, input: unknown): Promise<unknown> => {
    if (closed) return Promise.reject(closed)
    const contract = peer[method]
    if (!contract) return Promise.reject(new UnsupportedMethodError())
    const parsedInput = v.safeParse(contract.input, input)
    if (!parsedInput.success) return Promise.reject(new InvalidParamsError(summary(parsedInput.issues)))

    return new Promise((resolve, reject) => {
      const fail = (error: BaseError) => {
        settle()
        reject(error)
      }
      const ms = timeoutOf?.(method as keyof Peer & string, parsedInput.output)
      const timer =
        ms === undefined ? undefined : setTimeout(() => fail(new TimeoutError('iframe_request_timeout')), ms)
      const settle = () => {
        clearTimeout(timer)
        pending.delete(fail)
      }
      pending.add(fail)
      const send = proxy[method] as (input: unknown) => Promise<unknown>
      send(parsedInput.output).then(
        (answer) => {
          if (!pending.has(fail)) return
          settle()
          const parsed = v.safeParse(envelope, answer)
          if (!parsed.success)
            return reject(new InternalError('Malformed reply from the other side of the bridge.'))
          if (!parsed.output.ok) return reject(fromWire(parsed.output.error))
          const result = v.safeParse(contract.output, parsed.output.value)
          if (!result.success) return reject(new InternalError(`Malformed result of ${method}.`))
          resolve(result.output)
        },
        (error: unknown) => {
          if (!pending.has(fail)) return
          fail(new InternalError(undefined, { cause: error }))
        },
      )
    })
  }

  const remote = Object.fromEntries(
    Object.keys(peer).map((method) => [method, (input: unknown) => call(method, input)]),
  ) as Remote<Peer>

  return {
    remote,
    close(error = new DisconnectedError()) {
      if (closed) return
      closed = error
      for (const fail of [...pending]) fail(error)
      split.detach()
      port.close()
    },
  }
}

/** Wraps an implementation so every call is parsed on the way in and out and never throws across. */
function guard<C extends Contract>(contract: C, implementation: Implementation<C>) {
  const target: Record<string, (input: unknown) => Promise<Envelope>> = Object.create(null)
  for (const method of Object.keys(contract)) {
    const schemas = contract[method] as C[string]
    const run = implementation[method] as (input: unknown) => unknown
    target[method] = async (input: unknown): Promise<Envelope> => {
      const parsed = v.safeParse(schemas.input, input)
      if (!parsed.success) return { ok: false, error: toWire(new InvalidParamsError(summary(parsed.issues))) }
      try {
        const value = await run(parsed.output)
        const result = v.safeParse(schemas.output, value)
        if (!result.success)
          return { ok: false, error: toWire(new InternalError(`Malformed result of ${method}.`)) }
        return { ok: true, value: result.output }
      } catch (error) {
        return { ok: false, error: toWire(error) }
      }
    }
  }
  return target
}

function summary(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0]
  if (!first) return 'Invalid parameters were provided to the RPC method.'
  const path = first.path?.map((item) => String(item.key)).join('.')
  return `Invalid parameters: ${path ? `${path}: ` : ''}${first.message}`
}
