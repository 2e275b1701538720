/**
 * The embedded wallet's custody (SECURITY.md), each route with `?projectId&st&sv`, an email or social login's
 * session (`Authorization: Bearer <token>`), and `Origin` the configured modal origin:
 * - `POST /v1/wallet` `{ fingerprint, addresses: { eip155, solana }, authShare, recoveryShare }` → 201
 *   `{ fingerprint, addresses }`: stores the user's wallet once. The auth share is kept sealed under
 *   `wallet.key`; the recovery share as the modal sealed it under the visitor's recovery password.
 * - `GET /v1/wallet` → `{ fingerprint, addresses, authShare, recoveryShare }`: the auth share opened, the
 *   recovery share still sealed. A known browser combines its device share with the auth share; a new one
 *   opens the recovery share with the recovery password first, and drops the auth share if it cannot. A
 *   recovery-only route would protect nothing more: the same session could read this one.
 *
 * Every answer carries `Cache-Control: no-store`. Error texts, each answered as `{ message }`:
 * - 400 for a body that does not check out (`Submission.ts` names what).
 * - 401 `Invalid session`; 403 `Wallet shares are only served to the modal origin`.
 * - 404 `The embedded wallet is not configured` (no `wallet` block), `No wallet yet`.
 * - 409 `This account already has a wallet` (shares are never overwritten), `This address is already the
 *   wallet of another account`.
 * - 500 `The auth share does not open with the configured wallet key`: `wallet.key` changed since the share
 *   was stored; never other bytes.
 */
import { type Context, Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Sessions from '../auth/Sessions.ts'
import { messages } from './messages.ts'
import * as Sealing from './Sealing.ts'
import * as Submission from './Submission.ts'
import * as Wallets from './Wallets.ts'

export type WalletOptions = {
  /** Where users, sessions and wallets are kept. */
  db: Pick<Database, 'query'>
  /** Its `wallet` block turns the routes on; `email.secret` keys the sessions they take. */
  config: Config
  /** The clock of sessions and of the wallets' times. */
  now: () => number
}

/**
 * @example
 * app.route('/', Wallet.create({ db, config, now: Date.now }))
 */
export function create(options: WalletOptions): Hono<Env> {
  const { db, config, now } = options
  const key = config.wallet && Sealing.keyOf(config.wallet.key)
  const app = new Hono<Env>()

  // No cache may keep a share, nor a "no wallet yet" that would hide the wallet once it exists.
  app.use('/v1/wallet', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })

  /** The key and the user of the request's session; in this order, 404, 403 and 401 otherwise. */
  const signedIn = async (c: Context<Env>) => {
    const { project } = known(c, Contract.commonQuery)
    if (!key || !config.email) throw new HttpError(404, messages.notConfigured)
    // CORS already keeps other pages from reading the answers; this keeps them from being asked at all.
    if (c.req.header('Origin') !== config.modalOrigin) throw new HttpError(403, messages.notModalOrigin)
    const token = Sessions.tokenOf(c.req.header('Authorization'))
    const secret = config.email.secret
    const found = token && (await Sessions.find(db, { token, projectId: project.id, secret, now: now() }))
    if (!found) throw new HttpError(401, messages.invalidSession)
    return { key, user: found.user }
  }

  app.post('/v1/wallet', async (c) => {
    const { key, user } = await signedIn(c)
    const { fingerprint, addresses, authShare, recoveryShare } = Submission.parse(
      parse(Contract.walletBody, await json(c)),
    )
    const stored = await Wallets.create(db, {
      userId: user.id,
      fingerprint,
      addresses,
      authShare: Sealing.seal(authShare, key, user.id),
      recoveryShare,
      createdAt: now(),
    })
    // The clear bytes last no longer than they must (the body's base64 string cannot be wiped).
    authShare.fill(0)
    if (stored === 'exists') throw new HttpError(409, messages.alreadyHasWallet)
    if (stored === 'taken') throw new HttpError(409, messages.addressTaken)
    return c.json({ fingerprint, addresses } satisfies Contract.WalletAnswer, 201)
  })

  app.get('/v1/wallet', async (c) => {
    const { key, user } = await signedIn(c)
    const wallet = await Wallets.read(db, user.id, now())
    if (!wallet) throw new HttpError(404, messages.noWallet)
    let authShare: Uint8Array
    try {
      authShare = Sealing.open(wallet.authShare, key, user.id)
    } catch (error) {
      if (!(error instanceof Sealing.SealedShareError)) throw error
      console.error('[airlock-api] An auth share does not open with wallet.key (changed?): user', user.id)
      throw new HttpError(500, messages.unreadable)
    }
    const answer = {
      fingerprint: wallet.fingerprint,
      addresses: wallet.addresses,
      authShare: Buffer.from(authShare).toString('base64'),
      recoveryShare: Buffer.from(wallet.recoveryShare).toString('base64'),
    } satisfies Contract.WalletBody
    authShare.fill(0)
    return c.json(answer)
  })

  return app
}
