import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Database from '../../Database.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import { configOf } from '../../internal/testApi.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Server from './Server.ts'
import * as TestBuild from './testBuild.ts'

const dir = TestBuild.write()
const refusalOf = (html: string) => /<meta name="airlock:refusal" content="([a-z]+)" \/>/.exec(html)?.[1]

let db: Database.Database
let api: Service.Running
let modal: Server.Spawned
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  await Projects.add(db, 'other', ['https://other.example'])
  api = await Service.listen(Service.create({ db, config: configOf() }), { apiPort: 0 })
  modal = await Server.spawn({ dir, apiUrl: api.apiUrl, port: 0 })
})
afterAll(async () => {
  await modal?.stop()
  await api?.stop()
  await db?.close()
})

describe('the modal origin in a process of its own', () => {
  it('serves the page with the CSP of the project it asked the API for, and refuses a page not on the list', async () => {
    expect(modal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(modal.child.pid).not.toBe(process.pid)
    const allowed = await fetch(`${modal.url}/?projectId=demo`, {
      headers: { Referer: 'http://localhost:5173/' },
    })
    expect(allowed.headers.get('Content-Security-Policy')).toMatch(/^frame-ancestors http:\/\/localhost:\*;/)
    expect(await allowed.text()).toContain(`<meta name="airlock:api" content="${api.apiUrl}" />`)
    const refused = await fetch(`${modal.url}/?projectId=demo`, {
      headers: { Referer: 'https://evil.example/' },
    })
    expect(refusalOf(await refused.text())).toBe('origin')
  })

  it('serves its files gzipped over HTTP', async () => {
    const asset = await fetch(`${modal.url}/assets/index-abc123.js`, {
      headers: { 'Accept-Encoding': 'gzip' },
    })
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    // fetch decodes the body itself; the length on the wire is the compressed one.
    expect(Number(asset.headers.get('Content-Length'))).toBeLessThan(
      TestBuild.files['/assets/index-abc123.js'].length / 10,
    )
    expect(asset.headers.get('Content-Encoding')).toBe('gzip')
    expect(await asset.text()).toBe(TestBuild.files['/assets/index-abc123.js'])
  })

  it('serves pages and files with the API down, a page it never asked about as a refusal', async () => {
    await api.stop()
    const known = await fetch(`${modal.url}/?projectId=demo`)
    expect(known.headers.get('Content-Security-Policy')).toMatch(/^frame-ancestors http:\/\/localhost:\*;/)
    const unasked = await fetch(`${modal.url}/?projectId=other`)
    expect(unasked.status).toBe(200)
    expect(unasked.headers.get('Content-Security-Policy')).toMatch(/^frame-ancestors \*;/)
    expect(refusalOf(await unasked.text())).toBe('unreachable')
    expect((await fetch(`${modal.url}/airlock.js`)).status).toBe(200)
  })

  it('ends when its parent goes away', async () => {
    const orphan = await Server.spawn({ dir, apiUrl: api.apiUrl, port: 0 })
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect((await fetch(`${orphan.url}/airlock.js`)).status).toBe(200)
    // What the child sees when its parent dies, however it dies: its IPC channel closes.
    orphan.child.disconnect()
    await vi.waitFor(() => expect(orphan.child.exitCode).toBe(0))
    await expect(fetch(`${orphan.url}/airlock.js`)).rejects.toThrow()
    expect(logged).toHaveBeenCalledWith('[airlock] The modal origin exited (code 0)')
    logged.mockRestore()
  })

  it('fails to start with the reason when the build is missing', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    await expect(Server.spawn({ dir: `${dir}/missing`, apiUrl: api.apiUrl, port: 0 })).rejects.toThrow(
      /The modal origin exited \(code 1\): .*ENOENT/s,
    )
    stderr.mockRestore()
  })
})
