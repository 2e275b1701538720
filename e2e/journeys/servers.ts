/** Servers on loopback for pages a journey serves itself, as a dApp in development is served. */
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A real server on loopback for a journey's own pages. A page Playwright fulfils by `page.route` has no
 * address, so Chromium's Local Network Access counts it as a public site and keeps it from framing or
 * calling the local modal; a page served from loopback is local, as a dApp in development is.
 * @example
 * const server = await serve('http://localhost:5178', (path, response) => response.end(html))
 */
export async function serve(
  origin: string,
  respond: (path: string, response: ServerResponse, request: IncomingMessage) => void,
): Promise<{ close(): Promise<void> }> {
  const { hostname, port } = new URL(origin)
  const server: Server = createServer((request, response) =>
    respond(new URL(request.url ?? '/', origin).pathname, response, request),
  )
  await new Promise<void>((resolve, reject) => {
    // A port still held by an earlier run fails the journey at once, rather than hanging it.
    server.once('error', reject)
    server.listen(Number(port), hostname, resolve)
  })
  return { close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/**
 * The demo dApp's build on a site of its own: `http://<host>:<free port>`, served from loopback (the
 * browser maps `host` there with `--host-resolver-rules`, DNS only; `localhost` is loopback already), its
 * script tag naming `projectId`, a project that allows that site, and its pages sent with `headers`.
 * @example
 * const dapp = await serveDapp('dapp.test', 'sites')
 * await page.goto(dapp.origin)
 */
export async function serveDapp(
  host: string,
  projectId: string,
  headers: Record<string, string> = {},
): Promise<{ origin: string; close(): Promise<void> }> {
  const dist = fileURLToPath(new URL('../../examples/dapp/dist/', import.meta.url))
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://dapp').pathname
    const file = normalize(join(dist, path === '/' ? 'index.html' : path))
    const body = file.startsWith(dist) ? await readFile(file).catch(() => undefined) : undefined
    if (!body) return void response.writeHead(404).end()
    const page = extname(file) === '.html'
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      ...(page ? headers : {}),
    })
    response.end(
      page ? body.toString().replace('data-project-id="demo"', `data-project-id="${projectId}"`) : body,
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://${host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
