/**
 * Rate limits: a budget per client address and one per project (`buckets.ts`), both in this process's
 * memory. A request over either is refused with 429, `{ message }` and `Retry-After` (whole seconds), before
 * any work is done for it; a route that finds in the body that the request is worth more than one (a
 * JSON-RPC batch) charges the rest with {@link weigh}. The client is the socket's peer; `X-Forwarded-For` counts only when the
 * configuration says how many proxies of ours stand in front (`trustedProxies`), because anyone can write it.
 */
import { isIPv6 } from 'node:net'
import type { Context, MiddlewareHandler } from 'hono'
import type * as Config from '../Config.ts'
import type * as Buckets from './buckets.ts'
import { HttpError, messages } from './errors.ts'
import type { Env } from './project.ts'

export type Limits = {
  /** Per client address (an IPv6 client counts by its /64, what one host is usually given). */
  perClient: Buckets.Budget
  /** Per configured project, whoever calls in its name. */
  perProject: Buckets.Budget
  /** A request still unanswered after this long is answered 503 and its work abandoned. */
  requestTimeoutMs: number
  /** How many proxies of ours append to `X-Forwarded-For` in front of the API; 0 trusts none of it. */
  trustedProxies: number
}

/**
 * Far above what a person's browser does (a modal opening the wallet list asks for about 50 things at
 * once) and what the e2e suite does from its one address, far below what a flood of 200 connections does.
 */
export const defaults: Limits = {
  perClient: { burst: 600, perSecond: 100, inFlight: 64 },
  perProject: { burst: 5_000, perSecond: 1_000, inFlight: 512 },
  requestTimeoutMs: 10_000,
  trustedProxies: 0,
}

/** The limits of a configuration: what it sets, the {@link defaults} for the rest. */
export function resolve(configured: Config.Config['limits']): Limits {
  const budget = (base: Buckets.Budget, set: Partial<Buckets.Budget> = {}): Buckets.Budget => ({
    burst: set.burst ?? base.burst,
    perSecond: set.perSecond ?? base.perSecond,
    inFlight: set.inFlight ?? base.inFlight,
  })
  return {
    perClient: budget(defaults.perClient, configured?.perClient),
    perProject: budget(defaults.perProject, configured?.perProject),
    requestTimeoutMs: configured?.requestTimeoutMs ?? defaults.requestTimeoutMs,
    trustedProxies: configured?.trustedProxies ?? defaults.trustedProxies,
  }
}

/** Refuses a client over its budget; first in the chain, so a flood costs no lookup at all. */
export function perClient(buckets: Buckets.Buckets, trustedProxies: number): MiddlewareHandler {
  return (c, next) => admit(c, buckets.take(clientOf(c, trustedProxies)), next)
}

/**
 * Who a request counts against: its client's address ({@link clientKey}), read as the rate limits read it.
 * @example const client = Limits.clientOf(c, Limits.resolve(config.limits).trustedProxies) // '203.0.113.7'
 */
export function clientOf(c: Context, trustedProxies: number): string {
  return clientKey(clientAddress(c, trustedProxies))
}

/** Refuses a project over its budget; after the project lookup, so only configured projects hold one. */
export function perProject(buckets: Buckets.Buckets): MiddlewareHandler<Env> {
  return async (c, next) => {
    const project = c.get('project')
    if (!project) return next()
    return admit(c, buckets.take(project.id), next)
  }
}

/**
 * Charges a request worth `weight` requests to every budget that admitted it (the client's, then the
 * project's), as if it had been that many; throws the usual 429 when one of them holds less.
 * @example
 * Limits.weigh(c, request.calls.length) // a batch of 20 costs 20
 */
export function weigh(c: Context, weight: number): void {
  for (const admission of admitted.get(c) ?? []) {
    const charged = admission.weigh(weight)
    if (!charged.ok) throw tooMany(charged)
  }
}

/** The admissions a request holds, by its context: one per budget, in the order they were taken. */
const admitted = new WeakMap<Context, Buckets.Taken[]>()

async function admit(
  c: Context,
  admission: Buckets.Admission,
  next: () => Promise<void>,
): Promise<Response | undefined> {
  // Answered here, not thrown: a refusal under a flood is the commonest answer, and an Error's stack costs
  // more than the rest of it.
  if (!admission.ok)
    return c.json({ message: messages.tooManyRequests }, 429, {
      'Retry-After': String(admission.retryAfterS),
    })
  admitted.set(c, [...(admitted.get(c) ?? []), admission])
  try {
    await next()
  } finally {
    admission.release()
  }
}

function tooMany(refusal: Buckets.Refusal): HttpError {
  return new HttpError(429, messages.tooManyRequests, { 'Retry-After': String(refusal.retryAfterS) })
}

/**
 * The address the request came from: the socket's peer, or with `trustedProxies` n the n-th address of
 * `X-Forwarded-For` counted from the right (each proxy appends the peer it saw, so the ones to the left of
 * ours are whatever the client wrote). Requests made in-process (tests' `app.request`) have no socket.
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket
  const peer = socket?.remoteAddress ?? 'in-process'
  if (trustedProxies === 0) return peer
  const forwarded = (c.req.header('X-Forwarded-For') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  // Fewer entries than proxies: the request went around one of ours, so only its peer is known.
  return forwarded[forwarded.length - trustedProxies] ?? peer
}

/** IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, so one host cannot spread over its many addresses. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped?.[1]) return mapped[1]
  const bare = address.replace(/%.*$/, '')
  if (!isIPv6(bare)) return address
  const [head = '', tail] = bare.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  // A trailing dotted IPv4 part (`64:ff9b::192.0.2.1`) fills two groups.
  const width = right.length + (right.at(-1)?.includes('.') ? 1 : 0)
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - width).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`
}
