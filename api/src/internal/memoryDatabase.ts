/**
 * Test support: a fresh PGlite database in memory at the current schema. Initialising a PGlite cluster and
 * migrating it costs ~4 s of CPU, a copy of one ~1 s, and the unit suite opens dozens; so the first test
 * process makes a template (`Database.template`) and keeps it in the system's temporary folder, named by
 * the migrations and PGlite's version, for every other process and run to copy.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import * as Database from '../Database.ts'
import { migrations } from './migrations.ts'

let template: Promise<Blob> | undefined

/**
 * @example
 * const db = await memoryDatabase()
 */
export async function memoryDatabase(): Promise<Database.Database> {
  template ??= load()
  return Database.open({ template: await template })
}

async function load(): Promise<Blob> {
  const path = join(tmpdir(), `airlock-pglite-template-${key()}.tar`)
  const kept = await readFile(path).catch(() => undefined)
  if (kept) return new Blob([kept])
  const made = await Database.template()
  // Written aside, then renamed: a process reading it meanwhile sees the whole file or none.
  const aside = `${path}.${process.pid}`
  await writeFile(aside, new Uint8Array(await made.arrayBuffer()))
  await rename(aside, path)
  return made
}

/** What the template depends on: the schema's statements and the PGlite build that wrote its files. */
function key(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const pglite = JSON.parse(readFileSync(join(dirname(entry), '../package.json'), 'utf8')) as {
    version: string
  }
  return createHash('sha256')
    .update(JSON.stringify({ migrations, pglite: pglite.version }))
    .digest('hex')
    .slice(0, 16)
}
