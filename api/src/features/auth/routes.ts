/**
 * Email one-time-code login, each route with `?projectId&st&sv` and a JSON body:
 * - `POST /v1/auth/email` `{ email }` → `{ sent: true, retryAfter: 30 }`: mails a 6-digit code, good for
 *   10 minutes. The same answer whether or not the address has an account.
 * - `POST /v1/auth/email/verify` `{ email, code }` → `{ token, user: { id, email } }`: the first login
 *   creates the user; `token` is the session's bearer credential (30 days), answered here only.
 * - `GET /v1/auth/me` → `{ user }`; `POST /v1/auth/logout` → `{ success: true }`, both with
 *   `Authorization: Bearer <token>`. A user with no email is `{ id, provider: 'farcaster', fid, username? }`
 *   (a Farcaster login's) or `{ id, provider, username? }` (a Facebook login's: `Identities.ts`)
 *   (`Contract.sessionUserAnswer`), and has no email to change.
 * - Changing the email (docs/behaviour.md §4: the current address's code, then the new address's), with the bearer:
 *   `POST /v1/auth/email/change` `{ email }` mails a code to the current address;
 *   `POST /v1/auth/email/change/verify` `{ code }` takes it and mails one to the new address;
 *   `POST /v1/auth/email/change/confirm` `{ code }` takes that one and moves the user → `{ user }`, and
 *   ends the user's other sessions (in every project): only the session that made the change stays.
 *
 * Addresses are lower-cased whole when parsed (`Contract.emailAddress`), so `Ada@x.test` is `ada@x.test`.
 * Error texts, each answered as `{ message }`:
 * - 400 `Invalid email`, `Invalid code` (not 6 digits), `This is already your email`, `This account has no
 *   email` (a change asked by a user who has none).
 * - 401 `Invalid code` (wrong, used, or another project's), `The code has expired`, `Too many wrong codes.
 *   Ask for a new one.` (5 wrong codes lock it, a right one included after), `Invalid session`.
 * - 404 `Email login is not configured` (no `email` block in the configuration).
 * - 409 `This email is already in use`.
 * - 429 `Please try again after {n} seconds` with `Retry-After: n`: a code went to the address for this
 *   purpose less than 30 s ago.
 * - 429 `Too many wrong codes. Try again later.` with `Retry-After`: wrong codes over a cap (`Caps.ts`): the
 *   address's for this purpose (10 an hour, 30 a day, whatever the codes), or the address's from this
 *   client (5 an hour, 10 a day): no code is tried nor sent; this client's, or everyone's: no code is tried.
 * - 429 `Too many codes were sent. Try again later.` with `Retry-After`: this client was sent 20 codes in
 *   the last hour, or everyone 5,000 (`email.limits` changes both).
 * - 502 `The email could not be sent. Try again.`: nothing was sent and nothing is throttled.
 */
import { type Context, Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Caps from './Caps.ts'
import * as Codes from './Codes.ts'
import * as Farcaster from './farcaster/routes.ts'
import * as Mailer from './Mailer.ts'
import { codeMail, messages } from './messages.ts'
import * as Passkey from './passkey/routes.ts'
import * as Sessions from './Sessions.ts'
import { sessionUserOf } from './SessionUser.ts'
import * as Social from './social.ts'
import * as Users from './Users.ts'

export type AuthOptions = {
  /** Where users, codes and sessions are kept. */
  db: Pick<Database, 'query' | 'transaction'>
  /** Its `email` block turns the routes on. */
  config: Config
  /** The clock of codes, throttles and sessions. */
  now: () => number
}

const refusals: Record<Codes.Refusal, string> = {
  invalid: messages.invalidCode,
  expired: messages.expiredCode,
  locked: messages.lockedCode,
}

const retryAfter = Codes.cooldownMs / 1000
const sent = { sent: true, retryAfter } as const satisfies Contract.EmailCodeAnswer

/**
 * @example
 * app.route('/', Auth.create({ db, config, now: Date.now }))
 */
export function create(options: AuthOptions): Hono<Env> {
  const { db, config, now } = options
  const mailer = config.email && Mailer.smtp(config.email)
  const caps = Caps.resolve(config.email?.limits)
  const { trustedProxies } = Limits.resolve(config.limits)
  const app = new Hono<Env>()
  app.route('/', Social.create(options))
  app.route('/', Farcaster.create(options))
  app.route('/', Passkey.create(options))

  /**
   * The request's project, the configuration's secret and caps, and the client the caps count it against;
   * 404 when email login is off.
   */
  const setup = (c: Context<Env>) => {
    const { project } = known(c, Contract.commonQuery)
    if (!config.email || !mailer) throw new HttpError(404, messages.notConfigured)
    const client = Limits.clientOf(c, trustedProxies)
    return { projectId: project.id, secret: config.email.secret, mailer, client, caps }
  }

  /** The setup, and the user and session of the request's bearer token; 401 without an active one. */
  const signedIn = async (c: Context<Env>) => {
    const context = setup(c)
    const token = Sessions.tokenOf(c.req.header('Authorization'))
    const found = token && (await Sessions.find(db, { ...context, token, now: now() }))
    if (!found) throw new HttpError(401, messages.invalidSession)
    return { ...context, ...found }
  }

  /**
   * Issues a code and mails it. Throttled (429); when the mail cannot be sent, the code is undone, so the
   * address's previous code works again and the visitor may ask at once (502).
   */
  const sendCode = async (mailer: Mailer.Mailer, parameters: Omit<Codes.IssueParameters, 'now'>) => {
    const issued = await Codes.issue(db, { ...parameters, now: now() })
    if (!issued.ok) throw tooSoon(issued)
    try {
      const mail = codeMail(parameters.purpose, issued.code, Codes.codeTtlMs / 60_000)
      await mailer.send({ to: parameters.email, ...mail })
    } catch (error) {
      await issued.undo()
      console.warn('[airlock-api] A code email could not be sent:', (error as Error).message)
      throw new HttpError(502, messages.notSent)
    }
  }

  const redeem = async (parameters: Omit<Codes.RedeemParameters, 'now'>) => {
    const redeemed = await Codes.redeem(db, { ...parameters, now: now() })
    if (!redeemed.ok && redeemed.reason === 'failures') throw tooSoon(redeemed)
    if (!redeemed.ok) throw new HttpError(401, refusals[redeemed.reason])
    return redeemed.code
  }

  app.post('/v1/auth/email', async (c) => {
    const { projectId, secret, mailer, client } = setup(c)
    const { email } = parse(Contract.emailBody, await json(c))
    await sendCode(mailer, { email, purpose: 'login', projectId, secret, client, caps })
    return c.json(sent)
  })

  app.post('/v1/auth/email/verify', async (c) => {
    const { projectId, secret, client } = setup(c)
    const { email, code } = parse(Contract.emailVerifyBody, await json(c))
    await redeem({ purpose: 'login', key: { email }, projectId, code, secret, client, caps })
    const user = await Users.findOrCreate(db, email, now())
    const { token } = await Sessions.open(db, { userId: user.id, projectId, secret, now: now() })
    return c.json({ token, user: publicUser(user) } satisfies Contract.EmailSessionAnswer)
  })

  app.get('/v1/auth/me', async (c) => {
    const { user } = await signedIn(c)
    const shown = await sessionUserOf(db, user)
    if (!shown) throw new HttpError(401, messages.invalidSession)
    return c.json({ user: shown } satisfies Contract.SessionUserAnswer)
  })

  app.post('/v1/auth/logout', async (c) => {
    const { session } = await signedIn(c)
    await Sessions.revoke(db, session.id, now())
    return c.json({ success: true } satisfies Contract.LogoutAnswer)
  })

  app.post('/v1/auth/email/change', async (c) => {
    const { projectId, secret, mailer, user, client } = await signedIn(c)
    const { email } = parse(Contract.emailBody, await json(c))
    if (user.email === null) throw new HttpError(400, messages.noEmail)
    if (email === user.email) throw new HttpError(400, messages.sameEmail)
    await sendCode(mailer, {
      email: user.email,
      purpose: 'change-primary',
      projectId,
      userId: user.id,
      newEmail: email,
      secret,
      client,
      caps,
    })
    return c.json(sent)
  })

  app.post('/v1/auth/email/change/verify', async (c) => {
    const { projectId, secret, mailer, user, client } = await signedIn(c)
    const { code } = parse(Contract.emailCodeBody, await json(c))
    const primary = await redeem({
      purpose: 'change-primary',
      key: { userId: user.id },
      projectId,
      code,
      secret,
      client,
      caps,
    })
    // Sent to an address the user has left since (another session changed it): it proves nothing now.
    if (primary.email !== user.email || !primary.newEmail) throw new HttpError(401, messages.invalidCode)
    const next = {
      email: primary.newEmail,
      purpose: 'change-secondary',
      projectId,
      userId: user.id,
      secret,
      client,
      caps,
    } as const
    try {
      await sendCode(mailer, next)
    } catch (error) {
      // The visitor proved the current address: a throttle or a mail server down must not make them do it again.
      await Codes.release(db, primary)
      throw error
    }
    return c.json(sent)
  })

  app.post('/v1/auth/email/change/confirm', async (c) => {
    const { projectId, secret, user, session, client } = await signedIn(c)
    const { code } = parse(Contract.emailCodeBody, await json(c))
    const secondary = await redeem({
      purpose: 'change-secondary',
      key: { userId: user.id },
      projectId,
      code,
      secret,
      client,
      caps,
    })
    const changed = await Users.changeEmail(db, user.id, secondary.email)
    if (changed === 'taken') throw new HttpError(409, messages.emailInUse)
    if (!changed) throw new HttpError(401, messages.invalidSession)
    await Sessions.revokeOthers(db, { userId: user.id, keep: session.id, now: now() })
    return c.json({ user: publicUser(changed) } satisfies Contract.EmailUserAnswer)
  })

  return app
}

/** The 429 of a request that must wait: the product's cooldown text (docs/behaviour.md §5), or the cap that holds it (`Caps.ts`). */
function tooSoon(wait: { reason: 'cooldown' | 'failures' | 'sends'; retryAfterMs: number }): HttpError {
  const seconds = Math.ceil(wait.retryAfterMs / 1000)
  const message = {
    cooldown: messages.tryAgainAfter(seconds),
    failures: messages.tooManyFailures,
    sends: messages.tooManyCodes,
  }[wait.reason]
  return new HttpError(429, message, { 'Retry-After': String(seconds) })
}

/** What a user's own page may see of them. */
function publicUser(user: Users.EmailUser): Contract.EmailUser {
  return { id: user.id, email: user.email }
}
