/**
 * Two API processes (`airlock-api serve`) on one PostgreSQL, as a deployment scales out: each serves the
 * history route, one of them indexes, and when that process dies without a word (SIGKILL) the other takes
 * over, and no transfer is indexed twice or lost.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import * as Projects from '../projects/Projects.ts'
import { accounts, caughtUp, projectId, sharedPostgres, startChain, waitFor } from './testing.ts'

const cli = fileURLToPath(new URL('../../cli.ts', import.meta.url))
const [alice] = accounts as [Address]
const to = '0x00000000000000000000000000000000000b0b01' as Address

/** Starts `airlock-api serve` and resolves with its API URL once it listens. */
function serve(configPath: string, databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('npx', ['tsx', cli, 'serve', '--config', configPath, '--api-port', '0'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, so a signal reaches npx, tsx and node alike.
    detached: true,
  })
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /Airlock API on (http:\/\/[^\s,]+)/.exec(output)?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve({ url, child })
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)))
  })
}

const stopped = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    // npx runs tsx runs node: the whole group goes.
    if (child.pid) process.kill(-child.pid, signal)
  })

describe('two API processes on one PostgreSQL', () => {
  const reason = process.env.AIRLOCK_TEST_DATABASE_URL
    ? ''
    : ' (skipped: needs AIRLOCK_TEST_DATABASE_URL; PGlite is one process)'

  it.skipIf(!process.env.AIRLOCK_TEST_DATABASE_URL)(
    `both serve history; when the indexing one is killed the other indexes on, nothing twice${reason}`,
    async () => {
      const shared = await sharedPostgres()
      if (!shared) return
      const chain = await startChain(41_003)
      const db = await shared.open()
      const dir = mkdtempSync(join(tmpdir(), 'airlock-replicas-'))
      const children: ChildProcess[] = []
      try {
        await Projects.add(db, projectId, [])
        const configPath = join(dir, 'config.json')
        writeFileSync(
          configPath,
          JSON.stringify({
            chains: [chain.chain],
            apiUrl: 'http://127.0.0.1:8787',
            modalOrigin: 'http://127.0.0.1:5174',
          }),
        )
        const sent = [await chain.send(alice, to)]
        // The first process is alone, so it takes the chain's lock; the second waits for it.
        const first = await serve(configPath, shared.url)
        children.push(first.child)
        await caughtUp(db, chain)
        const second = await serve(configPath, shared.url)
        children.push(second.child)
        const history = async (url: string) => {
          const response = await fetch(`${url}/v1/account/${to}/history?projectId=${projectId}`)
          return ((await response.json()) as { data: { id: string }[] }).data.map((item) => item.id)
        }
        for (let i = 0; i < 3; i++) sent.push(await chain.send(alice, to))
        await caughtUp(db, chain)
        expect((await history(second.url)).sort()).toEqual([...sent].sort())
        expect((await history(first.url)).sort()).toEqual([...sent].sort())

        await stopped(first.child, 'SIGKILL')
        for (let i = 0; i < 3; i++) sent.push(await chain.send(alice, to))
        // PostgreSQL ends the dead process's session, and with it the lock; the survivor takes it.
        await caughtUp(db, chain)
        await waitFor(async () => (await history(second.url)).length === sent.length, 'the survivor')
        expect((await history(second.url)).sort()).toEqual([...sent].sort())
        const rows = await db.query<{ count: number | string }>(
          'select count(*) as count from history_transfers where chain_id = $1 and recipient = $2',
          [chain.chain.id, to.toLowerCase()],
        )
        expect(Number(rows[0]?.count)).toBe(sent.length)
      } finally {
        await Promise.all(children.map((child) => stopped(child, 'SIGTERM')))
        await db.close()
        await chain.stop()
        await shared.drop()
        rmSync(dir, { recursive: true, force: true })
      }
    },
    90_000,
  )
})
