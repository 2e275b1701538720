/**
 * A Farcaster relay as an app speaks to it (the AuthKit relay protocol, v1): `POST /v1/channel` opens a
 * sign-in request and answers its secret channel token and the URL the visitor's Farcaster app opens;
 * `GET /v1/channel/status` (the token as a bearer) answers 202 `pending` until the app has posted the signed
 * message, then 200 `completed` with it. The relay only carries the message: `SignIn.ts` checks what it
 * passes on, and nothing it says is taken on its word.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as Contract from '../../../contract/index.ts'

/** How long the relay may take to answer one call: a status is asked every second or two. */
const relayTimeoutMs = 5_000

/** The most of an answer read: a completed status is a message of a few hundred bytes and a profile. */
const maxAnswerBytes = 64 * 1024

/** The relay could not be reached, or answered something that is not the protocol. */
export class RelayError extends Error {
  override name = 'RelayError'
}

/** What a channel is opened with; the times are ISO 8601, written into the message the app builds. */
export type ChannelParameters = {
  /** The URI the signed message must name: the login page (for the modal, its origin). */
  siweUri: string
  /** The domain (host, and port if any) the signed message must name. */
  domain: string
  /** A nonce of ours (8 or more letters and digits), which the relay must keep. */
  nonce: string
  expirationTime?: string
  notBefore?: string
}

/** The nonce a new channel echoes (its token and URL are what the API answers the modal). */
const channelNonce = S.object({ nonce: S.string(128, 8) })

/** A sign-in the visitor's app has answered, as the relay passes it on. */
const completedStatus = S.object({
  state: S.literal('completed'),
  nonce: S.string(128, 1),
  /** The EIP-4361 message the app built and had the custody address sign. */
  message: S.string(8192, 1),
  signature: S.string(2050, 4, /^0x(?:[0-9a-fA-F]{2})+$/),
  fid: Contract.fid,
  username: S.optional(S.nullable(S.string(256, 1))),
})
type Completed = S.Infer<typeof completedStatus>

const pendingStatus = S.object({ state: S.literal('pending') })

/** A channel's status: `gone` when the relay knows no such channel (expired, or never opened). */
export type Status = { state: 'pending' } | Completed | { state: 'gone' }

/**
 * Opens a sign-in request at the relay.
 * @throws {RelayError} when the relay cannot be reached, answers an error, or does not keep our nonce
 * @example const { channelToken, url } = await Relay.createChannel(relayUrl, { siweUri, domain, nonce })
 */
export async function createChannel(
  relayUrl: string,
  parameters: ChannelParameters,
): Promise<{ channelToken: string; url: string }> {
  const { status, body } = await call(`${relayUrl}/v1/channel`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(parameters),
  })
  if (status !== 201 && status !== 200) throw new RelayError(`the relay answered ${status} to a new channel`)
  if (parsed(channelNonce, body).nonce !== parameters.nonce)
    throw new RelayError('the relay did not keep the nonce it was given')
  return parsed(Contract.farcasterChannelAnswer, body)
}

/**
 * The status of a channel.
 * @throws {RelayError} when the relay cannot be reached or answers something else than a status
 * @example if ((await Relay.status(relayUrl, token)).state === 'completed') …
 */
export async function status(relayUrl: string, channelToken: string): Promise<Status> {
  const { status, body } = await call(`${relayUrl}/v1/channel/status`, {
    headers: { Authorization: `Bearer ${channelToken}` },
  })
  // The relay answers 401 for a token it does not know: its channels expire.
  if (status === 401 || status === 404) return { state: 'gone' }
  if (status === 202) return { state: parsed(pendingStatus, body).state }
  if (status === 200) return parsed(completedStatus, body)
  throw new RelayError(`the relay answered ${status} to a status`)
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response
  let text: string
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(relayTimeoutMs) })
    text = await response.text()
  } catch (error) {
    throw new RelayError(`the relay at ${url} did not answer`, { cause: error })
  }
  if (text.length > maxAnswerBytes) throw new RelayError('the relay answered too much')
  try {
    return { status: response.status, body: text ? JSON.parse(text) : undefined }
  } catch {
    throw new RelayError(`the relay answered ${response.status} with something other than JSON`)
  }
}

function parsed<T>(shape: S.Shape<T>, body: unknown): T {
  const result = S.parse(shape, body)
  if (!result.ok) throw new RelayError(`the relay's answer does not parse: ${result.message}`)
  return result.value
}
