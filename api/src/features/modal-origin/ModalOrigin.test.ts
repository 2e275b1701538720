import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Database from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import * as Projects from '../projects/Projects.ts'
import * as ModalOrigin from './ModalOrigin.ts'
import * as Origins from './Origins.ts'
import * as TestBuild from './testBuild.ts'

const dir = TestBuild.write()
const scripts = "script-src 'self'; object-src 'none'; base-uri 'none'"
const demoCsp = `frame-ancestors http://localhost:* https://*.shop.example; ${scripts}`
const anyCsp = `frame-ancestors *; ${scripts}`
const refusalOf = (html: string) => /<meta name="airlock:refusal" content="([a-z]+)" \/>/.exec(html)?.[1]

let db: Database.Database
let modal: ModalOrigin.ModalOrigin
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*', 'https://*.shop.example'])
  await Projects.add(db, 'lonely')
  // No memo, so a test sees an admin's change at once.
  modal = ModalOrigin.create({
    dir,
    apiUrl: 'https://api.example/"><script>',
    origins: Origins.fromDatabase(db, 0),
  })
})
afterAll(() => db?.close())

const page = (query: string, headers: Record<string, string> = {}) => modal.request(`/${query}`, { headers })

describe('the HTML', () => {
  it("is framable by the project's origins, never cached, and varies with the Referer", async () => {
    const response = await page('?projectId=demo&config=%7B%7D')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    expect(response.headers.get('Content-Security-Policy')).toBe(demoCsp)
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
    expect(response.headers.get('Vary')).toBe('Referer, Accept-Encoding')
    expect(refusalOf(await response.text())).toBeUndefined()
  })

  it("is the normal page for a Referer on the project's list", async () => {
    for (const referer of ['http://localhost:3000/shop?item=1', 'https://a.shop.example/']) {
      const response = await page('?projectId=demo', { Referer: referer })
      expect(response.headers.get('Content-Security-Policy'), referer).toBe(demoCsp)
      expect(refusalOf(await response.text()), referer).toBeUndefined()
    }
  })

  it('tells an unknown project why, in a page any site may frame', async () => {
    for (const query of ['?projectId=nope', '', '?projectId=%27self%27', '?projectId=']) {
      const response = await page(query, { Referer: 'http://localhost:3000/' })
      expect(response.status, query).toBe(200)
      expect(response.headers.get('Content-Security-Policy'), query).toBe(anyCsp)
      expect(refusalOf(await response.text()), query).toBe('project')
    }
  })

  it("tells a page whose Referer is not on the project's list why, in a page any site may frame", async () => {
    for (const [query, referer] of [
      ['?projectId=demo', 'https://evil.example/page'],
      ['?projectId=demo', 'https://shop.example.evil.example/'],
      ['?projectId=lonely', 'http://localhost:5173/'],
    ] as const) {
      const response = await page(query, { Referer: referer })
      expect(response.headers.get('Content-Security-Policy'), referer).toBe(anyCsp)
      expect(refusalOf(await response.text()), referer).toBe('origin')
    }
  })

  it('leaves the browser to judge a page that sends no Referer: a project without origins is framed nowhere', async () => {
    const response = await page('?projectId=lonely')
    expect(response.headers.get('Content-Security-Policy')).toMatch(/^frame-ancestors 'none';/)
    expect(refusalOf(await response.text())).toBeUndefined()
  })

  it('tells the page the API could not be asked, in a page any site may frame', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const apiUrl = `http://127.0.0.1:${await closedPort()}`
    const cut = ModalOrigin.create({ dir, apiUrl, origins: Origins.fromApi(apiUrl) })
    const response = await cut.request('/?projectId=demo', { headers: { Referer: 'http://localhost:3000/' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Security-Policy')).toBe(anyCsp)
    expect(refusalOf(await response.text())).toBe('unreachable')
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('could not ask'))
    logged.mockRestore()
  })

  it('tells the HTML where the API is, escaped', async () => {
    const html = await (await page('?projectId=demo')).text()
    expect(html).toContain(
      '<meta name="airlock:api" content="https://api.example/&#34;&#62;&#60;script&#62;" />',
    )
  })

  it('answers 304 to a client holding the same page, and a new ETag when the page or its CSP changes', async () => {
    const first = await page('?projectId=demo')
    const etag = first.headers.get('ETag') ?? ''
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await page('?projectId=demo', { 'If-None-Match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('Content-Security-Policy')).toBe(demoCsp)
    const refused = await page('?projectId=demo', { 'If-None-Match': etag, Referer: 'https://evil.example/' })
    expect(refused.status).toBe(200)
    await Projects.add(db, 'demo', ['https://late.example'])
    const changed = await page('?projectId=demo', { 'If-None-Match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('Content-Security-Policy')).toContain('https://late.example')
    await Projects.remove(db, 'demo', 'https://late.example')
  })
})

describe('the files', () => {
  it('serves hashed assets immutable, with a strong ETag, and 304 to a client that holds them', async () => {
    const asset = await modal.request('/assets/index-abc123.js')
    expect(await asset.text()).toBe(TestBuild.files['/assets/index-abc123.js'])
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(asset.headers.get('Access-Control-Allow-Origin')).toBeNull()
    const etag = asset.headers.get('ETag') ?? ''
    expect(etag).toMatch(/^"[\w-]{27}"$/)
    for (const held of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await modal.request('/assets/index-abc123.js', { headers: { 'If-None-Match': held } })
      expect(again.status, held).toBe(304)
      expect(again.headers.get('ETag'), held).toBe(etag)
      expect(again.headers.get('Cache-Control'), held).toBe('public, max-age=31536000, immutable')
    }
    const stale = await modal.request('/assets/index-abc123.js', { headers: { 'If-None-Match': '"old"' } })
    expect(stale.status).toBe(200)
  })

  it('serves the host scripts to any origin, revalidated after five minutes', async () => {
    const script = await modal.request('/airlock.js')
    expect(await script.text()).toBe(TestBuild.files['/airlock.js'])
    expect(script.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(script.headers.get('Cache-Control')).toBe('public, max-age=300, must-revalidate')
    const etag = script.headers.get('ETag') ?? ''
    const again = await modal.request('/airlock.js', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('Access-Control-Allow-Origin')).toBe('*')
  })

  it('serves any other page of the build uncached, framable nowhere, running only its own scripts', async () => {
    const response = await modal.request('/approve.html?projectId=demo')
    expect(await response.text()).toBe(TestBuild.files['/approve.html'])
    expect(response.headers.get('Cache-Control')).toBe('no-cache')
    expect(response.headers.get('Content-Security-Policy')).toBe(`frame-ancestors 'none'; ${scripts}`)
  })

  it('sends text gzipped or brotli-compressed as the client accepts, each with an ETag of its own', async () => {
    await modal.compressed
    const original = TestBuild.files['/assets/index-abc123.js']
    const get = (acceptEncoding?: string) =>
      modal.request('/assets/index-abc123.js', {
        headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding },
      })
    const plain = await get()
    const gzip = await get('gzip, deflate')
    const br = await get('gzip, deflate, br')
    expect(plain.headers.get('Content-Encoding')).toBeNull()
    expect(gzip.headers.get('Content-Encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(original)
    expect(br.headers.get('Content-Encoding')).toBe('br')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brBytes.length).toBeLessThan(original.length / 10)
    expect(brotliDecompressSync(brBytes).toString()).toBe(original)
    for (const response of [plain, gzip, br]) expect(response.headers.get('Vary')).toBe('Accept-Encoding')
    expect(new Set([plain, gzip, br].map((r) => r.headers.get('ETag'))).size).toBe(3)
    expect((await get('br;q=0.5, gzip')).headers.get('Content-Encoding')).toBe('gzip')
    expect((await get('*')).headers.get('Content-Encoding')).toBe('br')
    expect((await get('gzip;q=0, br;q=0')).headers.get('Content-Encoding')).toBeNull()
    const html = await page('?projectId=demo', { 'Accept-Encoding': 'gzip' })
    expect(gunzipSync(Buffer.from(await html.arrayBuffer())).toString()).toContain('<meta name="airlock:api"')
  })

  it('sends images as they are', async () => {
    const image = await modal.request('/assets/logo-def456.png', {
      headers: { 'Accept-Encoding': 'gzip, br' },
    })
    expect(image.headers.get('Content-Type')).toBe('image/png')
    expect(image.headers.get('Content-Encoding')).toBeNull()
    expect(image.headers.get('Vary')).toBeNull()
  })

  it('serves nothing outside the build', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/missing.js', '/index.js']) {
      expect((await modal.request(path)).status, path).toBe(404)
    }
  })
})
