import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const cli = new URL('./cli.ts', import.meta.url).pathname
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const data = mkdtempSync(join(tmpdir(), 'airlock-cli-'))

/** Runs the admin command line on a PGlite folder of its own, the way an operator would. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    // As its hashbang runs it, less npx's own start-up (a second of CPU a run, ten runs).
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', tsx, cli, ...args], {
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
