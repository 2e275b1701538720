/**
 * The fields of a sign-in message and the grammar of each: EIP-4361's ABNF, which CAIP-122's other
 * namespaces share, with each namespace's own address and chain reference (see `Accounts.ts`).
 */
import { type ChainId, isNamespace, type Namespace } from '../Caip.ts'
import { InvalidParamsError } from '../Errors.ts'
import { addressProblem, referenceProblem } from './Accounts.ts'
import * as DateTime from './DateTime.ts'
import * as Uri from './Uri.ts'

/** A sign-in message (EIP-4361 / CAIP-122), every time an RFC 3339 string as it appears in the text. */
export type Message = {
  /** The RFC 3986 authority asking for the sign-in: `[userinfo@]host[:port]`. */
  domain: string
  /** EIP-4361's optional scheme before the domain (`https://example.com wants you…`); absent usually. */
  scheme?: string | undefined
  /** The signing account's address as the chain writes it: EIP-55 checksummed for `eip155`. */
  accountAddress: string
  /** CAIP-2 id of the chain the session is bound to, `eip155:1`. */
  chainId: ChainId
  /** RFC 3986 URI of the resource signed in to; the API checks its origin against the project. */
  uri: string
  version: '1'
  /** At least 8 letters or digits, issued by the API (`POST /v1/siwx/nonce`). */
  nonce: string
  issuedAt: string
  expirationTime?: string | undefined
  notBefore?: string | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
  /**
   * One line of RFC 3986 reserved and unreserved characters and spaces. `''` is the ABNF's empty statement
   * (a line of its own), not the same text as no statement.
   */
  statement?: string | undefined
}

/** The word on the account line for each namespace (CAIP-122 calls it the blockchain's name). */
export const accountNames = {
  eip155: 'Ethereum',
  solana: 'Solana',
  bip122: 'Bitcoin',
} as const satisfies Record<Namespace, string>

/**
 * A message that does not follow the format: `line` (1-based) names where, 0 for a {@link Message} given
 * as fields; `field` the field at fault, when one is.
 */
export class InvalidMessageError extends InvalidParamsError {
  override name = 'InvalidMessageError'
  constructor(
    readonly line: number,
    reason: string,
    readonly field?: keyof Message | undefined,
  ) {
    super(
      line > 0 ? `Invalid sign-in message, line ${line}: ${reason}` : `Invalid sign-in message: ${reason}`,
    )
  }
}

// EIP-4361: statement = *( reserved / unreserved / " " ), which also keeps LF out.
const statementCharacter = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]/

/**
 * A nonce as EIP-4361 defines it: at least 8 letters or digits.
 * @example Siwx.isNonce('32891756') // true
 */
export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9]{8,}$/.test(value)
}

/**
 * An RFC 3339 date-time that is a real instant: `2021-02-30` is not. Leap seconds (`:60`) are refused,
 * since JavaScript time cannot hold them.
 * @example Siwx.isTimestamp('2021-09-30T16:25:24Z') // true
 */
export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && DateTime.problem(value) === undefined
}

/**
 * A sign-in domain: an RFC 3986 authority (`[userinfo@]host[:port]`) whose host is not empty and whose
 * port is at most 65535.
 * @example Siwx.isDomain('shop.example:8443') // true
 */
export function isDomain(value: unknown): value is string {
  return typeof value === 'string' && domainProblem(value) === undefined
}

/**
 * An RFC 3986 URI (`https://shop.example/login`, `ipfs://…`, `urn:…`).
 * @example Siwx.isUri('https://shop.example/login') // true
 */
export function isUri(value: unknown): value is string {
  return typeof value === 'string' && Uri.isUri(value)
}

/**
 * Checks every field, throwing {@link InvalidMessageError} naming the first bad one.
 * @example Siwx.validate(message)
 */
export function validate(message: Message): void {
  check(message, () => 0)
}

/** Checks each field to its grammar, in the order of the text; `lineOf` places a field for the error. */
export function check(message: Message, lineOf: (field: keyof Message, item?: number) => number): void {
  const fail = (field: keyof Message, reason: string, item?: number): never => {
    throw new InvalidMessageError(lineOf(field, item), reason, field)
  }
  const chainId = String(message.chainId)
  const namespace = chainId.slice(0, chainId.indexOf(':'))
  const reference = chainId.slice(chainId.indexOf(':') + 1)
  if (!isNamespace(namespace))
    throw new InvalidMessageError(
      lineOf('chainId'),
      'chainId must be a CAIP-2 id of eip155, solana or bip122',
      'chainId',
    )
  const domain = domainProblem(message.domain)
  if (domain) fail('domain', `the domain "${message.domain}" ${domain}`)
  if (message.scheme !== undefined && !Uri.isScheme(String(message.scheme)))
    fail('scheme', `the scheme "${message.scheme}" is not an RFC 3986 scheme`)
  const chain = referenceProblem(namespace, reference)
  const address = chain ? undefined : addressProblem(namespace, reference, String(message.accountAddress))
  if (address) fail('accountAddress', `the address ${address}`)
  const statement = message.statement === undefined ? undefined : String(message.statement)
  const character = [...(statement ?? '')].find((char) => !statementCharacter.test(char))
  if (character !== undefined)
    fail(
      'statement',
      `the statement may hold only RFC 3986 reserved and unreserved characters and spaces, not ${JSON.stringify(character)}`,
    )
  if (!isUri(message.uri)) fail('uri', 'URI must be an RFC 3986 URI')
  if (message.version !== '1') fail('version', 'Version must be 1')
  if (chain) fail('chainId', `Chain ID ${chain}`)
  if (!isNonce(message.nonce)) fail('nonce', 'Nonce must be at least 8 letters or digits')
  const times = [
    ['issuedAt', 'Issued At'],
    ['expirationTime', 'Expiration Time'],
    ['notBefore', 'Not Before'],
  ] as const
  for (const [key, label] of times) {
    const value = message[key]
    const problem = value === undefined && key !== 'issuedAt' ? undefined : DateTime.problem(String(value))
    if (problem) fail(key, `${label} ${problem}`)
  }
  if (message.requestId !== undefined && !Uri.isPchars(String(message.requestId)))
    fail('requestId', 'Request ID may hold only RFC 3986 path characters (pchar)')
  if (message.resources === undefined) return
  if (!Array.isArray(message.resources)) fail('resources', 'resources must be a list of URIs')
  message.resources.forEach((resource, item) => {
    if (!isUri(resource)) fail('resources', `resource ${item + 1} must be an RFC 3986 URI`, item)
  })
}

/** Why a text is no sign-in domain, or `undefined`. */
function domainProblem(domain: unknown): string | undefined {
  if (typeof domain !== 'string') return 'must be text'
  const authority = Uri.parseAuthority(domain)
  if (typeof authority === 'string') return `is not an RFC 3986 authority: ${authority}`
  if (authority.host === '') return 'names no origin: its host is empty'
  if (Number(authority.port) > 65_535) return `names no origin: its port ${authority.port} is above 65535`
  return undefined
}
