/**
 * Passkeys, the server's side (WebAuthn Level 3 with `@simplewebauthn/server`), each route with
 * `?projectId&st&sv` and a JSON body; the relying party is the modal origin's host name, and only the modal
 * origin itself is an accepted origin (a ceremony in its frame or in its own window: both are that origin).
 * - `POST /v1/auth/passkey/register/options` `{}` with the session's bearer → `{ options }`: a challenge
 *   for the session's user, a discoverable credential with user verification, the user's other passkeys
 *   excluded.
 * - `POST /v1/auth/passkey/register` `{ response }` with the bearer → `{ credentialId }`: the credential
 *   checked (challenge, origin, RP ID, user verification) and kept for the user (its public key and counter).
 * - `POST /v1/auth/passkey/login/options` `{}` → `{ options }`: a challenge for any passkey of this relying
 *   party (discoverable: no credential is named).
 * - `POST /v1/auth/passkey/login` `{ response }` → `{ token, user }`: the assertion checked (challenge,
 *   origin, RP ID, user verification, signature by the credential's key, a signature counter that moved
 *   forward, the user handle the credential's) and a 30-day session opened for its user, as an email login's.
 *
 * A challenge works once, for its purpose, project (and, registering, user), for 5 minutes (`Challenges.ts`),
 * taken by the first answer that names it whatever comes of it: a replayed assertion finds none. Extension
 * outputs are not read: the PRF output the modal seals with stays in the modal origin.
 *
 * Error texts, each answered as `{ message }`: 400 for a malformed body; 401 `Invalid session`,
 * `This passkey request expired or was already used`, `This passkey is not registered here`,
 * `The passkey's answer does not check out`; 404 `Passkeys are not available here` (no email block for the
 * sessions, or a modal origin whose host is an IP address, which WebAuthn refuses); 409 `This passkey is
 * registered already`.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { base64urlnopad } from '@scure/base'
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { type Context, Hono } from 'hono'
import type { Config } from '../../../Config.ts'
import * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import { HttpError } from '../../../http/errors.ts'
import { type Env, known } from '../../../http/project.ts'
import { json, parse } from '../../../http/validate.ts'
import * as Projects from '../../projects/Projects.ts'
import * as Sessions from '../Sessions.ts'
import { sessionUserOf } from '../SessionUser.ts'
import * as Users from '../Users.ts'
import * as Challenges from './Challenges.ts'
import * as Passkeys from './Passkeys.ts'

export type PasskeyOptions = {
  /** Where passkeys, challenges, users and sessions are kept. */
  db: Pick<Database, 'query'>
  /** Its `modalOrigin` is the relying party; its `email.secret` keys the sessions. */
  config: Config
  /** The clock of challenges and sessions. */
  now: () => number
}

const messages = {
  unavailable: 'Passkeys are not available here',
  invalidSession: 'Invalid session',
  challenge: 'This passkey request expired or was already used',
  unknown: 'This passkey is not registered here',
  refused: "The passkey's answer does not check out",
  registered: 'This passkey is registered already',
} as const

/** ES256, EdDSA, RS256 (COSE): what passkey providers create, in that order of preference. */
const algorithms = [-7, -8, -257]

/**
 * @example
 * app.route('/', Passkey.create({ db, config, now: Date.now }))
 */
export function create(options: PasskeyOptions): Hono<Env> {
  const { db, config, now } = options
  const origin = config.modalOrigin
  const rpID = new URL(origin).hostname
  // WebAuthn refuses a relying party that is an IP address; a modal origin there keeps the password.
  const available = config.email !== undefined && !/^[\d.]+$|^\[/.test(rpID)
  const app = new Hono<Env>()

  const setup = (c: Context<Env>) => {
    const { project } = known(c, Contract.commonQuery)
    if (!available || !config.email) throw new HttpError(404, messages.unavailable)
    return { projectId: project.id, secret: config.email.secret, project }
  }
  const signedIn = async (c: Context<Env>) => {
    const context = setup(c)
    const token = Sessions.tokenOf(c.req.header('Authorization'))
    const found = token && (await Sessions.find(db, { ...context, token, now: now() }))
    if (!found) throw new HttpError(401, messages.invalidSession)
    return { ...context, user: found.user }
  }

  app.post('/v1/auth/passkey/register/options', async (c) => {
    const { projectId, user } = await signedIn(c)
    const shown = await sessionUserOf(db, user)
    const name = shown && passkeyName(shown)
    if (!name) throw new HttpError(401, messages.invalidSession)
    const generated = await generateRegistrationOptions({
      rpName: 'Airlock',
      rpID,
      userName: name,
      userDisplayName: name,
      userID: userHandle(user.id),
      attestationType: 'none',
      excludeCredentials: (await Passkeys.of(db, user.id)).map(({ credentialId, transports }) => ({
        id: credentialId,
        transports,
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: algorithms,
    })
    await Challenges.put(
      db,
      { challenge: generated.challenge, purpose: 'register', userId: user.id, projectId },
      now(),
    )
    return c.json({ options: answered(Contract.passkeyCreationOptions, generated) })
  })

  app.post('/v1/auth/passkey/register', async (c) => {
    const { projectId, user } = await signedIn(c)
    const { response } = parse(Contract.passkeyRegisterBody, await json(c))
    const challenge = await take(response.response.clientDataJSON, {
      purpose: 'register',
      userId: user.id,
      projectId,
    })
    const verified = await checked(() =>
      verifyRegistrationResponse({
        response: { ...response, clientExtensionResults: {} },
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      }),
    )
    if (!verified.verified) throw new HttpError(401, messages.refused)
    const { credential } = verified.registrationInfo
    const added = await Passkeys.add(
      db,
      {
        credentialId: credential.id,
        userId: user.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
      },
      now(),
    )
    if (!added) throw new HttpError(409, messages.registered)
    return c.json({ credentialId: credential.id } satisfies Contract.PasskeyRegisterAnswer)
  })

  app.post('/v1/auth/passkey/login/options', async (c) => {
    const { projectId } = setup(c)
    const generated = await generateAuthenticationOptions({ rpID, userVerification: 'required' })
    await Challenges.put(db, { challenge: generated.challenge, purpose: 'login', projectId }, now())
    return c.json({ options: answered(Contract.passkeyRequestOptions, generated) })
  })

  app.post('/v1/auth/passkey/login', async (c) => {
    const { projectId, secret, project } = setup(c)
    const { response } = parse(Contract.passkeyLoginBody, await json(c))
    const challenge = await take(response.response.clientDataJSON, { purpose: 'login', projectId })
    const passkey = await Passkeys.find(db, response.id)
    if (!passkey) throw new HttpError(401, messages.unknown)
    // A discoverable credential names its user; it must be the one it was registered for.
    const handle = response.response.userHandle
    if (handle !== undefined && handle !== base64urlnopad.encode(userHandle(passkey.userId)))
      throw new HttpError(401, messages.refused)
    const verified = await checked(() =>
      verifyAuthenticationResponse({
        response: { ...response, clientExtensionResults: {} },
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        // Run in the modal's frame, the assertion names the page on top (WebAuthn L3 `topOrigin`): one of the
        // project's pages, or the library refuses it as it refuses any cross-origin answer without one.
        expectedTopOrigin: listedTopOrigin(response.response.clientDataJSON, project),
        credential: {
          id: passkey.credentialId,
          publicKey: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: true,
      }),
    )
    if (!verified.verified) throw new HttpError(401, messages.refused)
    if (!(await Passkeys.used(db, passkey, verified.authenticationInfo.newCounter, now())))
      throw new HttpError(401, messages.refused)
    const user = await Users.byId(db, passkey.userId)
    const shown = user && (await sessionUserOf(db, user))
    if (!shown) throw new HttpError(401, messages.unknown)
    const { token } = await Sessions.open(db, { userId: passkey.userId, projectId, secret, now: now() })
    return c.json({ token, user: shown } satisfies Contract.PasskeySessionAnswer)
  })

  /** Takes the challenge the client data names, or 401: unknown, used, expired, or handed out for another. */
  const take = async (clientDataJSON: string, expected: Omit<Challenges.Challenge, 'challenge'>) => {
    const challenge = challengeOf(clientDataJSON)
    if (!challenge || !(await Challenges.take(db, { ...expected, challenge }, now())))
      throw new HttpError(401, messages.challenge)
    return challenge
  }

  return app
}

/** The WebAuthn user handle of a user: their id's 16 bytes, nothing that names them. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  const hex = userId.replaceAll('-', '')
  return new Uint8Array(
    Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)),
  )
}

/** The top origin the client data names, where the project lists it; undefined otherwise. */
function listedTopOrigin(clientDataJSON: string, project: Projects.Project): string | undefined {
  const top = clientDataOf(clientDataJSON)?.topOrigin
  return typeof top === 'string' && Projects.allows(project, top) ? top : undefined
}

/** The client data (base64url JSON), or undefined when it is not readable. */
function clientDataOf(clientDataJSON: string): { challenge?: unknown; topOrigin?: unknown } | undefined {
  try {
    const data: unknown = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(clientDataJSON)))
    return typeof data === 'object' && data !== null ? data : undefined
  } catch {
    return undefined
  }
}

/** The challenge the client data carries (base64url), or undefined when it is not readable. */
function challengeOf(clientDataJSON: string): string | undefined {
  const challenge = clientDataOf(clientDataJSON)?.challenge
  return typeof challenge === 'string' && challenge.length <= 128 ? challenge : undefined
}

/** Runs the library's check; any error it throws (another origin, RP ID, signature …) is a 401. */
async function checked<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify()
  } catch (error) {
    console.warn('[airlock-api] A passkey answer was refused:', (error as Error).message)
    throw new HttpError(401, messages.refused)
  }
}

/** The library's options as the contract writes them (its extra hints dropped). */
function answered<T>(shape: S.Shape<T>, generated: unknown): T {
  const parsed = S.parse(shape, generated)
  if (!parsed.ok) throw new Error(`WebAuthn options out of the contract's shape: ${parsed.message}`)
  return parsed.value
}

/** The name a passkey is saved under in the visitor's password manager: what they log in with. */
function passkeyName(user: Contract.SessionUserAnswer['user']): string {
  if ('email' in user && user.email) return user.email
  if (!('provider' in user)) return user.id
  if (user.username) return user.username
  return 'fid' in user ? `fid ${user.fid}` : `${user.provider} ${user.id}`
}
