/**
 * The handshake: the host posts a hello with one `MessagePort` to the modal frame, pinned to the modal's
 * origin; the modal accepts only from its parent window, a compatible version and an allowed origin, and
 * answers on the port. After that, nothing travels at window level, where any frame could listen or forge.
 *
 * Versions are negotiated because `airlock.js` stays cached on dApp pages long after the modal changes:
 * each side announces the range it speaks, any minor difference works, and only peers with no major in
 * common are refused, with both ranges named.
 */
import { BaseError, InternalError, UnauthorizedError } from './Errors.ts'
import {
  dismissed,
  type HandshakeReply,
  type Hello,
  handshakeReply,
  hello,
  protocolVersions,
  type Version,
  type VersionRange,
} from './Schema.ts'
import { parse } from './Shape.ts'

/**
 * The version two peers speak: the older of their newest versions, if both speak its major.
 * @example
 * Handshake.negotiate(ours, theirs) // { major: 1, minor: 0 }, or undefined when no major is shared
 */
export function negotiate(a: VersionRange, b: VersionRange): Version | undefined {
  const max = older(a.max, b.max)
  return max.major >= Math.max(a.min.major, b.min.major) ? { ...max } : undefined
}

/**
 * Whether the negotiated version has what `since` added: the same major, at least that minor.
 * @example
 * if (Handshake.supports(peer, { major: 1, minor: 2 })) await keepStateOnHost()
 */
export function supports(peer: Version, since: Version): boolean {
  return peer.major === since.major && peer.minor >= since.minor
}

/** `1.0–1.1` */
export function formatRange(range: VersionRange): string {
  return `${range.min.major}.${range.min.minor}–${range.max.major}.${range.max.minor}`
}

/**
 * The developer's explanation of a refused handshake, naming both ranges and what to update.
 * @example
 * Handshake.mismatch(host, modal)
 * // Airlock protocol mismatch: this page's airlock.js speaks 1.0–1.1, the modal speaks 2.0–2.0.
 * // Update airlock.js.
 */
export function mismatch(host: VersionRange, modal: VersionRange): string {
  const fix =
    host.max.major < modal.min.major ? 'Update airlock.js.' : "Load airlock.js from the modal's origin."
  const ranges = `this page's airlock.js speaks ${formatRange(host)}, the modal speaks ${formatRange(modal)}`
  return `Airlock protocol mismatch: ${ranges}. ${fix}`
}

function older(a: Version, b: Version): Version {
  return a.major < b.major || (a.major === b.major && a.minor <= b.minor) ? a : b
}

// What a peer speaks when it announced only `version`, as every build up to 1.0 does.
function rangeOf(message: { version: number; versions?: VersionRange | undefined }): VersionRange {
  const only = { major: Math.trunc(message.version), minor: 0 }
  return message.versions ?? { min: only, max: only }
}

/** Options of {@link connect}. */
export type ConnectOptions = {
  /** The modal frame's window (`iframe.contentWindow`). */
  target: Pick<Window, 'postMessage'>
  /** The modal's origin, exactly: the hello is delivered only if the frame is on it. */
  modalOrigin: string
  projectId: string
  /** The versions this host speaks. @default protocolVersions */
  versions?: VersionRange
  /** After a refusal: the visitor closed the modal's alert, so the frame should go. */
  onDismissed?: () => void
}

/**
 * Host side: sends the hello and resolves with the private port once the modal welcomes it.
 * Rejects with the modal's refusal: code 4100 naming the cause (a project the API does not know, an origin
 * the project does not allow, an API the modal could not reach) with the fix in `data.fix`; -32603 naming
 * both versions when host and modal share no major.
 * @example
 * const port = await Handshake.connect({ target: iframe.contentWindow, modalOrigin, projectId: 'demo' })
 */
export function connect(options: ConnectOptions): Promise<MessagePort> {
  const { port1, port2 } = new MessageChannel()
  const versions = options.versions ?? protocolVersions
  const message = {
    type: 'airlock:hello',
    version: versions.min.major,
    projectId: options.projectId,
    versions,
  } satisfies Hello
  return new Promise((resolve, reject) => {
    port1.onmessage = (event) => {
      const reply = parse(handshakeReply, event.data)
      if (!reply.ok) return
      port1.onmessage = null
      if (reply.value.type === 'airlock:welcome') {
        // A modal that welcomed us shares a major; this only guards against one that does not say so.
        const modal = rangeOf(reply.value)
        if (negotiate(versions, modal)) return resolve(port1)
        port1.close()
        return reject(new InternalError(mismatch(versions, modal)))
      }
      const { code, message, fix } = reply.value
      port1.onmessage = (event) => {
        if (!parse(dismissed, event.data).ok) return
        port1.close()
        options.onDismissed?.()
      }
      reject(new BaseError(code, message, fix === undefined ? {} : { data: { fix } }))
    }
    options.target.postMessage(message, options.modalOrigin, [port2])
  })
}

/** Why a hello was refused; the modal shows an alert that says which. */
export type Refusal = 'version' | 'project' | 'origin' | 'unreachable'

/** A refusal the modal names: the developer reads `message`, and `fix` says what to change. */
export type Refused = { refusal: 'project' | 'origin' | 'unreachable'; message: string; fix?: string }

/** Options of {@link accept}. */
export type AcceptOptions = {
  /** The modal's own window: listens on it, and trusts only its `parent`. */
  window: Pick<Window, 'addEventListener' | 'removeEventListener' | 'parent'>
  projectId: string
  /**
   * Decides whether the origin (from the browser, never from the host's words) may use this project: `true`,
   * or why not (`false` is a refusal of the origin that names nothing).
   */
  isAllowed: (origin: string) => boolean | Refused | Promise<boolean | Refused>
  /**
   * Told about each refused hello, so the modal can show why; `dismiss` tells that host the visitor closed
   * the alert.
   */
  onRefused?: (refusal: Refusal, origin: string, dismiss: () => void) => void
  /** The versions this modal speaks. @default protocolVersions */
  versions?: VersionRange
}

/** What an accepted handshake yields. */
export type Accepted = {
  port: MessagePort
  /** The host's origin as the browser reported it, never as the host said. */
  origin: string
  /**
   * The version spoken with this host: the newest both know. Send the host nothing newer, e.g. no view
   * name or field added after `peer.minor`; a host from before ranges is `{ major: 1, minor: 0 }`.
   */
  peer: Version
}

/**
 * Modal side: resolves with the first hello that passes every check, then stops listening.
 * Anything else — other windows, malformed data, no port — is ignored without a reply.
 * @example
 * const { port, origin, peer } = await Handshake.accept({ window, projectId, isAllowed })
 */
export function accept(options: AcceptOptions): Promise<Accepted> {
  const { window: self, versions = protocolVersions } = options
  return new Promise((resolve) => {
    let accepted = false
    const onMessage = async (event: MessageEvent) => {
      if (accepted || event.source !== self.parent || event.source === null) return
      const parsed = parse(hello, event.data)
      const port = event.ports?.[0]
      if (!parsed.ok || !port || event.ports.length !== 1) return
      const refuse = (refusal: Refusal, reply: HandshakeReply) => {
        port.postMessage(reply)
        options.onRefused?.(refusal, event.origin, () => {
          port.postMessage({ type: 'airlock:dismissed' })
          port.close()
        })
      }
      const host = rangeOf(parsed.value)
      const peer = negotiate(host, versions)
      if (!peer)
        return refuse('version', {
          type: 'airlock:refused',
          code: InternalError.code,
          message: mismatch(host, versions),
        })
      if (parsed.value.projectId !== options.projectId)
        return refuse('project', {
          type: 'airlock:refused',
          code: 4100,
          message: 'Project id does not match the modal.',
        })
      const allowed = await Promise.resolve(options.isAllowed(event.origin)).catch(() => false)
      if (allowed !== true) {
        const named = allowed || { refusal: 'origin' as const, message: 'Invalid App Configuration' }
        const { refusal, ...reply } = named
        return refuse(refusal, { type: 'airlock:refused', code: UnauthorizedError.code, ...reply })
      }
      // Two hellos may be checked at once; the first through wins, and the other's port is closed.
      if (accepted) return port.close()
      accepted = true
      self.removeEventListener('message', onMessage as unknown as EventListener)
      // A host that announced no range is airlock.js 1.0: it gets the welcome of 1.0, word for word.
      const welcome: HandshakeReply = { type: 'airlock:welcome', version: peer.major }
      port.postMessage(parsed.value.versions ? { ...welcome, versions } : welcome)
      resolve({ port, origin: event.origin, peer })
    }
    self.addEventListener('message', onMessage as unknown as EventListener)
  })
}
