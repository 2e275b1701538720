/**
 * Test support: a small modal build in a temporary folder, shaped as `modal-app/dist` is.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The files of the build, by URL path. */
export const files = {
  '/index.html':
    '<!doctype html>\n<html>\n  <head>\n    <meta name="airlock:api" content="http://127.0.0.1:8787" />\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
  // Long enough that gzip and brotli make it smaller, as they do the real chunks.
  '/assets/index-abc123.js': 'console.log("the modal, chunk one")\n'.repeat(200),
  '/airlock.js': `/* host sdk */\n${'window.airlock = window.airlock || {}\n'.repeat(50)}`,
  '/approve.html': '<!doctype html>\n<html><head><title>Approve</title></head></html>\n',
  '/assets/logo-def456.png': '\x89PNG\r\n\x1a\n not really an image',
} as const

/** Writes the build, and a secret beside it that must never be served. */
export function write(): string {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-modal-'))
  mkdirSync(join(dir, 'assets'))
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content)
  writeFileSync(join(dir, '..', 'secret.txt'), 'secret')
  return dir
}
