/**
 * Hostile messages for the bridge's fuzz tests and bench; test support, imported by no build. Everything
 * comes from a seed, so a failure replays from the seed its test prints.
 *
 * Each message is forged so that a correct receiver's answer is known by construction, from the rules the
 * protocol documents rather than from the parser under test: a modal ignores every `hello` message
 * (hello.ts), and a live bridge port answers a `bridge` message with nothing, 4200 or -32602 (call.ts) —
 * never with a result. Every message carries a fresh `MessageChannel` port, some a second one; whatever
 * arrives on any of them is recorded.
 */
import { forgeCall } from './call.ts'
import { forgeHello } from './hello.ts'
import { describe, random, values } from './values.ts'

/** What the receiver must answer: nothing, or a refusal with this code on its own port. */
type Answer = 'none' | 4200 | -32602

export type Forged = { kind: string; data: unknown; transfer: Transferable[]; answer: Answer; id?: string }

/** Options of {@link forger}. */
export type ForgeOptions = {
  /** The same seed forges the same messages. */
  seed: number
  /** `hello`: the modal's window before the handshake; `bridge`: a live port after it. */
  target: 'hello' | 'bridge'
  /** Makes the extra ports some messages carry. */
  port: () => MessagePort
  /** The project id a near-valid hello keeps, so that only its broken field is wrong. @default 'demo' */
  projectId?: string
  /** The receiving side's methods (`bridge`), so near-valid calls name real ones. @default ['ping'] */
  methods?: readonly string[]
  /** Also forge genuine hellos: for a sender the modal must not trust at all. @default false */
  genuine?: boolean
  /** Characters of the largest payload. @default 2_000_000 */
  huge?: number
}

/**
 * Forges one hostile message per call.
 * @example
 * const forge = forger({ seed: 1, target: 'hello', port: () => new MessageChannel().port1 })
 * const { data, transfer } = forge()
 */
function forger(options: ForgeOptions): () => Forged {
  const r = random(options.seed)
  const huge = options.huge ?? 2_000_000
  const v = values(r, huge)
  if (options.target === 'hello') return () => forgeHello(r, v, options, huge)
  let count = 0
  const fresh = () => `fuzz-${options.seed}-${++count}`
  return () => forgeCall(r, v, options.methods ?? [], fresh, options.port)
}

/** What arrived on a forged port: the message's index and kind, and what came. */
export type Heard = { index: number; kind: string; data: string }

/** Options of {@link flood}. */
export type FloodOptions = Omit<ForgeOptions, 'port'> & {
  count: number
  /** Posts one message; the transfer list starts with the message's own fresh port. */
  post(data: unknown, transfer: Transferable[]): void
}

/** A flood's record. Its ports stay open, so a late answer is still heard, until `close()`. */
export type Flood = {
  /** Anything that arrived on a forged port: a correct receiver leaves it empty. */
  heard: Heard[]
  /** The ids the receiver must answer on its own port, with the code (`bridge`). */
  answers: Map<string, number>
  /** Messages that could not be sent (postMessage threw): a sound generator forges none. */
  unsent: string[]
  /** How many of each kind were posted, to show what was covered. */
  kinds: Record<string, number>
  close(): void
}

/**
 * Posts `count` forged messages, each with a fresh `MessageChannel` port, and listens on every forged port.
 * @example
 * const flood = Hostile.flood({ seed, target: 'hello', count: 10_000, post: (data, transfer) =>
 *   frame.contentWindow.postMessage(data, '*', transfer) })
 * // …then a genuine hello, and once it is welcomed: expect(flood.heard).toEqual([])
 */
export function flood(options: FloodOptions): Flood {
  const record: Flood = { heard: [], answers: new Map(), unsent: [], kinds: {}, close: () => {} }
  const ports: MessagePort[] = []
  // The ports a message carries are made while it is forged, before its kind is known.
  let label = { index: 0, kind: '' }
  const watched = () => {
    const { port1, port2 } = new MessageChannel()
    const at = label
    port1.onmessage = (event) => record.heard.push({ ...at, data: describe(event.data) })
    ports.push(port1)
    return port2
  }
  const forge = forger({ ...options, port: watched })
  for (let index = 0; index < options.count; index++) {
    label = { index, kind: '' }
    const forged = forge()
    label.kind = forged.kind
    record.kinds[forged.kind] = (record.kinds[forged.kind] ?? 0) + 1
    if (forged.id !== undefined && forged.answer !== 'none') record.answers.set(forged.id, forged.answer)
    try {
      options.post(forged.data, [watched(), ...forged.transfer])
    } catch (error) {
      record.unsent.push(`${index} ${forged.kind}: ${describe(error)}`)
    }
  }
  record.close = () => {
    for (const port of ports) port.close()
  }
  return record
}
