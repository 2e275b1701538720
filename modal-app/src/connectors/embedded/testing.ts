/**
 * Test support for the embedded wallet: the real Airlock API in this process (PGlite in memory, project
 * `demo`, the development OpenID provider, a wallet key, the chains a test gives), and social logins
 * through it as a browser goes through them (the API's start, the provider's pages, the callback, the
 * exchange with the login's binding), so the sessions tests use are ones the API issued.
 */
import { randomBytes } from 'node:crypto'
import { type Config, type Database, Projects, Service } from '@airlock/api'
import * as Contract from '@airlock/api/contract'
import { memoryDatabase } from '@airlock/api/memory-database'
import * as Oidc from '@airlock/api/oidc-dev'
import { closedPort } from '@airlock/api/testing'
import * as S from '@airlock/bridge-protocol/Shape'
import * as Api from '../../api/Api.ts'
import * as Account from './Account.ts'

/**
 * The modal origin the API is configured with: wallet shares are served to its pages only, and it is the
 * passkeys' relying party (a name: WebAuthn refuses IP addresses).
 */
export const modalOrigin = 'http://airlock.localhost:5174'

export type StartOptions = {
  /** The chains the API relays. @default [] */
  chains?: Config.Config['chains'] | undefined
  /** Where the API mails login codes. @default a closed port: only social logins work */
  smtp?: NonNullable<Config.Config['email']>['smtp'] | undefined
}

export type Stack = {
  /** The API's client for project `demo`: its `endpoint` is what the embedded wallet calls. */
  api: Api.Client
  /** `fetch` as a page of the modal origin sends: with that `Origin`. */
  fetch: typeof fetch
  /** The embedded wallet's client of this API, from the modal origin. */
  account: Account.Account
  /** Everything the API holds: its database and its configuration's `wallet.key`. */
  db: Database.Database
  walletKey: string
  /** A new visitor `name-n` logged in with Google: their session, as the exchange answered it. */
  login(name?: string): Promise<Account.Session>
  /**
   * Where a login window the modal opened on `start` goes, as a browser: the provider's pages, signing in
   * as a new visitor `name-n`, and the callback; resolves with the handoff the modal's page lands with.
   */
  handoff(start: string, name?: string): Promise<string>
  stop(): Promise<void>
}

/**
 * @example
 * const stack = await Embedded.start()
 * const session = await stack.login('ada')
 */
export async function start(options: StartOptions = {}): Promise<Stack> {
  // The API's address goes into the provider's redirect URIs, so it is chosen before either starts.
  const apiUrl = `http://127.0.0.1:${await closedPort()}`
  const db = await memoryDatabase()
  const walletKey = randomBytes(32).toString('hex')
  await Projects.add(db, 'demo', ['http://localhost:*'])
  const op = await Oidc.start({ apiUrl, port: 0 })
  const config: Config.Config = {
    apiUrl,
    modalOrigin,
    chains: options.chains ?? [],
    email: {
      smtp: options.smtp ?? { host: '127.0.0.1', port: await closedPort() },
      from: 'login@airlock.example',
      secret: randomBytes(24).toString('base64'),
    },
    social: Oidc.socialConfig(op),
    wallet: { key: walletKey },
  }
  const running = await Service.listen(Service.create({ db, config }), {
    apiPort: Number(new URL(apiUrl).port),
  })
  const api = Api.create({ baseUrl: running.apiUrl, projectId: 'demo' })
  const fromModal: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set('Origin', modalOrigin)
    return fetch(input, { ...init, headers })
  }
  let serial = 0
  return {
    api,
    db,
    walletKey,
    fetch: fromModal,
    account: Account.create({ endpoint: api.endpoint, fetch: fromModal }),
    login: (name = 'visitor') => login(api, `${name}-${++serial}`),
    handoff: (start, name = 'visitor') => handoffOf(start, `${name}-${++serial}`),
    async stop() {
      await running.stop()
      await op.stop()
      await db.close()
    },
  }
}

/** Goes through a Google login as `name` and trades its handoff for a session. */
async function login(api: Api.Client, name: string): Promise<Account.Session> {
  const binding = randomBytes(32).toString('base64url')
  const start = new URL(api.endpoint('/v1/auth/social/google/start'))
  start.searchParams.set('binding', binding)
  const handoff = await handoffOf(start.href, name)
  const response = await fetch(api.endpoint('/v1/auth/social/exchange'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: modalOrigin },
    body: JSON.stringify({ handoff, binding }),
  })
  const parsed = S.parse(Contract.socialSessionAnswer, await response.json())
  if (!parsed.ok) throw new Error(`The exchange answered ${response.status}: ${parsed.message}`)
  return parsed.value
}

/** The handoff a login window opened on `start` lands with, once `name` signed in at the provider. */
async function handoffOf(start: string, name: string): Promise<string> {
  const callback = await Oidc.signIn(await redirect(start), name)
  const landing = new URL(await redirect(callback.href))
  const handoff = new URLSearchParams(landing.hash.slice(1)).get('handoff')
  if (!handoff) throw new Error(`The login landed on ${landing.href}, with no handoff`)
  return handoff
}

/** Where a redirect of the login sends the browser next. */
async function redirect(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' })
  const location = response.headers.get('location')
  if (response.status !== 302 || !location) throw new Error(`${url} answered ${response.status}, no redirect`)
  return location
}
