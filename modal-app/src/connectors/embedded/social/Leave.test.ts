import { type Config, type Database, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import * as Oidc from '@airlock/api/oidc-dev'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Api from '../../../api/Api.ts'
import type { Left } from '../Secrets.ts'
import { SocialLoginError } from '../Social.ts'
import * as Leave from './Leave.ts'

const page = 'https://mini.example/app'

let db: Database.Database
let op: Oidc.Instance
let running: Service.Running
let api: Api.Client
let serial = 0

beforeAll(async () => {
  const apiUrl = `http://127.0.0.1:${await closedPort()}`
  db = await memoryDatabase()
  await Projects.add(db, 'mini', ['https://mini.example'])
  op = await Oidc.start({ apiUrl, port: 0 })
  const config: Config.Config = {
    apiUrl,
    modalOrigin: 'http://127.0.0.1:5174',
    chains: [],
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 's'.repeat(32) },
    social: Oidc.socialConfig(op),
  }
  running = await Service.listen(Service.create({ db, config }), { apiPort: Number(new URL(apiUrl).port) })
  api = Api.create({ baseUrl: running.apiUrl, projectId: 'mini' })
})
afterAll(async () => {
  await running?.stop()
  await op?.stop()
  await db?.close()
})

/** The modal origin's storage, as `Secrets` keeps the login that left: lasting, or (`lasting: false`) not. */
function keeper(lasting = true) {
  let kept: Left | undefined
  return {
    ready: async () => [],
    lasting: () => lasting,
    grant() {
      lasting = true
    },
    left: () => kept,
    keepLeft(value: Left | undefined) {
      kept = value
    },
    written: async () => {},
  }
}

/**
 * The host page: `leaveFor` goes as a browser would (the host names this page as `return`, the API's start,
 * the provider's pages, the API's callback), and the page comes back with `?result_uri=`, handed over once.
 */
function host(options: { refuse?: boolean; decline?: boolean; returnTo?: string } = {}) {
  let result: string | undefined
  const redirect = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual' })
    return { status: response.status, location: response.headers.get('location') ?? '' }
  }
  const self = {
    left: [] as URL[],
    back: undefined as URL | undefined,
    refused: undefined as { status: number } | undefined,
    async leaveFor({ url }: { url: string }): Promise<undefined> {
      if (options.refuse) throw new Error('Only a Telegram mini-app leaves the page to log in.')
      const start = new URL(url)
      start.searchParams.set('return', options.returnTo ?? page)
      self.left.push(start)
      const started = await redirect(start.href)
      if (started.status !== 302) {
        self.refused = started
        return undefined
      }
      const callback = await Oidc.signIn(started.location, `tg-${++serial}`, { decline: !!options.decline })
      self.back = new URL((await redirect(callback.href)).location)
      result = self.back.searchParams.get('result_uri') ?? undefined
      return undefined
    },
    async socialResult() {
      const taken = result
      result = undefined
      return taken
    },
    /** What an attacker makes the page say. */
    says(value: string | undefined) {
      result = value
    },
  }
  return self
}

const optionsWith = (page: ReturnType<typeof host>, secrets = keeper(), now = () => Date.now()) => ({
  endpoint: api.endpoint as (path: string) => string,
  host: () => page,
  secrets,
  now,
})

describe('a social login that leaves the page (a Telegram mini-app)', () => {
  it('leaves for the start with a binding kept in the modal, comes back with the handoff, and opens a session once', async () => {
    const page = host()
    const options = optionsWith(page)
    await Leave.leave('google', options)
    const [start] = page.left
    const binding = start?.searchParams.get('binding')
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(options.secrets.left()).toEqual({ provider: 'google', binding, at: expect.any(Number) })
    // The page sees the handoff, never the binding.
    expect(page.back?.origin).toBe('https://mini.example')
    expect(page.back?.href).not.toContain(binding)

    const back = await Leave.resume(options)
    expect(back?.provider).toBe('google')
    expect(await back?.session).toEqual({
      token: expect.any(String),
      user: expect.objectContaining({ provider: 'google' }),
    })
    // Used once: the binding is gone, and nothing more is asked of the page.
    expect(options.secrets.left()).toBeUndefined()
    expect(await Leave.resume(options)).toBeUndefined()
  })

  it('asks the page nothing when no login of this modal left: a result it shows is not taken', async () => {
    const page = host()
    page.says('A'.repeat(43))
    expect(await Leave.resume(optionsWith(page))).toBeUndefined()
    expect(await page.socialResult()).toBe('A'.repeat(43))
  })

  it("refuses a forged result with 'rejected' (401 Invalid handoff), and forgets the binding", async () => {
    const page = host()
    const options = optionsWith(page)
    await Leave.leave('github', options)
    page.says('A'.repeat(43))
    const back = await Leave.resume(options)
    const error = await back?.session.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SocialLoginError)
    expect(error).toMatchObject({ reason: 'rejected', details: 'Invalid handoff' })
    expect(options.secrets.left()).toBeUndefined()
  })

  it("refuses a replayed result: another login's handoff, or one already spent", async () => {
    const first = host()
    const firstOptions = optionsWith(first)
    await Leave.leave('google', firstOptions)
    const spent = first.back?.searchParams.get('result_uri') ?? ''
    await (await Leave.resume(firstOptions))?.session

    const page = host()
    const options = optionsWith(page)
    await Leave.leave('google', options)
    // The page replays the first login's spent result in place of this one's.
    page.says(spent)
    const error = await (await Leave.resume(options))?.session.catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: 'rejected', details: 'Invalid handoff' })
  })

  it("refuses an unreadable result, and says the provider's failure as the window would", async () => {
    const page = host()
    const options = optionsWith(page)
    await Leave.leave('google', options)
    page.says('<script>')
    expect(await (await Leave.resume(options))?.session.catch((e: unknown) => e)).toMatchObject({
      reason: 'rejected',
    })

    const declined = host({ decline: true })
    const declinedOptions = optionsWith(declined)
    await Leave.leave('google', declinedOptions)
    expect(declined.back?.searchParams.get('result_uri')).toBe('access_denied')
    expect(await (await Leave.resume(declinedOptions))?.session.catch((e: unknown) => e)).toMatchObject({
      reason: 'access_denied',
    })
  })

  it("goes nowhere for a return address not on the project's list: 400 'Invalid return address'", async () => {
    const page = host({ returnTo: 'https://evil.example/' })
    await Leave.leave('google', optionsWith(page))
    expect(page.refused?.status).toBe(400)
    expect(page.back).toBeUndefined()
  })

  it("fails 'unkept' where the modal could keep nothing, 'stayed' where the page would not go", async () => {
    await expect(Leave.leave('google', optionsWith(host(), keeper(false)))).rejects.toMatchObject({
      reason: 'unkept',
    })
    const options = optionsWith(host({ refuse: true }))
    await expect(Leave.leave('google', options)).rejects.toMatchObject({ reason: 'stayed' })
    expect(options.secrets.left()).toBeUndefined()
  })

  it('waits for the storage asked for in the click: a grant that arrives after the click began still keeps the binding', async () => {
    const page = host()
    const secrets = keeper(false)
    const options = {
      ...optionsWith(page, secrets),
      storage: () =>
        new Promise<void>((granted) =>
          setTimeout(() => {
            secrets.grant()
            granted()
          }, 20),
        ),
    }
    await Leave.leave('google', options)
    expect(page.back).toBeDefined()
  })

  it('forgets a login that left 10 minutes ago or more', async () => {
    let clock = Date.now()
    const page = host()
    const options = optionsWith(page, keeper(), () => clock)
    await Leave.leave('google', options)
    clock += 10 * 60_000
    expect(await Leave.resume(options)).toBeUndefined()
    expect(options.secrets.left()).toBeUndefined()
  })
})
