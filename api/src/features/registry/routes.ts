/**
 * The wallet registry: `GET /getWallets` and the images it points at (`/getWalletImage/{id}`, and the
 * asset, currency and token images under `/public/`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { parse } from '../../http/validate.ts'
import * as Build from '../modal-origin/Build.ts'
import * as Registry from './Registry.ts'

export type RegistryOptions = {
  db: Pick<Database, 'query'>
  /** The clock of the answers kept. @default Date.now */
  now?: (() => number) | undefined
}

/**
 * How long a page of the registry is answered from memory: it changes only when an operator seeds it again
 * (`airlock-api seed registry`), which every process shows within a minute. A flood of one search (the
 * modal's first page, a popular word) is then one query a minute, and each answer bytes already encoded.
 */
const answerTtlMs = 60_000
/** Pages kept at most (a search per keystroke makes many); past them the store starts afresh. */
const maxAnswers = 1_000

/**
 * A page as it is sent: its JSON in each encoding, each with its strong ETag (a browser asking again gets a
 * 304) and its headers, written once for all the requests the page answers.
 */
type Page = { body: Build.Body; headersOf(chosen: Build.Representation): Record<string, string> }

/** JSON compresses well (a page of 40 wallets: 15 KB, 3.4 KB in gzip); fast levels, as pages change. */
const effort: Build.Effort = { gzip: 6, brotli: 5 }

function pageOf(json: string): Page {
  const body = Build.encode(new TextEncoder().encode(json), 'application/json', effort)
  const written = new Map<Build.Representation, Record<string, string>>()
  return {
    body,
    headersOf(chosen) {
      let headers = written.get(chosen)
      if (!headers) {
        headers = {
          'Content-Type': 'application/json',
          ETag: chosen.etag,
          Vary: 'Accept-Encoding',
          ...(chosen.encoding ? { 'Content-Encoding': chosen.encoding } : {}),
        }
        written.set(chosen, headers)
      }
      return headers
    },
  }
}

const imageId = S.string(80, 1, /^[A-Za-z0-9_-]+$/)

const imageHeaders = {
  // Image ids never change meaning, so browsers keep them for a year.
  'Cache-Control': 'public, max-age=31536000, immutable',
  // A stored SVG opened on its own must not run anything on the API's origin.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'cross-origin',
}

export function create(options: RegistryOptions): Hono<Env> {
  const { db } = options
  const now = options.now ?? Date.now
  const app = new Hono<Env>()
  const answers = new Map<string, { at: number; page: Promise<Page> }>()
  /** The page: from memory while fresh, one query for all the requests that ask meanwhile. */
  const answer = (query: Contract.WalletsQuery) => {
    // The fields as sent, not the query built from them: a hit, the commonest case, allocates nothing more.
    const search = query.search?.trim() || undefined
    const key = `${query.page}|${query.entries}|${query.include}|${query.exclude}|${query.chains}|${search}|${query.badge_type}`
    const kept = answers.get(key)
    if (kept && now() - kept.at < answerTtlMs) return kept.page
    if (answers.size >= maxAnswers) answers.clear()
    const split = (value: string | undefined) => (value ? value.split(',') : undefined)
    const page = Registry.wallets(db, {
      page: Number(query.page ?? 1),
      entries: Number(query.entries ?? 40),
      include: split(query.include),
      exclude: split(query.exclude),
      chains: split(query.chains),
      search,
      badgeType: query.badge_type,
    }).then((found) => pageOf(JSON.stringify(found satisfies Contract.WalletsAnswer)))
    answers.set(key, { at: now(), page })
    // A failed query is not kept.
    page.catch(() => answers.delete(key))
    return page
  }

  app.get('/getWallets', async (c) => {
    const page = await answer(known(c, Contract.walletsQuery))
    const chosen = Build.negotiate(page.body, c.req.header('Accept-Encoding'))
    const headers = page.headersOf(chosen)
    // A Response of its own rather than c.body: Hono copies headers it is given into a fetch Headers.
    if (Build.matches(c.req.header('If-None-Match'), chosen.etag))
      return new Response(null, { status: 304, headers })
    return new Response(chosen.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers })
  })

  const imageRoute = (path: string, kind: Registry.ImageKind) =>
    app.get(path, async (c) => {
      known(c, Contract.commonQuery)
      const image = await Registry.image(db, kind, parse(imageId, c.req.param('id')))
      if (!image) throw new HttpError(404, messages.notFound)
      const headers = { ETag: image.etag, ...imageHeaders }
      if (c.req.header('If-None-Match') === image.etag) return c.body(null, 304, headers)
      return c.body(image.body as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        'Content-Type': image.contentType,
      })
    })
  imageRoute('/getWalletImage/:id', 'wallet')
  imageRoute('/public/getAssetImage/:id', 'asset')
  imageRoute('/public/getCurrencyImage/:id', 'currency')
  imageRoute('/public/getTokenImage/:id', 'token')

  return app
}
