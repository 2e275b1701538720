/**
 * The glue between a signed EIP-4361 / CAIP-122 message (parsed by the bridge's `Siwx`) and the API: each
 * check a sign-in's message must pass before its signature is worth checking, failing as the HTTP error
 * a client can act on.
 */
import { Caip, Siwx as Message } from '@airlock/bridge-protocol'
import { HttpError, messages as httpMessages } from '../../http/errors.ts'
import * as Projects from '../projects/Projects.ts'
import { isAddress } from './Accounts.ts'
import { messages } from './messages.ts'

/** How far ahead of the service's clock a message's `Issued At` may be: wallet clocks drift. */
export const maxClockSkewMs = 300_000

/** Parses the message text; a malformed one is a 400 naming the line. */
export function parse(text: string): Message.Message {
  try {
    return Message.parse(text)
  } catch (error) {
    if (error instanceof Message.InvalidMessageError) throw new HttpError(400, error.message)
    throw error
  }
}

/**
 * The message must be for a page of the project: its URI's origin on the project's list, and its domain
 * (and scheme, when given) the URI's, as EIP-4361 binds them.
 */
export function checkOrigin(project: Projects.Project, message: Message.Message): void {
  let uri: URL | undefined
  try {
    uri = new URL(message.uri)
  } catch {}
  const allowed =
    uri !== undefined &&
    Projects.allows(project, uri.origin) &&
    uri.host === message.domain.toLowerCase() &&
    (message.scheme === undefined || uri.protocol === `${message.scheme.toLowerCase()}:`)
  if (!allowed) throw new HttpError(403, httpMessages.invalidAppConfiguration)
}

/**
 * The message must be valid now: not expired, past its `Not Before`, and not issued further ahead than
 * {@link maxClockSkewMs}.
 * @returns its `Issued At` and `Expiration Time`, as epoch milliseconds
 */
export function checkTime(
  message: Message.Message,
  now: number,
): { issuedAt: number; expiresAt: number | undefined } {
  const expiresAt = message.expirationTime === undefined ? undefined : Message.toTime(message.expirationTime)
  if (expiresAt !== undefined && expiresAt <= now) throw new HttpError(400, messages.expired)
  if (message.notBefore !== undefined && Message.toTime(message.notBefore) > now)
    throw new HttpError(400, messages.notYetValid)
  const issuedAt = Message.toTime(message.issuedAt)
  if (issuedAt > now + maxClockSkewMs) throw new HttpError(400, messages.issuedInFuture)
  return { issuedAt, expiresAt }
}

/** The account must be one its chain can have (see `Accounts.isAddress`). */
export function checkAddress(account: Caip.AccountId): void {
  if (isAddress(account)) return
  // The parser already refuses an EVM address not in its EIP-55 spelling; this stays as the verifier's word.
  const { namespace } = Caip.parseAccountId(account)
  throw new HttpError(
    400,
    namespace === 'eip155' ? messages.invalidEvmAddress : messages.invalidAddress(namespace),
  )
}
