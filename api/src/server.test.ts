import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle } from '../scripts/build.ts'
import { closedPort } from './internal/closedPort.ts'

// The built server, as an operator runs it: `npm run build`'s bundle, in a folder of its own (so a build
// running beside this test cannot change it), started with plain node, without tsx or node_modules' help.
const dist = mkdtempSync(join(tmpdir(), 'airlock-dist-'))
const work = mkdtempSync(join(tmpdir(), 'airlock-selfhost-'))
const config = join(work, 'airlock.config.json')
const children: ChildProcess[] = []

beforeAll(async () => {
  await bundle(dist)
  writeFileSync(
    config,
    JSON.stringify({
      apiUrl: 'http://127.0.0.1:8787',
      modalOrigin: 'http://127.0.0.1:5174',
      dataDir: 'state',
      chains: [
        {
          id: 'eip155:1',
          name: 'Ethereum',
          rpcUrl: `http://127.0.0.1:${await closedPort()}`,
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        },
      ],
    }),
  )
})

afterAll(() => {
  for (const child of children) child.kill('SIGTERM')
})

/** The environment of the processes: no database unless a test names one. */
let env: Record<string, string | undefined> = {}

/** Runs `node dist/<script>` from an unrelated working directory, with no database in the environment. */
async function node(script: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(dist, script), ...args], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH, AIRLOCK_CONFIG: config, ...env },
    })
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: failed.stdout + failed.stderr }
  }
}

/** The price the running server answers for ETH on eip155:1, if it knows one. */
async function ethPrice(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/v1/fungible/price`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
    body: JSON.stringify({
      projectId: 'shop',
      currency: 'usd',
      addresses: ['eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'],
    }),
  })
  return ((await response.json()) as { fungibles: { price: number }[] }).fungibles[0]?.price
}

/** Starts the built server on a free port (with more of `serve`'s flags) and waits for its health check. */
async function serve(
  port: number,
  ...args: string[]
): Promise<{ url: string; pid: number | undefined; stop(): Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    [join(dist, 'server.js'), '--config', config, '--api-port', `${port}`, ...args],
    {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.push(child)
  let log = ''
  child.stdout?.on('data', (chunk) => {
    log += chunk
  })
  child.stderr?.on('data', (chunk) => {
    log += chunk
  })
  const url = `http://127.0.0.1:${port}`
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server ended (${child.exitCode}): ${log}`)
        return (await fetch(`${url}/health`).catch(() => undefined))?.status
      },
      { timeout: 120_000, interval: 250 },
    )
    .toBe(200)
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code))
        child.kill('SIGTERM')
      }),
  }
}

describe('the built server (node api/dist/server.js)', () => {
  it('starts from a configuration file alone, seeds the registry and serves what the CLI set', async () => {
    expect(await node('cli.js', 'project', 'add', 'shop', 'https://shop.example')).toMatchObject({ code: 0 })
    expect(await node('cli.js', 'prices', 'set', 'eth', '3120.5')).toEqual({
      code: 0,
      out: 'ETH at 3120.5 USD on eip155:1.\n',
    })
    const server = await serve(await closedPort())
    const wallets = await fetch(`${server.url}/getWallets?projectId=shop&page=1&entries=3`)
    expect(wallets.status).toBe(200)
    expect(((await wallets.json()) as { count: number }).count).toBeGreaterThan(50)
    expect(await ethPrice(server.url)).toBe(3120.5)
    expect(await server.stop()).toBe(0)
    // The data stayed beside the configuration file (its dataDir), not in the working directory.
    expect((await node('cli.js', 'prices', 'list')).out).toContain('ETH\t3120.5 USD\teip155:1')
  }, 300_000)

  it('refuses a bad configuration with one line naming the key, and starts nothing', async () => {
    const bad = join(work, 'bad.json')
    writeFileSync(bad, JSON.stringify({ apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'x', chains: [] }))
    const port = await closedPort()
    const run = await node('server.js', '--config', bad, '--api-port', `${port}`)
    expect(run).toEqual({
      code: 1,
      out: '[airlock-api] bad.json: modalOrigin: expected an http(s) origin: scheme, host and port, no path; see api/README.md#configuration.\n',
    })
    expect(await fetch(`http://127.0.0.1:${port}/health`).catch(() => 'refused')).toBe('refused')
    expect((await node('server.js', '--api-port', 'eighty')).out).toContain(
      '--api-port eighty: expected a port',
    )
    expect((await node('server.js', '--workers', '0')).out).toContain(
      '--workers 0: expected a number of processes',
    )
    expect(await node('server.js', '--workers', '2', '--api-port', `${port}`)).toEqual({
      code: 1,
      out: '[airlock-api] --workers needs PostgreSQL (DATABASE_URL): PGlite is one process’s database.\n',
    })
    expect(await fetch(`http://127.0.0.1:${port}/health`).catch(() => 'refused')).toBe('refused')
  })

  it('names an unreachable PostgreSQL (without its password) and a port in use', async () => {
    const closed = await closedPort()
    env = { DATABASE_URL: `postgres://airlock:hunter2@127.0.0.1:${closed}/airlock` }
    const unreachable = await node('server.js').finally(() => {
      env = {}
    })
    expect(unreachable.code).toBe(1)
    expect(unreachable.out).toContain(
      `[airlock-api] DATABASE_URL postgres://airlock:***@127.0.0.1:${closed}/airlock: no connection (`,
    )
    expect(unreachable.out).toContain(
      '): is PostgreSQL running, reachable from here, and is the database created?',
    )
    expect(unreachable.out).not.toContain('hunter2')
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      const run = await node('server.js', '--api-port', `${port}`)
      expect(run.code).toBe(1)
      expect(run.out).toContain(`127.0.0.1:${port} is in use: stop what listens there, or pick another port`)
    } finally {
      taken.close()
    }
  })

  it('tells what the configuration holds, and refuses prices for what it does not name', async () => {
    expect(readFileSync(join(dist, 'cli.js'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    expect(await node('cli.js', 'config', 'check')).toEqual({
      code: 0,
      out: `${config}: valid; 1 chain; database: PGlite in ${join(work, 'state')}.\n`,
    })
    expect((await node('cli.js', 'networks', 'list')).out).toBe('eip155:1\tEthereum\tETH\t0 tokens\n')
    expect(await node('cli.js', 'tokens', 'list', 'eip155:10')).toMatchObject({ code: 1 })
    expect(await node('cli.js', 'prices', 'set', 'DOGE', '0.1')).toEqual({
      code: 1,
      out: "No chain of the configuration has DOGE as its native currency or a token: add the token to its chain's tokens first.\n",
    })
    const notANumber = await node('cli.js', 'prices', 'set', 'ETH', '3k')
    expect(notANumber.code).toBe(2)
    expect(notANumber.out).toContain('the price is a positive number of USD, like 3000 or 0.9998')
    expect((await node('cli.js', 'frobnicate')).code).toBe(2)
  })
})

const server = process.env.AIRLOCK_TEST_DATABASE_URL
const reason = server ? '' : ' (skipped: needs AIRLOCK_TEST_DATABASE_URL)'

describe('the built server on PostgreSQL', () => {
  it.skipIf(!server)(
    `serves a price the CLI sets while it runs, from two workers${reason}`,
    async () => {
      const { default: pg } = await import('pg')
      const admin = new pg.Client({ connectionString: server })
      await admin.connect()
      const name = `airlock_selfhost_${process.pid}_${Date.now()}`
      await admin.query(`create database ${name}`)
      const url = new URL(server as string)
      url.pathname = `/${name}`
      env = { DATABASE_URL: url.toString() }
      try {
        expect((await node('cli.js', 'project', 'add', 'shop', 'https://shop.example')).code).toBe(0)
        const running = await serve(await closedPort(), '--workers', '2')
        // The primary forked two processes, which answer on its port (Linux lists a process's children).
        const workers = readFileSync(`/proc/${running.pid}/task/${running.pid}/children`, 'utf8').trim()
        expect(workers.split(' ')).toHaveLength(2)
        expect(await ethPrice(running.url)).toBeUndefined()
        expect((await node('cli.js', 'prices', 'set', 'ETH', '2999')).code).toBe(0)
        expect(await ethPrice(running.url)).toBe(2999)
        expect(await running.stop()).toBe(0)
        for (const pid of workers.split(' ')) expect(() => process.kill(Number(pid), 0)).toThrow()
      } finally {
        env = {}
        await admin.query(`drop database if exists ${name} with (force)`)
        await admin.end()
      }
    },
    300_000,
  )
})
