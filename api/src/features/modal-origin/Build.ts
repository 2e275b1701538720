/**
 * The modal's build, read once: every file with its type, a strong ETag (its content hash) and its gzip and
 * brotli encodings, so a request costs a map lookup and never touches the disk or the compressor.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { brotliCompress, constants, gzipSync } from 'node:zlib'

type Encoding = 'br' | 'gzip'

/** One way to send a body: its bytes, their encoding, and the strong ETag of exactly these bytes. */
export type Representation = { bytes: Uint8Array; encoding: Encoding | undefined; etag: string }

/** A body and its encodings. Brotli joins when it is ready; until then gzip answers. */
export type Body = {
  identity: Representation
  gzip?: Representation
  br?: Representation
  /** True for text: the answer then depends on `Accept-Encoding`. */
  compressible: boolean
  /** Settles once every encoding is in. */
  compressed: Promise<void>
}

export type File = Body & { type: string }

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

const compressibleType = /^(text\/|image\/svg|application\/json)/

/**
 * Reads every file under `dir`, keyed by its URL path (`/assets/index-abc.js`). The build is fixed while
 * the process runs, so nothing on disk outside it can ever be served, whatever a path says.
 * @example
 * const files = Build.load('modal-app/dist')
 * files.get('/airlock.js')?.identity.etag
 */
export function load(dir: string): Map<string, File> {
  const files = new Map<string, File>()
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      // Dot files are the build's own (`.vite/manifest.json`), not the site's.
      if (name.startsWith('.')) continue
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else {
        const type = types[extname(name)] ?? 'application/octet-stream'
        // The body itself, not a copy: its brotli encoding is added to it later.
        files.set(
          `/${relative(dir, path).split(sep).join('/')}`,
          Object.assign(encode(readFileSync(path), type), { type }),
        )
      }
    }
  }
  walk(dir)
  return files
}

/** How hard to compress: zlib's gzip level (0..9) and brotli quality (0..11). */
export type Effort = { gzip: number; brotli: number }

/**
 * The body with its ETag and, for text, gzip now and brotli (on libuv's thread pool, so start-up and
 * requests never wait for it) as soon as it is done. A build is compressed once, at its best (the default);
 * an answer computed at run time (a registry page) at an effort that costs about what computing it did.
 */
export function encode(
  bytes: Uint8Array,
  type: string,
  effort: Effort = { gzip: 9, brotli: constants.BROTLI_MAX_QUALITY },
): Body {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27)
  const body: Body = {
    identity: { bytes, encoding: undefined, etag: `"${hash}"` },
    compressible: compressibleType.test(type),
    compressed: Promise.resolve(),
  }
  if (!body.compressible) return body
  const gzip = gzipSync(bytes, { level: effort.gzip })
  // Each encoding is a representation of its own, so it has an ETag of its own.
  if (gzip.length < bytes.length) body.gzip = { bytes: gzip, encoding: 'gzip', etag: `"${hash}-gz"` }
  body.compressed = new Promise<void>((resolve) => {
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: effort.brotli,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    }
    brotliCompress(bytes, { params }, (error, br) => {
      if (!error && br.length < (body.gzip ?? body.identity).bytes.length)
        body.br = { bytes: br, encoding: 'br', etag: `"${hash}-br"` }
      resolve()
    })
  })
  return body
}

/**
 * The representation to send for an `Accept-Encoding` header: brotli, then gzip, then the bytes as they are,
 * honouring `q=0` and `*`.
 */
export function negotiate(body: Body, acceptEncoding: string | undefined): Representation {
  if (!body.compressible || !acceptEncoding) return body.identity
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined)
    weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0)
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
  const [br, gzip] = [weight('br'), weight('gzip')]
  if (body.br && br > 0 && br >= gzip) return body.br
  if (body.gzip && gzip > 0) return body.gzip
  return body.identity
}

/** True when `If-None-Match` names `etag` (compared weakly, as RFC 9110 asks for this header). */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === etag)
}
