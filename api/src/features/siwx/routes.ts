/**
 * Sign-In With X (EIP-4361 / CAIP-122) routes, each with `?projectId&st&sv`:
 * - `POST /v1/siwx/nonce` → `{ nonce, expiresAt }`.
 * - `POST /v1/sessions` `{ message, signature }` (a signed EIP-4361 / CAIP-122 message) → 201
 *   `{ id, address, chainId, message, signature, issuedAt, expiresAt, token }`. `token` (32 random bytes,
 *   base64url) is the session's bearer credential, answered here only; `expiresAt` is the message's
 *   `Expiration Time`, capped at 30 days from now.
 * - `GET /v1/sessions/{address}` → `{ sessions: [{ id, address, chainId, issuedAt, expiresAt }] }`, the
 *   account's active sessions. Public (the project id is public), so it shows no message, signature or token.
 * - `POST /v1/sessions/verify` `{ token }`, for a dApp's backend → `{ id, address, chainId, issuedAt,
 *   expiresAt }` while the token's session in the project is active, else 401 `Invalid session`.
 * - `POST /v1/sessions/{address}/revoke` `{ pci, signature }` (the account's signature of
 *   `Revoke Airlock session {pci}`) → `{ success: true }`.
 *
 * Error texts, each answered as `{ message }`:
 * - 400 malformed input: the shape's or the message parser's text (it names the line and the field, and
 *   refuses an EVM address not in its EIP-55 spelling or a Bitcoin address of another network),
 *   `Invalid {namespace} address` (one sign-in cannot check, such as P2WSH), `Unsupported chain: {id}`,
 *   `Message expired`, `Message not yet valid`, `Message issued in the future`, `chainId does not match
 *   the address`.
 * - 401 `Invalid signature`; `Invalid session` from the verify route.
 * - 403 `Project id not configured`; `Invalid App Configuration` when the message's URI is not an origin
 *   of the project or its domain is not the URI's host.
 * - 404 `Session not found`.
 * - 409 nonce problems, each meaning "ask for a new nonce": `Unknown nonce`, `Nonce already used`,
 *   `Nonce expired`.
 * - 502 `The RPC of {chain} is unavailable` when an EVM signature could not be checked.
 */
import { Caip, Siwx as Message } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { type Context, Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages as httpMessages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Accounts from './Accounts.ts'
import { messages } from './messages.ts'
import * as Nonces from './Nonces.ts'
import * as Sessions from './Sessions.ts'
import * as SignedMessage from './SignedMessage.ts'

export type SiwxOptions = {
  /** Where nonces and sessions are kept. */
  db: Pick<Database, 'query'>
  /** The chains: an `eip155` sign-in is checked on its chain's RPC, and refused on chains not listed. */
  config: Config
  /** The clock nonces and messages are checked against. */
  now: () => number
}

// A token is 43 characters; a longer text cannot be one, a shorter one is simply unknown.
const verifyBody = S.object({ token: S.string(256, 1) })
const revokeBody = S.object({
  pci: S.check(S.string(36), Sessions.isSessionId, 'pci: expected a session id'),
  signature: S.string(8_192, 1),
})
const chainIdQuery = S.optional(Contract.chainId)

const nonceErrors = {
  unknown: messages.unknownNonce,
  used: messages.usedNonce,
  expired: messages.expiredNonce,
} as const

/**
 * @example
 * app.route('/', Siwx.create({ db, config, now: Date.now }))
 */
export function create(options: SiwxOptions): Hono<Env> {
  const { db, config, now } = options
  const app = new Hono<Env>()

  /** The RPC URL the chain's signatures are checked on; `undefined` for namespaces that check offline. */
  const rpcUrlOf = (chainId: string): string | undefined => {
    const support = Accounts.supports(chainId)
    const chain = config.chains.find((entry) => entry.id === chainId)
    if (!support || (support === 'needsRpc' && !chain))
      throw new HttpError(400, httpMessages.unsupportedChain(chainId))
    return support === 'needsRpc' ? chain?.rpcUrl : undefined
  }

  app.post('/v1/siwx/nonce', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const { nonce, expiresAt } = await Nonces.issueNonce(db, project.id, now())
    return c.json({ nonce, expiresAt: iso(expiresAt) } satisfies Contract.NonceAnswer)
  })

  app.post('/v1/sessions', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const body = parse(Contract.sessionBody, await json(c))
    const message = SignedMessage.parse(body.message)
    // The nonce is spent by any attempt that names it, so a failed sign-in cannot be retried with it.
    const nonce = await Nonces.consumeNonce(db, project.id, message.nonce, now())
    if (nonce !== 'valid') throw new HttpError(409, nonceErrors[nonce])
    SignedMessage.checkOrigin(project, message)
    const time = now()
    const { issuedAt, expiresAt } = SignedMessage.checkTime(message, time)
    const account = Message.accountId(message)
    const rpcUrl = rpcUrlOf(message.chainId)
    SignedMessage.checkAddress(account)
    // An unreachable RPC throws RpcError, which the app answers as 502.
    if (!(await Accounts.verify({ account, message: body.message, signature: body.signature, rpcUrl })))
      throw new HttpError(401, messages.invalidSignature)
    const { session, token } = await Sessions.createSession(db, {
      projectId: project.id,
      address: account,
      message: body.message,
      signature: body.signature,
      issuedAt,
      expiresAt,
      now: time,
    })
    // The only answer with the token: the visitor's page hands it to the dApp's backend.
    const answer = {
      id: session.id,
      address: session.address,
      chainId: session.chainId,
      message: session.message,
      signature: session.signature,
      issuedAt: iso(session.issuedAt),
      expiresAt: iso(session.expiresAt),
      token,
    } satisfies Contract.SessionAnswer
    return c.json(answer, 201)
  })

  // For a dApp's backend: the token stands for the session, the signed message does not.
  app.post('/v1/sessions/verify', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const body = parse(verifyBody, await json(c))
    const session = await Sessions.sessionByToken(db, project.id, body.token, now())
    if (!session) throw new HttpError(401, messages.invalidSession)
    return c.json(toPublic(session))
  })

  app.get('/v1/sessions/:address', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const sessions = await Sessions.activeSessions(db, project.id, accountOf(c), now())
    return c.json({ sessions: sessions.map(toPublic) } satisfies Contract.SessionsAnswer)
  })

  app.post('/v1/sessions/:address/revoke', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const account = accountOf(c)
    const body = parse(revokeBody, await json(c))
    const session = await Sessions.findSession(db, project.id, body.pci)
    if (!session || session.address !== account) throw new HttpError(404, messages.sessionNotFound)
    const rpcUrl = rpcUrlOf(session.chainId)
    const message = Message.revokeMessage(body.pci)
    if (!(await Accounts.verify({ account: session.address, message, signature: body.signature, rpcUrl })))
      throw new HttpError(401, messages.invalidSignature)
    await Sessions.revoke(db, session.id, now())
    return c.json({ success: true })
  })

  return app
}

/**
 * The account of the path: CAIP-10 (`eip155:1:0xab…`, raw or URL-encoded), or a bare address with the
 * chain in `?chainId`. A `chainId` next to a CAIP-10 address must be its chain.
 */
function accountOf(c: Context<Env>): Caip.AccountId {
  const path = c.req.param('address') ?? ''
  const chainId = parse(chainIdQuery, c.req.query('chainId'))
  if (Caip.isAccountId(path)) {
    if (chainId !== undefined && Caip.parseAccountId(path).chainId !== chainId)
      throw new HttpError(400, messages.chainMismatch)
    return Accounts.normalizeAccount(path)
  }
  const account = chainId === undefined ? undefined : `${chainId}:${path}`
  if (!Caip.isAccountId(account)) throw new HttpError(400, Caip.invalidAccountId)
  return Accounts.normalizeAccount(account)
}

/** What anyone may see of a session: no message, signature or token, which could pass for a login proof. */
function toPublic(session: Sessions.Session) {
  return {
    id: session.id,
    address: session.address,
    chainId: session.chainId,
    issuedAt: iso(session.issuedAt),
    expiresAt: iso(session.expiresAt),
  }
}

function iso(time: number): string {
  return new Date(time).toISOString()
}
