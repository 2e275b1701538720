/**
 * A throwaway PostgreSQL for the bench, as `.ci/postgres` starts one for the tests: Debian's server on a
 * data folder and a loopback port of its own, as the `postgres` user when the bench runs as root. Only
 * where PostgreSQL is installed: nothing is installed here.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { closedPort } from '@airlock/api/testing'

export type Postgres = {
  url: string
  /** Another database on the same server, by name: its URL. */
  createDatabase(name: string): Promise<string>
  stop(): void
}

/** Starts one, or says why not (not installed, or it would not start). */
export async function startPostgres(): Promise<Postgres | { missing: string }> {
  // initdb on PATH, else the newest of Debian's (which keeps it off PATH, in a folder per version).
  const root = '/usr/lib/postgresql'
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin/initdb')))
        .sort((a, b) => Number(a) - Number(b))
        .map((name) => join(root, name, 'bin'))
    : []
  const found = [...(process.env.PATH ?? '').split(delimiter), ...debian.reverse()].find(
    (folder) => folder && existsSync(join(folder, 'initdb')),
  )
  // Its own folder, where createdb lies beside it too (PATH may hold a link to initdb alone).
  const bin = found && dirname(realpathSync(join(found, 'initdb')))
  if (!bin) return { missing: 'PostgreSQL is not installed (Debian: apt-get install postgresql)' }
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-postgres-'))
  const port = await closedPort()
  // initdb refuses root: as root, the server runs as the `postgres` user, which must own its folder.
  const asRoot = userInfo().uid === 0
  const run = (command: string, args: string[]) => {
    if (!asRoot) return execFileSync(join(bin, command), args, { stdio: 'ignore' })
    const quoted = [join(bin, command), ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    return execFileSync('su', ['postgres', '-c', quoted.join(' ')], { stdio: 'ignore' })
  }
  try {
    if (asRoot) execFileSync('chown', ['postgres', dir])
    run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres'])
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`
    run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', options, 'start'])
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { missing: `PostgreSQL (${bin}) did not start: ${(error as Error).message}` }
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  return {
    url,
    async createDatabase(name) {
      run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name])
      return url.replace(/\/postgres$/, `/${name}`)
    },
    stop: () => {
      run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
