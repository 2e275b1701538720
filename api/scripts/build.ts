/**
 * `npm run build`: the server and the command line as plain JavaScript for `node` (no tsx), with all they
 * need in `dist/`, so a container copies that folder and nothing else: `dist/server.js`, `dist/cli.js`, one
 * shared chunk, the wallet registry's seed list and icons and PGlite's WebAssembly and data files, which both read
 * from beside their own module (`new URL(…, import.meta.url)`). The migrations are code, bundled in.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const api = fileURLToPath(new URL('..', import.meta.url))

/** Files read at run time from beside the module that reads them, which lands in `dist/`. */
const pglite = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
const assets = [
  join(api, 'src/features/registry/wallets.json'),
  join(api, 'src/features/registry/wallet-icons.json'),
  ...['pglite.wasm', 'pglite.data', 'initdb.wasm'].map((name) => join(pglite, name)),
]

/** Builds into `dist` (the server test builds a fresh copy into a folder of its own). */
export async function bundle(dist = join(api, 'dist')): Promise<void> {
  rmSync(dist, { recursive: true, force: true })
  mkdirSync(dist, { recursive: true })
  await build({
    entryPoints: { server: join(api, 'src/server.ts'), cli: join(api, 'src/cli.ts') },
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages from their TypeScript source, as everywhere in the repository (vitest.config.ts).
    conditions: ['@airlock/source'],
    // pg's native bindings are an optional peer it asks for only when told to; nodemailer and pg are CommonJS
    // and call require() for Node's own modules, which an ES module has only through createRequire.
    external: ['pg-native'],
    banner: {
      js: "import { createRequire as airlockRequire } from 'node:module'; const require = airlockRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  })
  // The sources' command line runs under tsx (its hashbang says so); the built one needs plain node.
  const cli = join(dist, 'cli.js')
  writeFileSync(cli, readFileSync(cli, 'utf8').replace(/^#!.*\n/, '#!/usr/bin/env node\n'))
  // Chunks stay in dist/ itself (esbuild's default), beside these.
  for (const file of assets) copyFileSync(file, join(dist, basename(file)))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
