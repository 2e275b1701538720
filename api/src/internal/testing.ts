/**
 * Test support: the databases the suite runs against. PGlite always; PostgreSQL too when
 * `AIRLOCK_TEST_DATABASE_URL` names a server the tests may create databases on (`.ci/run` starts one).
 * Each opened database is a fresh one, dropped afterwards.
 */
import * as Database from '../Database.ts'
import { memoryDatabase } from './memoryDatabase.ts'

export type TestDatabase = { engine: string; open(): Promise<Database.Database> }

let serial = 0

export function databases(): TestDatabase[] {
  const url = process.env.AIRLOCK_TEST_DATABASE_URL
  const pglite: TestDatabase = {
    engine: 'pglite',
    open: memoryDatabase,
  }
  if (!url) return [pglite]
  return [
    pglite,
    {
      engine: 'postgres',
      async open() {
        const { default: pg } = await import('pg')
        const name = `airlock_test_${process.pid}_${++serial}_${Date.now()}`
        const admin = new pg.Client({ connectionString: url })
        await admin.connect()
        await admin.query(`create database ${name}`)
        await admin.end()
        const target = new URL(url)
        target.pathname = `/${name}`
        const db = await Database.open({ url: target.toString() })
        return {
          ...db,
          async close() {
            await db.close()
            const cleanup = new pg.Client({ connectionString: url })
            await cleanup.connect()
            await cleanup.query(`drop database if exists ${name}`)
            await cleanup.end()
          },
        }
      },
    },
  ]
}
