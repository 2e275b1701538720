/**
 * Sign-In With X routes (SPEC §4 sign-in flow, §7 `GET /v1/sessions/{address}` and
 * `POST /v1/sessions/{address}/revoke`), each with `?projectId&st&sv`:
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
 * - 400 malformed input: the shape's or the message parser's text (it names the line), `Invalid EVM
 *   address`, `Invalid {namespace} address`, `Unsupported chain: {id}`, `Message expired`,
 *   `Message not yet valid`, `Message issued in the future`, `chainId does not match the address`.
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
import type { Context, Hono } from 'hono'
import type { Config } from '../Config.ts'
import type { Database } from '../Database.ts'
import * as Projects from '../Projects.ts'
import * as Siwx from '../Siwx.ts'
import * as Api from './Api.ts'

/** Error texts of these routes that clients may match on (shared ones are `Api.messages`). */
export const messages = {
  invalidSignature: 'Invalid signature',
  invalidSession: 'Invalid session',
  sessionNotFound: 'Session not found',
  unknownNonce: 'Unknown nonce',
  usedNonce: 'Nonce already used',
  expiredNonce: 'Nonce expired',
  expired: 'Message expired',
  notYetValid: 'Message not yet valid',
  issuedInFuture: 'Message issued in the future',
  invalidEvmAddress: 'Invalid EVM address',
  invalidAddress: (namespace: string) => `Invalid ${namespace} address`,
  chainMismatch: 'chainId does not match the address',
} as const

export type SessionsOptions = {
  /** Where nonces and sessions are kept. */
  db: Database
  /** The chains: an `eip155` sign-in is checked on its chain's RPC, and refused on chains not listed. */
  config: Config
  /** The clock nonces and messages are checked against. */
  now: () => number
}

const signature = S.string(8_192, 1)
const sessionBody = S.object({ message: S.string(16_384, 1), signature })
// A token is 43 characters; a longer text cannot be one, a shorter one is simply unknown.
const verifyBody = S.object({ token: S.string(256, 1) })
const revokeBody = S.object({
  pci: S.check(S.string(36), Siwx.isSessionId, 'pci: expected a session id'),
  signature,
})
const chainIdQuery = S.optional(S.check(S.string(80), Caip.isChainId, Caip.invalidChainId))

const nonceErrors = {
  unknown: messages.unknownNonce,
  used: messages.usedNonce,
  expired: messages.expiredNonce,
} as const

/**
 * Adds the sign-in routes to the API's app.
 * @example
 * Sessions.routes(app, { db, config, now: Date.now })
 */
export function routes(app: Hono<Api.Env>, options: SessionsOptions): void {
  const { db, config, now } = options

  /** The RPC URL an `eip155` chain is checked on; other namespaces check offline. */
  const rpcUrlOf = (chainId: string): string | undefined => {
    const { namespace, reference } = Caip.parseChainId(chainId)
    if (namespace === 'eip155') {
      const chain = config.chains.find((entry) => entry.id === chainId)
      if (!chain) throw new Api.HttpError(400, Api.messages.unsupportedChain(chainId))
      return chain.rpcUrl
    }
    if (namespace === 'bip122' && !Siwx.bitcoinNetworks[reference])
      throw new Api.HttpError(400, Api.messages.unsupportedChain(chainId))
    return undefined
  }

  const verify = async (account: string, rpcUrl: string | undefined, message: string, signature: string) => {
    try {
      return await Siwx.verify({ account, message, signature, rpcUrl })
    } catch (error) {
      if (error instanceof Siwx.RpcError)
        throw new Api.HttpError(502, Api.messages.rpcUnavailable(error.chainId))
      throw error
    }
  }

  app.post('/v1/siwx/nonce', async (c) => {
    const { project } = Api.known(c, Api.commonQuery)
    const { nonce, expiresAt } = await Siwx.issueNonce(db, project.id, now())
    return c.json({ nonce, expiresAt: iso(expiresAt) })
  })

  app.post('/v1/sessions', async (c) => {
    const { project } = Api.known(c, Api.commonQuery)
    const body = Api.parse(sessionBody, await Api.json(c))
    const message = parseMessage(body.message)
    // The nonce is spent by any attempt that names it, so a failed sign-in cannot be retried with it.
    const nonce = await Siwx.consumeNonce(db, project.id, message.nonce, now())
    if (nonce !== 'valid') throw new Api.HttpError(409, nonceErrors[nonce])
    checkOrigin(project, message)
    const time = now()
    const expiresAt =
      message.expirationTime === undefined ? undefined : Message.toTime(message.expirationTime)
    if (expiresAt !== undefined && expiresAt <= time) throw new Api.HttpError(400, messages.expired)
    if (message.notBefore !== undefined && Message.toTime(message.notBefore) > time)
      throw new Api.HttpError(400, messages.notYetValid)
    const issuedAt = Message.toTime(message.issuedAt)
    if (issuedAt > time + Siwx.maxClockSkewMs) throw new Api.HttpError(400, messages.issuedInFuture)
    const account = Message.accountId(message)
    const rpcUrl = rpcUrlOf(message.chainId)
    checkAddress(account)
    if (!(await verify(account, rpcUrl, body.message, body.signature)))
      throw new Api.HttpError(401, messages.invalidSignature)
    const { session, token } = await Siwx.createSession(db, {
      projectId: project.id,
      address: account,
      message: body.message,
      signature: body.signature,
      issuedAt,
      expiresAt,
      now: time,
    })
    // The only answer with the token: the visitor's page hands it to the dApp's backend.
    const { id, address, chainId } = session
    return c.json(
      {
        id,
        address,
        chainId,
        message: session.message,
        signature: session.signature,
        issuedAt: iso(session.issuedAt),
        expiresAt: iso(session.expiresAt),
        token,
      },
      201,
    )
  })

  // For a dApp's backend: the token stands for the session, the signed message does not.
  app.post('/v1/sessions/verify', async (c) => {
    const { project } = Api.known(c, Api.commonQuery)
    const body = Api.parse(verifyBody, await Api.json(c))
    const session = await Siwx.sessionByToken(db, project.id, body.token, now())
    if (!session) throw new Api.HttpError(401, messages.invalidSession)
    return c.json(toJson(session))
  })

  app.get('/v1/sessions/:address', async (c) => {
    const { project } = Api.known(c, Api.commonQuery)
    const account = accountOf(c)
    const sessions = await Siwx.activeSessions(db, project.id, account, now())
    return c.json({ sessions: sessions.map(toJson) })
  })

  app.post('/v1/sessions/:address/revoke', async (c) => {
    const { project } = Api.known(c, Api.commonQuery)
    const account = accountOf(c)
    const body = Api.parse(revokeBody, await Api.json(c))
    const session = await Siwx.findSession(db, project.id, body.pci)
    if (!session || session.address !== account) throw new Api.HttpError(404, messages.sessionNotFound)
    const rpcUrl = rpcUrlOf(session.chainId)
    if (!(await verify(session.address, rpcUrl, Message.revokeMessage(body.pci), body.signature)))
      throw new Api.HttpError(401, messages.invalidSignature)
    await Siwx.revoke(db, session.id, now())
    return c.json({ success: true })
  })
}

function parseMessage(text: string): Message.Message {
  try {
    return Message.parse(text)
  } catch (error) {
    if (error instanceof Message.InvalidMessageError) throw new Api.HttpError(400, error.message)
    throw error
  }
}

/**
 * The message must be for a page of the project: its URI's origin on the project's list, and its domain
 * (and scheme, when given) the URI's, as EIP-4361 binds them.
 */
function checkOrigin(project: Projects.Project, message: Message.Message): void {
  let uri: URL | undefined
  try {
    uri = new URL(message.uri)
  } catch {}
  const allowed =
    uri !== undefined &&
    Projects.allows(project, uri.origin) &&
    uri.host === message.domain.toLowerCase() &&
    (message.scheme === undefined || uri.protocol === `${message.scheme.toLowerCase()}:`)
  if (!allowed) throw new Api.HttpError(403, Api.messages.invalidAppConfiguration)
}

function checkAddress(account: Caip.AccountId): void {
  if (Siwx.isAddress(account)) return
  // A mixed-case EVM address with a wrong EIP-55 checksum is a typo, not an address.
  const { namespace } = Caip.parseAccountId(account)
  throw new Api.HttpError(
    400,
    namespace === 'eip155' ? messages.invalidEvmAddress : messages.invalidAddress(namespace),
  )
}

/**
 * The account of the path: CAIP-10 (`eip155:1:0xab…`, raw or URL-encoded), or a bare address with the
 * chain in `?chainId`. A `chainId` next to a CAIP-10 address must be its chain.
 */
function accountOf(c: Context<Api.Env>): Caip.AccountId {
  const path = c.req.param('address') ?? ''
  const chainId = Api.parse(chainIdQuery, c.req.query('chainId'))
  if (Caip.isAccountId(path)) {
    if (chainId !== undefined && Caip.parseAccountId(path).chainId !== chainId)
      throw new Api.HttpError(400, messages.chainMismatch)
    return Siwx.normalizeAccount(path)
  }
  const account = chainId === undefined ? undefined : `${chainId}:${path}`
  if (!Caip.isAccountId(account)) throw new Api.HttpError(400, Caip.invalidAccountId)
  return Siwx.normalizeAccount(account)
}

/** What anyone may see of a session: no message, signature or token, which could pass for a login proof. */
function toJson(session: Siwx.Session) {
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
