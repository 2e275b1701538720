/**
 * Where the modal origin learns a project's allowed origins for its CSP: from the database when it runs in
 * the API's process, from the API over HTTP when it runs apart. Apart, it never opens the database, and
 * it remembers answers so that a flooded or dead API delays at most the first page of a project.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { messages } from '../../http/errors.ts'
import * as Projects from '../projects/Projects.ts'

/** What is known of a project: its origins, that it is not configured, or nothing (the API did not answer). */
type Answer = { kind: 'known'; origins: readonly string[] } | { kind: 'unknown' } | { kind: 'unreachable' }

/** Looks a project up; never throws (a failure is `unreachable`). */
export type Source = (projectId: string) => Promise<Answer>

const unknown: Answer = { kind: 'unknown' }
const unreachable: Answer = { kind: 'unreachable' }

/**
 * The projects of the database, behind the API's own short memo.
 * @example
 * const origins = Origins.fromDatabase(db)
 */
export function fromDatabase(db: Pick<Database, 'query'>, ttlMs = 5_000): Source {
  const find = Projects.memo(db, ttlMs)
  return async (id) => {
    try {
      const project = await find(id)
      return project ? { kind: 'known', origins: project.origins } : unknown
    } catch (error) {
      console.error('[airlock-modal-origin] could not read project', id, error)
      return unreachable
    }
  }
}

export type FromApiOptions = {
  /** How long an answer is used as it is. @default 30_000 */
  ttlMs?: number
  /** How long after that an answer is still used while a fresh one is asked for. @default 300_000 */
  staleMs?: number
  /** How long a failure is remembered before the API is asked again. @default 5_000 */
  failureTtlMs?: number
  /** How long to wait for the API. @default 3_000 */
  timeoutMs?: number
  /** The most projects remembered; the least recently asked for goes first. @default 1_000 */
  limit?: number
  /** The most questions to the API at once; past them a new project is `unreachable` at once. @default 32 */
  maxPending?: number
  /** @default Date.now */
  now?: () => number
  /** @default globalThis.fetch */
  fetch?: typeof fetch
}

/**
 * Asks `GET {apiUrl}/projects/v1/origins?projectId=…`, remembering answers (see {@link FromApiOptions}).
 * Once a project has been answered, its page never waits for the API again: a stale answer is served while
 * a fresh one is fetched, and kept while the API fails, for `staleMs` at most.
 * @example
 * const origins = Origins.fromApi('http://127.0.0.1:8787')
 * await origins('demo') // { kind: 'known', origins: ['http://localhost:*'] }
 */
export function fromApi(apiUrl: string, options: FromApiOptions = {}): Source {
  const ask = askApi(apiUrl.replace(/\/+$/, ''), options.timeoutMs ?? 3_000, options.fetch ?? fetch)
  return remember(ask, options)
}

function askApi(apiUrl: string, timeoutMs: number, fetcher: typeof fetch): Source {
  return async (id) => {
    const url = `${apiUrl}/projects/v1/origins?projectId=${encodeURIComponent(id)}`
    try {
      const response = await fetcher(url, { signal: AbortSignal.timeout(timeoutMs) })
      const body: unknown = await response.json().catch(() => undefined)
      if (response.ok) {
        const parsed = S.parse(Contract.originsAnswer, body)
        if (parsed.ok) return { kind: 'known', origins: parsed.value.allowedOrigins }
        throw new Error(`unexpected answer: ${parsed.message}`)
      }
      // Only the API's own words make a project unknown: a proxy's 403 is not the API saying so.
      const message = (body as { message?: unknown } | undefined)?.message
      if (response.status === 403 && message === messages.projectNotConfigured) return unknown
      throw new Error(`HTTP ${response.status}`)
    } catch (error) {
      console.error(`[airlock-modal-origin] could not ask ${url}: ${(error as Error).message}`)
      return unreachable
    }
  }
}

type Entry = {
  id: string
  answer: Answer | undefined
  /** Until then the answer is used without asking. */
  freshUntil: number
  /** Until then a known or unknown answer is used while a fresh one is asked for. */
  usableUntil: number
  pending: Promise<Answer> | undefined
}

function remember(ask: Source, options: FromApiOptions): Source {
  const ttlMs = options.ttlMs ?? 30_000
  const staleMs = options.staleMs ?? 300_000
  const failureTtlMs = options.failureTtlMs ?? 5_000
  const limit = options.limit ?? 1_000
  const maxPending = options.maxPending ?? 32
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()

  let pending = 0

  // One question at a time per project, however many pages ask.
  const refresh = (entry: Entry) => {
    if (entry.pending) return entry.pending
    // A flood of made-up project ids must not turn into a flood on the API.
    if (pending >= maxPending) return Promise.resolve(unreachable)
    pending++
    entry.pending = ask(entry.id).then((answer) => {
      const at = now()
      pending--
      entry.pending = undefined
      if (answer.kind !== 'unreachable') {
        Object.assign(entry, { answer, freshUntil: at + ttlMs, usableUntil: at + ttlMs + staleMs })
        return answer
      }
      // The API failed: a usable answer stays, and the API is left alone for a while either way.
      entry.freshUntil = at + failureTtlMs
      if (entry.answer && entry.answer.kind !== 'unreachable' && at < entry.usableUntil) return entry.answer
      Object.assign(entry, { answer, usableUntil: entry.freshUntil })
      return answer
    })
    return entry.pending
  }

  return (id) => {
    let entry = entries.get(id)
    if (entry) entries.delete(id)
    else {
      entry = { id, answer: undefined, freshUntil: 0, usableUntil: 0, pending: undefined }
      // Made-up ids cannot grow the map without bound; the project asked for longest ago goes.
      const oldest = entries.keys().next()
      if (entries.size >= limit && !oldest.done) entries.delete(oldest.value)
    }
    entries.set(id, entry)
    const at = now()
    const { answer } = entry
    if (answer && at < entry.freshUntil) return Promise.resolve(answer)
    const fresh = refresh(entry)
    if (answer && answer.kind !== 'unreachable' && at < entry.usableUntil) return Promise.resolve(answer)
    return fresh
  }
}
