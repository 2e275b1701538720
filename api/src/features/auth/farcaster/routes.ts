/**
 * Sign In With Farcaster, the server's side, each route with `?projectId&st&sv` and a JSON body:
 * - `POST /v1/auth/farcaster/channel` `{ binding }` → `{ channelToken, url }`: draws a nonce, opens a
 *   channel at the configured relay for the modal origin (its origin as the message's URI, its host as the
 *   domain) with that nonce and an expiry 5 minutes on, and keeps the request (`Channels.ts`) with the HMAC
 *   of the modal's random `binding`. The modal shows `url` (a link, or a QR code) to the visitor's app.
 * - `POST /v1/auth/farcaster/status` `{ channelToken, binding }` → 202 `{ state: 'pending' }` until the app
 *   has answered; then the request is taken (once, whatever follows), the signed message checked
 *   (`SignIn.ts`: ours, in time, for the relay's fid, signed by the fid's custody address on the
 *   IdRegistry), and a session opened for the fid's user (created without email at the first login) →
 *   `{ token, user: { id, provider: 'farcaster', fid, username? } }`, the same 30-day bearer session as an
 *   email login's. `username` is the relay's word, shown, never relied on.
 *
 * The binding does what a social login's does (`social.ts`): a sign-in someone else began, whose channel
 * token a visitor's modal is made to poll, opens nothing for that visitor; shown with another binding, the
 * request is spent.
 *
 * Error texts, each answered as `{ message }`: 400 `Invalid binding`, `Invalid channel token` (malformed);
 * 401 `Invalid channel` (unknown, used, another project's), `Invalid binding` (another than the channel's:
 * spent), `The Farcaster sign-in has expired` (spent), and each of `SignIn.refusals`; 404 `Farcaster login
 * is not configured`; 502 `The Farcaster relay is unavailable` (nothing spent), `The RPC of {chain} is
 * unavailable` (the IdRegistry could not be read: spent).
 */
import { Hono } from 'hono'
import type { Config } from '../../../Config.ts'
import * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import { HttpError } from '../../../http/errors.ts'
import { type Env, known } from '../../../http/project.ts'
import { json, parse } from '../../../http/validate.ts'
import { randomNonce } from '../../siwx/Nonces.ts'
import * as Hmac from '../Hmac.ts'
import * as Identities from '../Identities.ts'
import * as Sessions from '../Sessions.ts'
import * as Channels from './Channels.ts'
import * as IdRegistry from './IdRegistry.ts'
import * as Relay from './Relay.ts'
import * as SignIn from './SignIn.ts'

export type FarcasterOptions = {
  /** Where sign-ins in flight, users, identities and sessions are kept. */
  db: Pick<Database, 'query'>
  /** Its `farcaster` block turns the routes on; its `email.secret` keys the HMACs and sessions. */
  config: Config
  /** The clock of requests, messages and sessions. */
  now: () => number
}

const messages = {
  notConfigured: 'Farcaster login is not configured',
  invalidChannel: 'Invalid channel',
  invalidBinding: Contract.invalidBinding,
  expired: 'The Farcaster sign-in has expired',
  relayUnavailable: 'The Farcaster relay is unavailable',
} as const

/**
 * @example
 * app.route('/', Farcaster.create({ db, config, now: Date.now }))
 */
export function create(options: FarcasterOptions): Hono<Env> {
  const { db, config, now } = options
  // The configuration refuses a farcaster block without the email one, whose secret is the sessions'.
  const farcaster = config.farcaster &&
    config.email && {
      relayUrl: config.farcaster.relayUrl,
      secret: config.email.secret,
      idOf: IdRegistry.reader(config.chains, config.farcaster),
    }
  const modal = new URL(config.modalOrigin)
  const app = new Hono<Env>()

  const setup = () => {
    if (!farcaster) throw new HttpError(404, messages.notConfigured)
    return farcaster
  }
  const relayed = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call
    } catch (error) {
      if (!(error instanceof Relay.RelayError)) throw error
      console.warn('[airlock-api] The Farcaster relay failed:', error.message)
      throw new HttpError(502, messages.relayUnavailable)
    }
  }

  app.post('/v1/auth/farcaster/channel', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const { relayUrl, secret } = setup()
    const { binding } = parse(Contract.farcasterChannelBody, await json(c))
    const nonce = randomNonce()
    const expiresAt = now() + Channels.channelTtlMs
    const channel = await relayed(
      Relay.createChannel(relayUrl, {
        siweUri: modal.origin,
        domain: modal.host,
        nonce,
        expirationTime: new Date(expiresAt).toISOString(),
      }),
    )
    const tokenHash = Hmac.digest(secret, 'farcaster-channel', channel.channelToken)
    const bindingHash = Hmac.digest(secret, 'farcaster-binding', binding)
    await Channels.put(db, { tokenHash, projectId: project.id, nonce, bindingHash, expiresAt }, now())
    return c.json(channel satisfies Contract.FarcasterChannelAnswer)
  })

  app.post('/v1/auth/farcaster/status', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const { relayUrl, secret, idOf } = setup()
    const { channelToken, binding } = parse(Contract.farcasterStatusBody, await json(c))
    const tokenHash = Hmac.digest(secret, 'farcaster-channel', channelToken)
    const spend = () => Channels.take(db, tokenHash, project.id)
    const pending = await Channels.find(db, tokenHash, project.id)
    if (!pending) throw new HttpError(401, messages.invalidChannel)
    if (!Hmac.equal(pending.bindingHash, Hmac.digest(secret, 'farcaster-binding', binding))) {
      await spend()
      throw new HttpError(401, messages.invalidBinding)
    }
    if (pending.expiresAt <= now()) {
      await spend()
      throw new HttpError(401, messages.expired)
    }
    const status = await relayed(Relay.status(relayUrl, channelToken))
    if (status.state === 'pending')
      return c.json({ state: 'pending' } satisfies Contract.FarcasterPendingAnswer, 202)
    // Taken before any check: a completed sign-in is answered once, whatever its checks find.
    const channel = await spend()
    if (!channel) throw new HttpError(401, messages.invalidChannel)
    if (status.state === 'gone') throw new HttpError(401, messages.expired)
    const expected = {
      domain: modal.host,
      uri: modal.origin,
      nonce: channel.nonce,
      fid: status.fid,
      now: now(),
    }
    const verdict = await SignIn.verify(status, expected, idOf)
    if (!verdict.ok) throw new HttpError(401, SignIn.refusals[verdict.reason])
    const username = status.username ?? undefined
    const user = await Identities.userOfAccount(db, 'farcaster', String(verdict.fid), username, now())
    const { token } = await Sessions.open(db, { userId: user.id, projectId: project.id, secret, now: now() })
    return c.json({
      token,
      user: publicUser(user.id, verdict.fid, username),
    } satisfies Contract.FarcasterSessionAnswer)
  })

  return app
}

/**
 * What a Farcaster user's own page may see of them.
 * @example publicUser(user.id, 4242, 'ada') // { id, provider: 'farcaster', fid: 4242, username: 'ada' }
 */
export function publicUser(id: string, fid: number, username: string | undefined): Contract.FarcasterUser {
  const user: Contract.FarcasterUser = { id, provider: 'farcaster', fid }
  if (username) user.username = username
  return user
}
