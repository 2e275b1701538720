import { getEventListeners } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Config, type Database, Projects, Service } from '@airlock/api'
import type * as Contract from '@airlock/api/contract'
import { memoryDatabase } from '@airlock/api/memory-database'
import * as Oidc from '@airlock/api/oidc-dev'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Api from '../../api/Api.ts'
import { manualClock } from '../../testing/clock.ts'
import * as Social from './Social.ts'
import { land } from './social/page.ts'

const modalOrigin = 'http://127.0.0.1:5174'

/** A window a login opened: it only closes (its pages run through {@link Browser}). */
class Popup {
  closed = false
  close() {
    this.closed = true
  }
}

/**
 * The modal frame, as much of a window as a login uses: it opens popups (or, `blocked`, none), and is posted
 * to as a browser posts, dropping a message whose `targetOrigin` is not its own and dispatching the rest in
 * a task of their own, with the sender's window and origin.
 */
class Frame extends EventTarget {
  readonly location = { origin: modalOrigin }
  readonly opened: Array<{ url: URL; target: string; features: string; popup: Popup }> = []
  blocked = false

  open(url: string, target: string, features: string) {
    if (this.blocked) return null
    const popup = new Popup()
    this.opened.push({ url: new URL(url), target, features, popup })
    return popup
  }
  post(data: unknown, targetOrigin: string, from: { source: unknown; origin: string }) {
    if (targetOrigin !== '*' && targetOrigin !== this.location.origin) return
    const event = Object.assign(new Event('message'), { data: structuredClone(data), ...from })
    setTimeout(() => this.dispatchEvent(event))
  }
  /** How many message listeners are left: none once a login has ended. */
  get listening() {
    return getEventListeners(this, 'message').length
  }
  get window() {
    return this as unknown as Window
  }
}

/** Shows `url` (the modal origin's `social.html#…`) in `popup`: the real page, with the frame its opener. */
function show(frame: Frame, popup: Popup, url: string) {
  const location = new URL(url)
  const window = {
    location,
    history: { replaceState: () => {} },
    opener: {
      postMessage: (data: unknown, targetOrigin: string) =>
        frame.post(data, targetOrigin, { source: popup, origin: location.origin }),
    },
    top: undefined as unknown,
    close: () => popup.close(),
    document: { getElementById: () => null },
  }
  window.top = window
  land(window as unknown as Window)
}

/**
 * Goes where a login window goes, as a browser: the API's start, the provider's pages (signing in as
 * `name`), the API's callback. Resolves with where the callback sends the window.
 */
async function browse(start: URL, name: string, options?: Oidc.SignInOptions): Promise<string> {
  const redirect = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual' })
    expect(response.status).toBe(302)
    return response.headers.get('location') ?? ''
  }
  return redirect((await Oidc.signIn(await redirect(start.href), name, options)).href)
}

/** Exchanges the odd server was asked for and left unanswered. */
let stalls = 0

/** A server that answers the exchange as told by `?mode=`: never, 503, or something not a session. */
function oddServer() {
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const mode = new URL(req.url ?? '/', 'http://x').searchParams.get('mode')
    if (mode === 'stall') return void stalls++
    res.writeHead(mode === 'down' ? 503 : 200, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(mode === 'down' ? { message: 'Something went wrong' } : { token: 'short' }))
  }
  const server = createServer(handle)
  return new Promise<{ url: string; stop(): void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        stop: () => {
          server.closeAllConnections()
          server.close()
        },
      }),
    ),
  )
}

let db: Database.Database
let op: Oidc.Instance
let running: Service.Running
let odd: Awaited<ReturnType<typeof oddServer>>
let api: Api.Client

beforeAll(async () => {
  // The API's address goes into the provider's redirect URIs, so it is chosen before either starts.
  const apiUrl = `http://127.0.0.1:${await closedPort()}`
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  op = await Oidc.start({ apiUrl, port: 0 })
  const config: Config.Config = {
    apiUrl,
    modalOrigin,
    chains: [],
    // Never used to mail here: social login needs only its secret.
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 's'.repeat(32) },
    social: Oidc.socialConfig(op),
  }
  running = await Service.listen(Service.create({ db, config }), { apiPort: Number(new URL(apiUrl).port) })
  odd = await oddServer()
  api = Api.create({ baseUrl: running.apiUrl, projectId: 'demo' })
})
afterAll(async () => {
  odd?.stop()
  await running?.stop()
  await op?.stop()
  await db?.close()
})

let serial = 0
const fresh = (name: string) => `${name}-${++serial}`
const bindingOf = (start: URL) => start.searchParams.get('binding') ?? ''
const forged = 'F'.repeat(43)

/** Starts a login in a new frame; the window it opened, and the login's outcome (never an unhandled one). */
function begin(provider: Contract.SocialProvider, options: Partial<Social.LoginOptions> = {}) {
  const frame = new Frame()
  const outcome = Social.login(provider, { endpoint: api.endpoint, self: frame.window, ...options }).then(
    (session) => ({ session }),
    (error: unknown) => ({ error }),
  )
  const opened = frame.opened[0]
  return { frame, outcome, start: opened?.url ?? new URL('about:blank'), popup: opened?.popup ?? new Popup() }
}

/** The reason a login failed with, and its details. */
async function failure(outcome: Promise<{ session: unknown } | { error: unknown }>) {
  const result = await outcome
  if (!('error' in result) || !(result.error instanceof Social.SocialLoginError))
    return expect.fail(`expected a SocialLoginError, got ${JSON.stringify(result)}`)
  return { reason: result.error.reason, details: result.error.details, message: result.error.message }
}

describe('social login in the modal frame', () => {
  it('opens the API’s start in a window in the click, and trades the handoff it lands with for a session', async () => {
    const name = fresh('ada')
    const { frame, outcome, start, popup } = begin('google')
    // Nothing awaited yet: the window was opened within the click.
    expect(frame.opened).toHaveLength(1)
    expect(frame.opened[0]?.features).toBe('popup,width=480,height=640')
    expect(`${start.origin}${start.pathname}`).toBe(`${running.apiUrl}/v1/auth/social/google/start`)
    expect(Object.fromEntries(start.searchParams)).toEqual({
      projectId: 'demo',
      st: 'airlock',
      sv: '0.1.0',
      binding: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
    const landing = await browse(start, name)
    expect(landing).toMatch(new RegExp(`^${modalOrigin}/social\\.html#handoff=[A-Za-z0-9_-]{43}$`))
    show(frame, popup, landing)
    const result = await outcome
    expect(result).toEqual({
      session: {
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user: { id: expect.any(String), email: `${name}@google.test`, provider: 'google' },
      },
    })
    const { token, user } = (result as { session: Contract.SocialSessionAnswer }).session
    const me = await fetch(api.endpoint('/v1/auth/me'), { headers: { Authorization: `Bearer ${token}` } })
    expect(await me.json()).toEqual({ user: { id: user.id, email: user.email } })
    expect(popup.closed).toBe(true)
    expect(frame.listening).toBe(0)
  })

  it('carries the GitHub handle the provider gave', async () => {
    const name = fresh('linus')
    const { frame, outcome, start, popup } = begin('github')
    show(frame, popup, await browse(start, name))
    expect(await outcome).toEqual({
      session: {
        token: expect.any(String),
        user: { id: expect.any(String), email: `${name}@github.test`, provider: 'github', username: name },
      },
    })
  })

  it('ignores messages from another window, from another origin and malformed ones, and keeps listening', async () => {
    const { frame, outcome, start, popup } = begin('google')
    const landing = await browse(start, fresh('grace'))
    const other = new Popup()
    const valid = { type: 'airlock:social', handoff: forged }
    frame.post(valid, '*', { source: other, origin: modalOrigin })
    frame.post(valid, '*', { source: popup, origin: 'https://evil.example' })
    frame.post({ type: 'airlock:social', error: 'access_denied' }, '*', {
      source: other,
      origin: modalOrigin,
    })
    for (const data of [
      null,
      'airlock:social',
      { type: 'airlock:social' },
      { type: 'airlock:social', handoff: 'short' },
      { type: 'airlock:social', error: 'server_error' },
      { type: 'airlock:other', handoff: forged },
    ])
      frame.post(data, '*', { source: popup, origin: modalOrigin })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(frame.listening).toBe(1)
    expect(popup.closed).toBe(false)
    // Had the forged handoff been taken, the exchange would have been refused; the real one logs in.
    show(frame, popup, landing)
    expect(await outcome).toEqual({ session: expect.objectContaining({ token: expect.any(String) }) })
  })

  it('fails with `closed` when the window is closed before an answer', async () => {
    // The window is looked at every 300 ms, on a clock the test moves.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const { frame, outcome, popup } = begin('google')
      popup.close()
      // Closed at two looks in a row: a message it posted before closing would have come in between.
      vi.advanceTimersByTime(600)
      expect(await failure(outcome)).toEqual({
        reason: 'closed',
        details: undefined,
        message: 'The sign-in window was closed before the sign-in finished.',
      })
      expect(frame.listening).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('fails with the reason the provider’s side sent: declined, or no verified email', async () => {
    const declined = begin('google')
    show(declined.frame, declined.popup, await browse(declined.start, fresh('ada'), { decline: true }))
    expect((await failure(declined.outcome)).reason).toBe('access_denied')
    const unverified = begin('github')
    show(unverified.frame, unverified.popup, await browse(unverified.start, fresh('unverified')))
    expect(await failure(unverified.outcome)).toMatchObject({
      reason: 'email_not_verified',
      message: expect.stringMatching(/did not confirm an email address/),
    })
    for (const { frame, popup } of [declined, unverified]) {
      expect(popup.closed).toBe(true)
      expect(frame.listening).toBe(0)
    }
  })

  it('fails with `blocked` when the browser opens no window, and listens to nothing', async () => {
    const frame = new Frame()
    frame.blocked = true
    const login = Social.login('google', { endpoint: api.endpoint, self: frame.window })
    await expect(login).rejects.toMatchObject({ name: 'SocialLoginError', reason: 'blocked' })
    expect(frame.listening).toBe(0)
  })

  it('draws a fresh binding per login, and shows the exchange the one the start was given', async () => {
    const shown: unknown[] = []
    const spy: typeof fetch = (input, init) => {
      shown.push(JSON.parse(String(init?.body)))
      return fetch(input, init)
    }
    const first = begin('google', { fetch: spy })
    const second = begin('google', { fetch: spy })
    expect(bindingOf(first.start)).not.toBe(bindingOf(second.start))
    for (const login of [first, second])
      show(login.frame, login.popup, await browse(login.start, fresh('ada')))
    await Promise.all([first.outcome, second.outcome])
    expect(shown.map((body) => (body as Contract.SocialExchangeBody).binding).sort()).toEqual(
      [bindingOf(first.start), bindingOf(second.start)].sort(),
    )
  })

  it('fails with `rejected` and the API’s words when the handoff belongs to another login (login CSRF)', async () => {
    const attacker = begin('github')
    const victim = begin('github')
    const landing = await browse(attacker.start, fresh('mallory'))
    // The attacker's callback, opened in the victim's window: the victim's binding is another.
    show(victim.frame, victim.popup, landing)
    expect(await failure(victim.outcome)).toEqual({
      reason: 'rejected',
      details: 'Invalid handoff',
      message: 'The sign-in could not be completed. Try again.',
    })
    // And the handoff is spent: not even the login that began it opens a session with it now.
    show(attacker.frame, attacker.popup, landing)
    expect(await failure(attacker.outcome)).toMatchObject({ reason: 'rejected', details: 'Invalid handoff' })
  })

  const oddEndpoint = (mode: string) => (path: string) => `${odd.url}${path}?projectId=demo&mode=${mode}`
  /** A login whose window lands with a well-formed handoff at once. */
  const landed = (options: Partial<Social.LoginOptions>) => {
    const login = begin('google', options)
    show(login.frame, login.popup, `${modalOrigin}/social.html#handoff=${forged}`)
    return login
  }

  it('waits the product’s 30 s (docs/behaviour.md §9) for the exchange: still waiting at 29.999 s, failed with `timeout` at 30 s', async () => {
    const clock = manualClock()
    const before = stalls
    const { outcome } = landed({ endpoint: oddEndpoint('stall'), timers: clock.timers })
    let settled = false
    const failed = failure(outcome).finally(() => {
      settled = true
    })
    await vi.waitFor(() => expect(stalls).toBe(before + 1))
    clock.advance(29_999)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
    clock.advance(1)
    expect(await failed).toEqual({
      reason: 'timeout',
      details: undefined,
      message: 'The sign-in took too long to finish. Try again.',
    })
  })

  it('fails with `unavailable` when the API cannot be reached, fails, or answers no session', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`
    const unreachable = landed({ endpoint: (path) => `${dead}${path}?projectId=demo` })
    expect((await failure(unreachable.outcome)).reason).toBe('unavailable')
    const down = landed({ endpoint: oddEndpoint('down') })
    expect(await failure(down.outcome)).toMatchObject({ reason: 'unavailable', details: 'HTTP 503' })
    const odd = landed({ endpoint: oddEndpoint('odd') })
    expect(await failure(odd.outcome)).toMatchObject({
      reason: 'unavailable',
      details: expect.stringMatching(/^Unexpected answer: /),
    })
  })

  it('fails with `cancelled` and closes the window when the modal gives the login up', async () => {
    const waiting = new AbortController()
    const { frame, outcome, popup } = begin('google', { signal: waiting.signal })
    waiting.abort()
    expect((await failure(outcome)).reason).toBe('cancelled')
    expect(popup.closed).toBe(true)
    expect(frame.listening).toBe(0)

    const exchanging = new AbortController()
    const stalled = landed({ endpoint: oddEndpoint('stall'), signal: exchanging.signal })
    setTimeout(() => exchanging.abort(), 100)
    expect((await failure(stalled.outcome)).reason).toBe('cancelled')
  })
})
