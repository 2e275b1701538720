/**
 * The modal origin: the static build of `modal-app` (with the host SDK's `/airlock.js` beside it). Every
 * HTML response carries CSP `frame-ancestors` with the origins of the project in its URL, so a browser
 * refuses to frame the modal on any page the project did not list, and the HTML is told where the API is.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { Hono } from 'hono'
import type { Database } from '../../Database.ts'
import * as Projects from '../projects/Projects.ts'

export type ModalOriginOptions = {
  db: Pick<Database, 'query'>
  /** The modal app's build folder (`modal-app/dist`). */
  dir: string
  /** Written into the HTML's `<meta name="airlock:api">`, where the modal reads it. */
  apiUrl: string
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/** The host SDK's scripts: loaded by dApps on other origins, as classic or module scripts. */
const hostScript = /^\/airlock(-[a-z0-9]+)?\.js$/

/**
 * @example
 * const modal = ModalOrigin.create({ db, dir: 'modal-app/dist', apiUrl: 'http://127.0.0.1:8787' })
 */
export function create(options: ModalOriginOptions): Hono {
  // The build is small and fixed while the service runs, so it is read once: nothing on disk outside the
  // build can ever be served, whatever the path says.
  const files = load(options.dir)
  const index = files.get('/index.html')
  if (!index) throw new Error(`${options.dir} has no index.html: build modal-app first (npm run build).`)
  const html = new TextDecoder()
    .decode(index)
    .replace(/(<meta name="airlock:api" content=")[^"]*(")/, `$1${escapeAttribute(options.apiUrl)}$2`)

  const app = new Hono()
  app.get('*', async (c) => {
    const path = c.req.path
    const file = path === '/' || path === '/index.html' ? undefined : files.get(path)
    if (file) {
      const headers: Record<string, string> = {
        'Content-Type': types[extname(path)] ?? 'application/octet-stream',
        'X-Content-Type-Options': 'nosniff',
        // Vite names assets by content hash; the host scripts keep their names, so they revalidate.
        'Cache-Control': path.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=300, must-revalidate',
      }
      if (hostScript.test(path)) headers['Access-Control-Allow-Origin'] = '*'
      return c.body(file as Uint8Array<ArrayBuffer>, 200, headers)
    }
    if (extname(path) !== '' && path !== '/index.html') return c.text('Not found', 404)
    const projectId = c.req.query('projectId') ?? ''
    const project = Projects.isId(projectId) ? await Projects.find(options.db, projectId) : undefined
    return c.html(html, 200, {
      'Content-Security-Policy': `frame-ancestors ${Projects.frameAncestors(project?.origins)}; base-uri 'none'; object-src 'none'`,
      'Cache-Control': 'no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    })
  })
  return app
}

function load(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else files.set(`/${relative(dir, path).split(sep).join('/')}`, readFileSync(path))
    }
  }
  walk(dir)
  return files
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)
}
