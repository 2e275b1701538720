/**
 * The modal origin: the static build of `modal-app` (with the host SDK's `/airlock.js` beside it). Every
 * HTML response carries CSP `frame-ancestors` with the origins of the project in its URL, so a browser
 * refuses to frame the modal on any page the project did not list, and `script-src 'self'`, so markup
 * slipped into a page runs nothing; the HTML is told where the API is.
 *
 * A page the modal would refuse anyway (unknown project, a `Referer` not on the list, an API it cannot
 * ask) gets a frameable refusal instead of a blank frame: the same HTML with
 * `<meta name="airlock:refusal" content="project|origin|unreachable">`, which the modal shows as an alert
 * and answers every hello with a refusal, so framing it anywhere gives a page nothing.
 */
import { createHash } from 'node:crypto'
import { extname } from 'node:path'
import { Origin } from '@airlock/bridge-protocol'
import { type Context, Hono } from 'hono'
import * as Projects from '../projects/Projects.ts'
import * as Build from './Build.ts'
import type * as Origins from './Origins.ts'

export type ModalOriginOptions = {
  /** The modal app's build folder (`modal-app/dist`). */
  dir: string
  /** Written into the HTML's `<meta name="airlock:api">`, where the modal reads it. */
  apiUrl: string
  /** Where each project's allowed origins come from. */
  origins: Origins.Source
}

/** Why the modal refuses the page, as the HTML tells it. */
type Refusal = 'project' | 'origin' | 'unreachable'

/** The modal origin's app; `compressed` settles once every brotli encoding is in. */
export type ModalOrigin = Hono & { compressed: Promise<void> }

/** The host SDK's scripts: loaded by dApps on other origins, as classic or module scripts. */
const hostScript = /^\/airlock(-[a-z0-9]+)?\.js$/

/**
 * What every page may run: the build's own files, nothing inline, no plugins, no `<base>`. The build writes
 * the same policy into each page (`modal-app/vite.config.ts`) for hosts that send no headers.
 */
const scripts = "script-src 'self'; object-src 'none'; base-uri 'none'"

/**
 * @example
 * const modal = ModalOrigin.create({ dir: 'modal-app/dist', apiUrl, origins: Origins.fromApi(apiUrl) })
 */
export function create(options: ModalOriginOptions): ModalOrigin {
  const files = Build.load(options.dir)
  const index = files.get('/index.html')
  if (!index) throw new Error(`${options.dir} has no index.html: build modal-app first (npm run build).`)
  files.delete('/index.html')
  const html = new TextDecoder()
    .decode(index.identity.bytes)
    .replace(/(<meta name="airlock:api" content=")[^"]*(")/, `$1${escapeAttribute(options.apiUrl)}$2`)
  const page = (refusal?: Refusal) =>
    Build.encode(new TextEncoder().encode(withRefusal(html, refusal)), index.type)
  const pages = {
    ok: page(),
    project: page('project'),
    origin: page('origin'),
    unreachable: page('unreachable'),
  }
  const bodies = [...files.values(), ...Object.values(pages)]

  const app = new Hono()
  app.get('*', async (c) => {
    const path = c.req.path
    const file = files.get(path)
    if (file) return send(c, file, fileHeaders(path, file.type))
    if (extname(path) !== '' && path !== '/index.html') return c.text('Not found', 404)
    const referer = c.req.header('Referer')
    const { refusal, ancestors } = await decide(options.origins, c.req.query('projectId'), referer)
    const csp = `frame-ancestors ${ancestors}; ${scripts}`
    return send(c, pages[refusal ?? 'ok'], pageHeaders(index.type, csp), csp)
  })
  return Object.assign(app, { compressed: Promise.all(bodies.map((body) => body.compressed)).then(() => {}) })
}

/**
 * What the page gets: a refusal when the modal would refuse it anyway, else the HTML framable by the
 * project's origins. A request without `Referer` (the page's policy withheld it) gets the project's list
 * and lets the browser judge the page.
 */
async function decide(
  origins: Origins.Source,
  projectId: string | undefined,
  referer: string | undefined,
): Promise<{ refusal?: Refusal; ancestors: string }> {
  if (!Projects.isId(projectId)) return { refusal: 'project', ancestors: '*' }
  const answer = await origins(projectId)
  if (answer.kind === 'unknown') return { refusal: 'project', ancestors: '*' }
  if (answer.kind === 'unreachable') return { refusal: 'unreachable', ancestors: '*' }
  const page = originOf(referer)
  if (page !== undefined && !Origin.isAllowed(answer.origins, page))
    return { refusal: 'origin', ancestors: '*' }
  return { ancestors: Projects.frameAncestors(answer.origins) }
}

function pageHeaders(type: string, csp: string): Record<string, string> {
  return {
    'Content-Type': type,
    'Content-Security-Policy': csp,
    'Cache-Control': 'no-cache',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    // The answer depends on the page asking; no shared cache may hand one page's answer to another.
    Vary: 'Referer',
  }
}

function fileHeaders(path: string, type: string): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff' }
  // Vite names assets by content hash, so they never change; the rest keep their names and revalidate.
  if (path.startsWith('/assets/')) headers['Cache-Control'] = 'public, max-age=31536000, immutable'
  else if (type.startsWith('text/html')) {
    // Any other page (the approval window) is a window of its own: framed, it could be covered.
    headers['Cache-Control'] = 'no-cache'
    headers['Content-Security-Policy'] = `frame-ancestors 'none'; ${scripts}`
  } else headers['Cache-Control'] = 'public, max-age=300, must-revalidate'
  if (hostScript.test(path)) headers['Access-Control-Allow-Origin'] = '*'
  return headers
}

/**
 * Sends the representation the client accepts, or 304 when it already holds it. `salt` is what else the
 * answer depends on (the HTML's CSP), so a changed project list is a changed ETag.
 */
function send(c: Context, body: Build.Body, headers: Record<string, string>, salt?: string): Response {
  const chosen = Build.negotiate(body, c.req.header('Accept-Encoding'))
  const etag = salt === undefined ? chosen.etag : `"${hashOf(`${chosen.etag}${salt}`)}"`
  const all: Record<string, string> = { ...headers, ETag: etag }
  if (body.compressible) all.Vary = all.Vary ? `${all.Vary}, Accept-Encoding` : 'Accept-Encoding'
  if (Build.matches(c.req.header('If-None-Match'), etag)) return c.body(null, 304, all)
  if (chosen.encoding) all['Content-Encoding'] = chosen.encoding
  return c.body(chosen.bytes as Uint8Array<ArrayBuffer>, 200, all)
}

function withRefusal(html: string, refusal: Refusal | undefined): string {
  if (!refusal) return html
  return html.replace('</head>', `  <meta name="airlock:refusal" content="${refusal}" />\n  </head>`)
}

/** The origin of a `Referer`, or `undefined` when there is none to judge. */
function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined
  try {
    const { origin } = new URL(referer)
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 27)
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)
}
