import { describe, expect, it } from 'vitest'
import * as Database from './Database.ts'

const server = process.env.AIRLOCK_TEST_DATABASE_URL
const reason = server ? '' : ' (skipped: needs AIRLOCK_TEST_DATABASE_URL)'

describe('the database on PostgreSQL', () => {
  it.skipIf(!server)(
    `outlives its idle connections being ended by the server, and answers the next query${reason}`,
    async () => {
      const { default: pg } = await import('pg')
      const admin = new pg.Client({ connectionString: server })
      await admin.connect()
      const name = `airlock_restart_${process.pid}_${Date.now()}`
      await admin.query(`create database ${name}`)
      const url = new URL(server as string)
      url.pathname = `/${name}`
      const db = await Database.open({ url: url.toString() })
      try {
        // Several idle connections in the pool, as after any burst of requests.
        await Promise.all(Array.from({ length: 4 }, () => db.query('select pg_sleep(0.05)')))
        const ended = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
        expect(ended.rowCount).toBeGreaterThan(0)
        // The pool heard each one go (an unheard one would have ended this process) and connects again.
        await expect.poll(async () => (await db.query<{ one: number }>('select 1 as one'))[0]?.one).toBe(1)
      } finally {
        await db.close()
        await admin.query(`drop database if exists ${name} with (force)`)
        await admin.end()
      }
    },
  )
})
