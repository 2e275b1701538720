/**
 * A social login that leaves the page (a Telegram mini-app: docs/behaviour.md §2) and comes back to it with
 * `?result_uri=`. The attacker's cases first: a return address the project does not list, a callback that
 * names another, a forged or replayed result.
 */
import { base64urlnopad } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { configOf } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Oidc from './internal/oidc.ts'

describe.each(databases())('a social login that returns to the page, on $engine', ({ open }) => {
  let db: Database
  let op: Oidc.Instance
  let api: Service.App
  let serial = 0
  const fresh = (name = 'visitor') => `${name}-${++serial}`
  const drawBinding = () => base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  const page = 'https://mini.example/app?tab=swap'

  const config = (social: Config.Config['social']): Config.Config => ({
    ...configOf(),
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 's'.repeat(32) },
    social,
    limits: { requestTimeoutMs: 600_000 },
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'mini', ['https://mini.example', 'https://*.apps.example'])
    await Projects.add(db, 'elsewhere', ['https://evil.example'])
    op = await Oidc.start({ apiUrl: configOf().apiUrl, port: 0 })
    api = Service.create({ db, config: config(Oidc.socialConfig(op)), now: Date.now }).api
  })
  afterAll(async () => {
    await op?.stop()
    await db?.close()
  })

  const start = (returnTo: string | undefined, binding: string, projectId = 'mini') => {
    const query = new URLSearchParams({ projectId, binding })
    if (returnTo !== undefined) query.set('return', returnTo)
    return api.request(`/v1/auth/social/google/start?${query}`)
  }
  const locationOf = (response: Response) => {
    expect(response.status).toBe(302)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    return new URL(response.headers.get('location') ?? '')
  }
  const callback = (url: URL) => api.request(`${url.pathname}${url.search}`)
  /** A whole login from `returnTo`: where the callback sends the browser. */
  const loginFrom = async (returnTo: string, binding: string, options?: Oidc.SignInOptions) => {
    const back = await Oidc.signIn(locationOf(await start(returnTo, binding)).href, fresh(), options)
    return locationOf(await callback(back))
  }
  const exchange = async (handoff: string | null, binding: string) => {
    const response = await api.request('/v1/auth/social/exchange?projectId=mini', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff, binding }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const invalidReturn = { status: 400, body: { message: 'Invalid return address' } }
  const answer = async (response: Response) => ({ status: response.status, body: await response.json() })

  it("refuses a return address not on the project's list with 400 'Invalid return address', before the provider", async () => {
    const binding = drawBinding()
    for (const returnTo of [
      'https://evil.example/',
      // Another project's page: the list is this project's own.
      'https://evil.example/app',
      'https://mini.example.evil.example/',
      'https://apps.example/',
      'http://mini.example/',
      'https://mini.example:8443/',
      'javascript:alert(1)//https://mini.example/',
      'data:text/html,hi',
      '//evil.example/',
      '/relative',
      'https://user:pass@mini.example/',
      'https://mini.example/#fragment',
      `https://mini.example/${'a'.repeat(2048)}`,
      '',
    ])
      expect(await answer(await start(returnTo, binding)), returnTo).toEqual(invalidReturn)
    expect(await db.query('select state from auth_social_states')).toEqual([])
  })

  it('sends the visitor back to the page it kept, with the handoff in ?result_uri=, and a wildcard origin too', async () => {
    const binding = drawBinding()
    const back = await loginFrom(page, binding)
    expect(`${back.origin}${back.pathname}`).toBe('https://mini.example/app')
    expect(back.searchParams.get('tab')).toBe('swap')
    const handoff = back.searchParams.get(Contract.socialResultParam)
    expect(handoff).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(back.hash).toBe('')
    expect((await exchange(handoff, binding)).status).toBe(200)

    const sub = await loginFrom('https://shop.apps.example/', drawBinding())
    expect(sub.origin).toBe('https://shop.apps.example')
  })

  it('goes back where the start was told, whatever the callback is made to say', async () => {
    const binding = drawBinding()
    const started = locationOf(await start(page, binding))
    const back = await Oidc.signIn(started.href, fresh())
    // An attacker adds a return of their own to the callback: it is the provider's answer, not a place to go.
    back.searchParams.set('return', 'https://evil.example/')
    back.searchParams.set('redirect_uri', 'https://evil.example/')
    expect(locationOf(await callback(back)).origin).toBe('https://mini.example')
  })

  it('says why on the page too: ?result_uri=access_denied when the visitor declines', async () => {
    const back = await loginFrom(page, drawBinding(), { decline: true })
    expect(back.searchParams.get(Contract.socialResultParam)).toBe('access_denied')
  })

  it("refuses a forged, replayed or another login's result with 401 'Invalid handoff'", async () => {
    const invalid = { status: 401, body: { message: 'Invalid handoff' } }
    const binding = drawBinding()
    const handoff = (await loginFrom(page, binding)).searchParams.get(Contract.socialResultParam)
    // The page sees the result, but not the binding the modal kept: the result alone opens nothing…
    expect(await exchange(handoff, drawBinding())).toEqual(invalid)
    // …and that try spent it, so the modal's own exchange fails too (a page that tries is noticed).
    expect(await exchange(handoff, binding)).toEqual(invalid)

    const mine = drawBinding()
    const result = (await loginFrom(page, mine)).searchParams.get(Contract.socialResultParam)
    expect((await exchange(result, mine)).status).toBe(200)
    // Replayed: a result works once.
    expect(await exchange(result, mine)).toEqual(invalid)
    // Forged: a well-formed code the API never issued.
    expect(await exchange('A'.repeat(43), mine)).toEqual(invalid)
  })
})
