/**
 * `npm run test:packages`: each published package (published.ts) as a user gets it. Builds it, `npm pack`s
 * it, installs the tarballs into a fresh project under the OS temp folder (outside the workspace, so
 * nothing resolves to source), then checks: a plain Node ESM import, a CommonJS require, `tsc --noEmit`
 * under `moduleResolution` bundler and node16 (ESM and CJS files), publint and attw on the tarball.
 * Prints each check; exits non-zero if any fails, keeping the temp project for a look.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Published, published } from './published.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const bin = (name: string) => join(repo, 'node_modules/.bin', name)
const nameOf = (dir: string): string => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')).name

let failures = 0
const run = (command: string, args: string[], cwd: string): SpawnSyncReturns<string> =>
  spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
/** Runs one check, printing ✓ or ✗ with what the command said. */
const check = (label: string, command: string, args: string[], cwd: string) => {
  const started = Date.now()
  const result = run(command, args, cwd)
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status === 0) return console.log(`  ✓ ${label} (${seconds} s)`)
  failures++
  console.log(`  ✗ ${label}\n${`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`.trim()}\n`)
}
/** A step every later check needs: failing it ends the run. */
const must = (label: string, command: string, args: string[], cwd: string): string => {
  const result = run(command, args, cwd)
  if (result.status === 0) return result.stdout
  console.error(`✗ ${label}\n${result.stdout}${result.stderr}${result.error ?? ''}`)
  process.exit(1)
}

const names = published.map((p) => nameOf(p.dir))
console.log(`Building ${names.join(', ')}`)
must(
  'build',
  bin('turbo'),
  ['run', 'build', '--output-logs=errors-only', ...names.map((n) => `--filter=${n}`)],
  repo,
)

const temp = mkdtempSync(join(tmpdir(), 'airlock-packages-'))
const project = join(temp, 'project')
mkdirSync(project)
const tarballs = published.map((p) => {
  const [packed] = JSON.parse(
    must(`npm pack ${p.dir}`, 'npm', ['pack', '--json', '--pack-destination', temp], join(repo, p.dir)),
  )
  console.log(`Packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} KB`)
  return join(temp, packed.filename)
})

writeFileSync(
  join(project, 'package.json'),
  `${JSON.stringify({ name: 'airlock-packages-check', private: true, type: 'module' })}\n`,
)
const peers = published.flatMap((p) => p.peers ?? [])
console.log(`Installing into ${project}`)
must(
  'npm install',
  'npm',
  ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...peers],
  project,
)

// The repository's TypeScript, with the user's default of checking the installed declarations too.
const tsconfig = (moduleResolution: 'bundler' | 'node16', files: string[], skipLibCheck = false) => ({
  compilerOptions: {
    strict: true,
    noEmit: true,
    skipLibCheck,
    skipDefaultLibCheck: true,
    target: 'es2022',
    module: moduleResolution === 'bundler' ? 'esnext' : 'node16',
    moduleResolution,
    lib: ['es2022', 'dom'],
    types: [],
    jsx: 'react-jsx',
  },
  files,
})

published.forEach((p: Published, index) => {
  const name = names[index] as string
  console.log(`${name}`)
  const dir = join(project, p.dir.replaceAll('/', '-'))
  mkdirSync(dir)
  writeFileSync(join(dir, 'esm.mjs'), p.esm)
  writeFileSync(join(dir, 'cjs.cjs'), p.cjs)
  writeFileSync(join(dir, 'types.ts'), p.types)
  writeFileSync(join(dir, 'types.cts'), p.types)
  writeFileSync(join(dir, 'tsconfig.bundler.json'), JSON.stringify(tsconfig('bundler', ['types.ts'])))
  writeFileSync(
    join(dir, 'tsconfig.node16.json'),
    // wagmi's own dependency (mipd) has declarations node16 refuses, whoever imports it; the bundler check
    // above and attw still read this package's declarations.
    JSON.stringify(tsconfig('node16', p.esmOnly ? ['types.ts'] : ['types.ts', 'types.cts'], p.esmOnly)),
  )
  check('Node ESM import', 'node', ['esm.mjs'], dir)
  check('Node CommonJS require', 'node', ['cjs.cjs'], dir)
  check('tsc --noEmit, moduleResolution bundler', 'node', [bin('tsc'), '-p', 'tsconfig.bundler.json'], dir)
  check(
    'tsc --noEmit, moduleResolution node16 (ESM and CJS)',
    'node',
    [bin('tsc'), '-p', 'tsconfig.node16.json'],
    dir,
  )
  const tarball = tarballs[index] as string
  check('publint --strict', bin('publint'), ['run', tarball, '--strict'], temp)
  const profile = p.esmOnly ? ['--profile', 'esm-only'] : []
  check(
    'attw (are the types wrong)',
    bin('attw'),
    [tarball, '--format', 'ascii', '--no-emoji', ...profile],
    temp,
  )
})

if (failures) {
  console.error(`\n${failures} check(s) failed; the installed project is kept at ${project}`)
  process.exit(1)
}
rmSync(temp, { recursive: true, force: true })
console.log(`\nAll ${names.length} package(s) pass.`)
