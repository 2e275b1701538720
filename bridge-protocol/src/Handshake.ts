/**
 * The handshake of DESIGN §3: the host posts a hello with one `MessagePort` to the modal frame, pinned to
 * the modal's origin; the modal accepts only from its parent window, a compatible version and an allowed
 * origin, and answers on the port. After that, nothing travels at window level.
 */
import { BaseError, UnauthorizedError } from './Errors.ts'
import { type HandshakeReply, handshakeReply, hello, protocolVersion } from './Schema.ts'
import { parse } from './Shape.ts'

/** Options of {@link connect}. */
export type ConnectOptions = {
  /** The modal frame's window (`iframe.contentWindow`). */
  target: Pick<Window, 'postMessage'>
  /** The modal's origin, exactly: the hello is delivered only if the frame is on it. */
  modalOrigin: string
  projectId: string
  /** @default protocolVersion */
  version?: number
}

/**
 * Host side: sends the hello and resolves with the private port once the modal welcomes it.
 * Rejects with the modal's refusal (code 4100 for an origin the project does not allow).
 * @example
 * const port = await Handshake.connect({ target: iframe.contentWindow, modalOrigin, projectId: 'demo' })
 */
export function connect(options: ConnectOptions): Promise<MessagePort> {
  const { port1, port2 } = new MessageChannel()
  const message = {
    type: 'airlock:hello',
    version: options.version ?? protocolVersion,
    projectId: options.projectId,
  }
  return new Promise((resolve, reject) => {
    port1.onmessage = (event) => {
      const reply = parse(handshakeReply, event.data)
      if (!reply.ok) return
      port1.onmessage = null
      if (reply.value.type === 'airlock:welcome') return resolve(port1)
      port1.close()
      reject(new BaseError(reply.value.code, reply.value.message))
    }
    options.target.postMessage(message, options.modalOrigin, [port2])
  })
}

/** Why a hello was refused; shown by the modal as SPEC §8's alert. */
export type Refusal = 'version' | 'project' | 'origin'

/** Options of {@link accept}. */
export type AcceptOptions = {
  /** The modal's own window: listens on it, and trusts only its `parent`. */
  window: Pick<Window, 'addEventListener' | 'removeEventListener' | 'parent'>
  projectId: string
  /** Decides whether the origin (from the browser, never from the host's words) may use this project. */
  isAllowed: (origin: string) => boolean | Promise<boolean>
  /** Told about each refused hello, so the modal can show why. */
  onRefused?: (refusal: Refusal, origin: string) => void
}

/** What an accepted handshake yields: the private port and the host origin as the browser reported it. */
export type Accepted = { port: MessagePort; origin: string }

/**
 * Modal side: resolves with the first hello that passes every check, then stops listening.
 * Anything else — other windows, malformed data, no port — is ignored without a reply.
 * @example
 * const { port, origin } = await Handshake.accept({ window, projectId, isAllowed })
 */
export function accept(options: AcceptOptions): Promise<Accepted> {
  const { window: self } = options
  return new Promise((resolve) => {
    let accepted = false
    const onMessage = async (event: MessageEvent) => {
      if (accepted || event.source !== self.parent || event.source === null) return
      const parsed = parse(hello, event.data)
      const port = event.ports?.[0]
      if (!parsed.ok || !port || event.ports.length !== 1) return
      const refuse = (refusal: Refusal, reply: HandshakeReply) => {
        port.postMessage(reply)
        port.close()
        options.onRefused?.(refusal, event.origin)
      }
      if (Math.trunc(parsed.value.version) !== protocolVersion)
        return refuse('version', {
          type: 'airlock:refused',
          code: -32603,
          message: `Unsupported protocol version ${parsed.value.version}; this modal speaks ${protocolVersion}.`,
        })
      if (parsed.value.projectId !== options.projectId)
        return refuse('project', {
          type: 'airlock:refused',
          code: 4100,
          message: 'Project id does not match the modal.',
        })
      const allowed = await Promise.resolve(options.isAllowed(event.origin)).catch(() => false)
      if (!allowed)
        return refuse('origin', {
          type: 'airlock:refused',
          code: UnauthorizedError.code,
          message: 'Invalid App Configuration',
        })
      // Two hellos may be checked at once; the first through wins, and the other's port is closed.
      if (accepted) return port.close()
      accepted = true
      self.removeEventListener('message', onMessage as unknown as EventListener)
      port.postMessage({ type: 'airlock:welcome', version: protocolVersion } satisfies HandshakeReply)
      resolve({ port, origin: event.origin })
    }
    self.addEventListener('message', onMessage as unknown as EventListener)
  })
}
