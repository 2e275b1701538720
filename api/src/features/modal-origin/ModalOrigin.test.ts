import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Database from '../../Database.ts'
import * as Projects from '../projects/Projects.ts'
import * as ModalOrigin from './ModalOrigin.ts'

const dir = mkdtempSync(join(tmpdir(), 'airlock-modal-'))
mkdirSync(join(dir, 'assets'))
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><meta name="airlock:api" content="http://127.0.0.1:8787" /><div id="root"></div>',
)
writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)')
writeFileSync(join(dir, 'airlock.js'), '/* host sdk */')
writeFileSync(join(tmpdir(), 'secret.txt'), 'secret')

let db: Database.Database
let modal: ReturnType<typeof ModalOrigin.create>
beforeAll(async () => {
  db = await Database.open({ url: undefined, dataDir: 'memory://' })
  await Projects.add(db, 'demo', ['http://localhost:*', 'https://*.shop.example'])
  await Projects.add(db, 'lonely')
  modal = ModalOrigin.create({ db, dir, apiUrl: 'https://api.example/"><script>' })
})
afterAll(() => db?.close())

describe('modal origin', () => {
  it("sends the project's origins as CSP frame-ancestors with the HTML", async () => {
    const response = await modal.request('/?projectId=demo&config=%7B%7D')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(response.headers.get('Content-Security-Policy')).toBe(
      "frame-ancestors http://localhost:* https://*.shop.example; base-uri 'none'; object-src 'none'",
    )
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
  })

  it('lets no page frame the modal of an unknown project, or one without origins', async () => {
    for (const query of ['?projectId=nope', '', '?projectId=lonely', '?projectId=%27self%27']) {
      const response = await modal.request(`/${query}`)
      expect(response.headers.get('Content-Security-Policy'), query).toMatch(/^frame-ancestors 'none';/)
    }
  })

  it('tells the HTML where the API is, escaped', async () => {
    const html = await (await modal.request('/?projectId=demo')).text()
    expect(html).toContain(
      '<meta name="airlock:api" content="https://api.example/&#34;&#62;&#60;script&#62;" />',
    )
  })

  it('serves hashed assets immutable, and the host scripts to any origin', async () => {
    const asset = await modal.request('/assets/index-abc123.js')
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(asset.headers.get('Access-Control-Allow-Origin')).toBeNull()
    const script = await modal.request('/airlock.js')
    expect(await script.text()).toBe('/* host sdk */')
    expect(script.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(script.headers.get('Cache-Control')).toBe('public, max-age=300, must-revalidate')
  })

  it('serves nothing outside the build', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/missing.js', '/index.js']) {
      expect((await modal.request(path)).status, path).toBe(404)
    }
  })
})
