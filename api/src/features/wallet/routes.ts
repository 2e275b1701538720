/**
 * The embedded wallet's custody (SECURITY.md), each route with `?projectId&st&sv`, a login's session
 * (`Authorization: Bearer <token>`), and `Origin` the configured modal origin:
 * - `POST /v1/wallet` `{ fingerprint, addresses: { eip155, solana }, authShare, recovery }` → 201
 *   `{ fingerprint, addresses }`: stores the user's wallet once. The auth share is kept sealed under
 *   `wallet.key`; the recovery share as the modal sealed it (`recovery`: under a passkey of the user's, by its
 *   `credentialId`, or under the visitor's recovery password).
 * - `GET /v1/wallet` → `{ fingerprint, addresses, authShare, recoveries }`: the auth share opened, each
 *   sealed copy of the recovery share still sealed. A known browser combines its device share with the auth
 *   share; a new one opens a recovery copy first (the passkey, or the password), and drops the auth share if
 *   it cannot. A recovery-only route would protect nothing more: the same session could read this one.
 * - `POST /v1/wallet/recovery` `{ recovery, issuedAt, signature }` → 201 `{ recoveries }`: adds a passkey's
 *   sealed copy (a wallet moving from its password to a passkey); `POST /v1/wallet/recovery/drop`
 *   `{ method: 'password', issuedAt, signature }` → `{ recoveries }`: drops the password's copy, only while a
 *   passkey's stays. Each needs `signature`, the wallet's EVM key's (EIP-191) over `Contract.recoveryProof`,
 *   made within 5 minutes: a session alone (a read mailbox) cannot change how the wallet is recovered.
 *
 * Every answer carries `Cache-Control: no-store`. Error texts, each answered as `{ message }`:
 * - 400 for a body that does not check out (`Submission.ts` names what).
 * - 401 `Invalid session`; 403 `Wallet shares are only served to the modal origin`.
 * - 401 `The wallet's key did not sign this change` (another signer, another change, or older than 5 min).
 * - 404 `The embedded wallet is not configured` (no `wallet` block), `No wallet yet`.
 * - 409 `This account already has a wallet` (shares are never overwritten), `This address is already the
 *   wallet of another account`, `The wallet is already recovered this way`, `The recovery password is kept
 *   while no passkey recovers the wallet`.
 * - 400 `This passkey is not the account's` (a recovery under a passkey the user has not registered).
 * - 500 `The auth share does not open with the configured wallet key`: `wallet.key` changed since the share
 *   was stored; never other bytes.
 */
import { createHash } from 'node:crypto'
import { type Context, Hono } from 'hono'
import { type Address, type Hex, verifyMessage } from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Passkeys from '../auth/passkey/Passkeys.ts'
import * as Sessions from '../auth/Sessions.ts'
import { messages } from './messages.ts'
import * as Sealing from './Sealing.ts'
import * as Submission from './Submission.ts'
import * as Wallets from './Wallets.ts'

export type WalletOptions = {
  /** Where users, sessions and wallets are kept. */
  db: Pick<Database, 'query' | 'transaction'>
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
    const { fingerprint, addresses, authShare, recovery } = Submission.parse(
      parse(Contract.walletBody, await json(c)),
    )
    await ownPasskey(recovery, user.id)
    const stored = await Wallets.create(db, {
      userId: user.id,
      fingerprint,
      addresses,
      authShare: Sealing.seal(authShare, key, user.id),
      recoveries: [recovery],
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
      recoveries: wallet.recoveries.map((recovery) => ({
        ...recovery,
        sealed: Buffer.from(recovery.sealed).toString('base64'),
      })),
    } satisfies Contract.StoredWallet
    authShare.fill(0)
    return c.json(answer)
  })

  app.post('/v1/wallet/recovery', async (c) => {
    const { user } = await signedIn(c)
    const body = parse(Contract.walletRecoveryBody, await json(c))
    const wallet = await Wallets.read(db, user.id, now())
    if (!wallet) throw new HttpError(404, messages.noWallet)
    // The same size as the copies already kept: a share of this wallet, sealed.
    const shareLength = (wallet.recoveries[0]?.sealed.length ?? 0) - Sealing.overhead
    const recovery = Submission.recoveryOf(body.recovery, shareLength)
    if (recovery.method !== 'passkey') throw new HttpError(409, messages.sameRecovery)
    await ownPasskey(recovery, user.id)
    const sealedSha256 = createHash('sha256').update(recovery.sealed).digest('hex')
    await proven(wallet, body, { method: 'passkey', credentialId: recovery.credentialId, sealedSha256 })
    if (!(await Wallets.addRecovery(db, user.id, recovery, now())))
      throw new HttpError(409, messages.sameRecovery)
    return c.json(await recoveriesOf(user.id), 201)
  })

  app.post('/v1/wallet/recovery/drop', async (c) => {
    const { user } = await signedIn(c)
    const body = parse(Contract.walletDropBody, await json(c))
    const wallet = await Wallets.read(db, user.id, now())
    if (!wallet) throw new HttpError(404, messages.noWallet)
    await proven(wallet, body, { method: 'password' })
    if (!(await Wallets.dropPassword(db, user.id))) throw new HttpError(409, messages.passwordNeeded)
    return c.json(await recoveriesOf(user.id))
  })

  /** A recovery under a passkey names one the user registered; 400 otherwise. */
  const ownPasskey = async (recovery: Wallets.Recovery, userId: string) => {
    if (recovery.method !== 'passkey') return
    if ((await Passkeys.find(db, recovery.credentialId))?.userId !== userId)
      throw new HttpError(400, messages.notOwnPasskey)
  }

  /** The wallet's EVM key signed exactly this change for this user within 5 minutes; 401 otherwise. */
  const proven = async (
    wallet: Wallets.Wallet,
    body: { issuedAt: number; signature: string },
    change: Parameters<typeof Contract.recoveryProof>[0]['change'],
  ) => {
    const fresh = Math.abs(now() - body.issuedAt) <= Contract.recoveryProofTtlMs
    const message = Contract.recoveryProof({ userId: wallet.userId, issuedAt: body.issuedAt, change })
    const signed =
      fresh &&
      (await verifyMessage({
        address: wallet.addresses.eip155 as Address,
        message,
        signature: body.signature as Hex,
      }).catch(() => false))
    if (!signed) throw new HttpError(401, messages.unproven)
  }

  const recoveriesOf = async (userId: string): Promise<Contract.WalletRecoveriesAnswer> => {
    const wallet = await Wallets.read(db, userId, now())
    return {
      recoveries: (wallet?.recoveries ?? []).map((recovery) =>
        recovery.method === 'passkey'
          ? { method: 'passkey', credentialId: recovery.credentialId }
          : { method: 'password' },
      ),
    }
  }

  return app
}
