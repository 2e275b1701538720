import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './Database.ts'
import * as Projects from './features/projects/Projects.ts'
import { messages } from './http/errors.ts'
import { calls, configOf, ether, modalOrigin, shop } from './internal/testApi.ts'
import { databases } from './internal/testing.ts'
import * as Service from './Service.ts'

// Any well-formed address: these tests stop at the project check, before any chain is read.
const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe.each(databases())('API on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  const time = Date.UTC(2026, 10, 22)
  const { get, json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    api = Service.create({
      db,
      config: configOf([
        { id: 'eip155:31337', name: 'A', rpcUrl: 'http://127.0.0.1:9', nativeCurrency: ether },
      ]),
      now: () => time,
    }).api
  })
  afterAll(() => db?.close())

  describe('every route', () => {
    const routes = [
      '/v1/supported-chains',
      `/v1/account/${holder}/balance?chainId=eip155:31337`,
      `/v1/identity/${holder}`,
      '/projects/v1/origins',
      '/getWallets',
      '/getAnalyticsConfig',
      '/getWalletImage/abc',
      '/public/getTokenImage/abc',
    ]
    it.each(routes)('refuses %s without a configured project', async (route) => {
      const join = route.includes('?') ? '&' : '?'
      const unknown = await json(`${route}${join}projectId=nope`)
      expect(unknown).toEqual({ status: 403, body: { message: messages.projectNotConfigured } })
      for (const suffix of ['', `${join}projectId=`, `${join}projectId=${'x'.repeat(65)}`]) {
        const { status, body } = await json(route + suffix)
        expect(status, suffix).toBe(400)
        expect(body.message, suffix).toMatch(/^projectId: expected/)
      }
    })

    it('refuses POST /e without a configured project', async () => {
      const post = (query: string) =>
        json(`/e${query}`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })
      expect(await post('?projectId=nope')).toEqual({
        status: 403,
        body: { message: messages.projectNotConfigured },
      })
      expect((await post('')).status).toBe(400)
    })

    it.each([
      '/e',
      '/v1/fungible/price',
      '/v1/sessions',
      '/v1/sessions/verify',
      '/v1/rpc/eip155:31337',
      '/v1/bundler/eip155:31337',
      '/v1/paymaster/eip155:31337',
    ])('answers 415 to a %s body not sent as application/json, before acting on it', async (route) => {
      // A page of another site may POST these types without a CORS preflight; bytes go with no type at all.
      const bodies = [
        { type: 'text/plain;charset=UTF-8', body: '{}' },
        { type: 'application/x-www-form-urlencoded', body: '{}' },
        { type: undefined, body: new TextEncoder().encode('{}') },
      ]
      for (const { type, body } of bodies) {
        const answer = await json(`${route}?projectId=demo`, {
          method: 'POST',
          ...(type ? { headers: { 'Content-Type': type } } : {}),
          body,
        })
        expect(answer, String(type)).toEqual({ status: 415, body: { message: messages.notJson } })
      }
    })

    it('answers unknown paths with a JSON 404', async () => {
      expect(await json('/v2/nothing?projectId=demo')).toEqual({
        status: 404,
        body: { message: 'Not found' },
      })
    })

    it('accepts st and sv, and refuses oversized ones', async () => {
      expect((await get('/v1/supported-chains?projectId=demo&st=airlock&sv=0.1.0')).status).toBe(200)
      expect((await get(`/v1/supported-chains?projectId=demo&st=${'a'.repeat(65)}`)).status).toBe(400)
    })
  })

  describe('CORS', () => {
    const preflight = (origin: string, projectId = 'demo') =>
      get(`/v1/supported-chains?projectId=${projectId}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      })

    it('answers the modal origin and the project origins', async () => {
      for (const origin of [modalOrigin, shop, 'http://localhost:5173']) {
        const response = await get('/v1/supported-chains?projectId=demo', { headers: { Origin: origin } })
        expect(response.headers.get('Access-Control-Allow-Origin'), origin).toBe(origin)
        expect((await preflight(origin)).headers.get('Access-Control-Allow-Origin')).toBe(origin)
      }
    })

    it('does not answer other origins, or another project origins', async () => {
      for (const [origin, project] of [
        ['https://evil.example', 'demo'],
        ['http://localhost:5173', 'quiet'],
        ['https://shop.example.evil.example', 'demo'],
      ] as const) {
        const response = await get(`/v1/supported-chains?projectId=${project}`, {
          headers: { Origin: origin },
        })
        expect(response.headers.get('Access-Control-Allow-Origin'), origin).toBeNull()
        expect((await preflight(origin, project)).headers.get('Access-Control-Allow-Origin')).toBeNull()
      }
    })

    it('tells an unlisted origin nothing in a preflight: no origin, methods, headers or cache time', async () => {
      const response = await get('/v1/sessions?projectId=demo', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, authorization',
        },
      })
      const cors = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'))
      expect(cors).toEqual([])
      expect(response.headers.get('Vary')).toBe('Origin')
    })

    it('answers the preflight of an allowed origin with the methods and the two headers the API reads', async () => {
      const response = await preflight(modalOrigin)
      expect(response.status).toBe(204)
      expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST')
      expect(response.headers.get('Access-Control-Allow-Headers')).toBe('Content-Type, Authorization')
      expect(response.headers.get('Access-Control-Max-Age')).toBe('600')
    })

    it("answers logins and the wallet for the modal origin only, never for the project's own origins", async () => {
      const paths = [
        '/v1/auth/email/verify',
        '/v1/auth/me',
        '/v1/auth/social/exchange',
        '/v1/wallet',
        // Routed as /v1/auth/email/verify: the check reads the path the router reads.
        '/v1/%61uth/email/verify',
      ]
      const allowOf = (response: Response) => response.headers.get('Access-Control-Allow-Origin')
      for (const path of paths) {
        const url = `${path}?projectId=demo`
        for (const origin of [modalOrigin, shop, 'http://localhost:5173']) {
          const posted = await get(url, {
            method: 'POST',
            headers: { Origin: origin, 'Content-Type': 'application/json' },
            body: '{}',
          })
          const preflight = await get(url, {
            method: 'OPTIONS',
            headers: {
              Origin: origin,
              'Access-Control-Request-Method': 'POST',
              'Access-Control-Request-Headers': 'content-type, authorization',
            },
          })
          const expected = origin === modalOrigin ? modalOrigin : null
          expect(allowOf(posted), `${origin} POST ${path}`).toBe(expected)
          expect(allowOf(preflight), `${origin} OPTIONS ${path}`).toBe(expected)
          if (!expected) expect(preflight.headers.get('Access-Control-Allow-Methods')).toBeNull()
        }
      }
      // Every other route still answers the project's origins.
      for (const path of ['/v1/supported-chains', '/v1/siwx/nonce', '/v1/authx']) {
        const response = await get(`${path}?projectId=demo`, { headers: { Origin: shop } })
        expect(allowOf(response), path).toBe(shop)
      }
    })

    it('never allows credentials, not even to the modal origin', async () => {
      const answers = [
        await get('/v1/supported-chains?projectId=demo', { headers: { Origin: modalOrigin, Cookie: 'a=b' } }),
        await get('/v2/nothing?projectId=demo', { headers: { Origin: modalOrigin } }),
        await get('/v1/supported-chains?projectId=nope', { headers: { Origin: modalOrigin } }),
        await preflight(modalOrigin),
        await preflight(shop),
      ]
      for (const response of answers) {
        expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull()
        expect(response.headers.get('Access-Control-Allow-Origin')).not.toBe('*')
        expect(response.headers.get('Set-Cookie')).toBeNull()
      }
    })

    it('marks refusals too, so the modal can read why it was refused', async () => {
      const response = await get('/v1/supported-chains?projectId=nope', { headers: { Origin: modalOrigin } })
      expect(response.status).toBe(403)
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(modalOrigin)
      const evil = await get('/v2/nothing?projectId=demo', { headers: { Origin: 'https://evil.example' } })
      expect(evil.status).toBe(404)
      expect(evil.headers.get('Access-Control-Allow-Origin')).toBeNull()
    })
  })
})
