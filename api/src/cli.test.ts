import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { bundle } from '../scripts/build.ts'

// The built command line, as an operator runs it (`node dist/cli.js`), bundled into a folder of its own: run
// from the sources, each run spent ~4 s of CPU more in tsx loading the whole service than in the command.
const dist = mkdtempSync(join(tmpdir(), 'airlock-cli-dist-'))
const data = mkdtempSync(join(tmpdir(), 'airlock-cli-'))

beforeAll(() => bundle(dist), 120_000)

/** Runs the admin command line on a PGlite folder of its own, the way an operator would. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(dist, 'cli.js'), ...args], {
      env: { ...process.env, AIRLOCK_DATA: data, DATABASE_URL: '' },
    })
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: failed.stdout + failed.stderr }
  }
}

describe('airlock-api project', () => {
  it('adds, lists and removes projects and origins', async () => {
    expect(await run('project', 'add', 'shop', 'https://shop.example', 'http://localhost:*')).toMatchObject({
      code: 0,
    })
    expect((await run('project', 'analytics', 'shop', 'on')).code).toBe(0)
    expect((await run('project', 'list')).out).toContain(
      'shop\tanalytics on\thttp://localhost:* https://shop.example',
    )
    expect((await run('project', 'remove', 'shop', 'http://localhost:*')).code).toBe(0)
    expect((await run('project', 'list')).out).toMatch(/shop\tanalytics on\thttps:\/\/shop\.example\n/)
    expect((await run('project', 'remove', 'shop')).code).toBe(0)
    expect((await run('project', 'list')).out).not.toContain('shop')
  }, 240_000)

  it('refuses an origin that is not an origin pattern, and changes nothing', async () => {
    const bad = await run('project', 'add', 'other', 'https://shop.example/path')
    expect(bad.code).toBe(1)
    expect(bad.out).toContain('Invalid origin "https://shop.example/path"')
    expect((await run('project', 'list')).out).not.toContain('other')
    expect((await run('project', 'frobnicate')).code).toBe(2)
  }, 240_000)
})
