/**
 * Sign-In With X messages: EIP-4361 (Sign-In with Ethereum) for `eip155` accounts and its chain-agnostic
 * form CAIP-122 for `solana` and `bip122`, which differ only in the account line's wording and in the
 * `Chain ID` (EIP-155's number for Ethereum, the CAIP-2 reference elsewhere).
 *
 * {@link format} and {@link parse} are exact inverses: the text a wallet signs is the text the API parses,
 * byte for byte, so both sides build it here. No dependencies, no Node APIs: the modal and the API share it.
 *
 * @see https://eips.ethereum.org/EIPS/eip-4361
 * @see https://chainagnostic.org/CAIPs/caip-122
 */
import { type ChainId, isChainId, type Namespace, parseChainId } from './Caip.ts'
import { InvalidParamsError } from './Errors.ts'

/** A sign-in message (EIP-4361 / CAIP-122), every time an RFC 3339 string as it appears in the text. */
export type Message = {
  /** The RFC 3986 authority asking for the sign-in: `host[:port]`, no userinfo. */
  domain: string
  /** EIP-4361's optional scheme before the domain (`https://example.com wants you…`); absent usually. */
  scheme?: string | undefined
  /** The signing account's address, as the chain writes it (EIP-55 checksummed where applicable). */
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
  /** One line of human-readable text; RFC 3986 reserved and unreserved characters and spaces only. */
  statement?: string | undefined
}

/** The word on the account line for each namespace (CAIP-122 calls it the blockchain's name). */
export const accountNames = {
  eip155: 'Ethereum',
  solana: 'Solana',
  bip122: 'Bitcoin',
} as const satisfies Record<Namespace, string>

/** A message that does not follow the format; `line` (1-based) names where, 0 for a field of a value. */
export class InvalidMessageError extends InvalidParamsError {
  override name = 'InvalidMessageError'
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(
      line > 0 ? `Invalid sign-in message, line ${line}: ${reason}` : `Invalid sign-in message: ${reason}`,
    )
  }
}

const header = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?(\S+) wants you to sign in with your (\S+) account:$/
// RFC 3986: a label of letters, digits and hyphens; an IPv4 address is such a name too; IPv6 in brackets.
const domainPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/
const schemePattern = /^[A-Za-z][A-Za-z0-9+.-]*$/
// RFC 3986 URI: a scheme, then only reserved, unreserved and percent-encoded characters.
const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/
// EIP-4361: statement = *( reserved / unreserved / " " ), which also keeps LF out.
const statementPattern = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]+$/
// EIP-4361: request-id = *pchar.
const requestIdPattern = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/
const noncePattern = /^[A-Za-z0-9]{8,}$/
const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/
const evmAddressPattern = /^0x[0-9a-fA-F]{40}$/
const solanaAddressPattern = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
// Base58 (P2PKH, P2SH) or bech32/bech32m (segwit) in one case; the API decodes and checks the checksum.
const bitcoinAddressPattern =
  /^(?:[123mn][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|(?:BC|TB|BCRT)1[02-9AC-HJ-NP-Z]{8,87})$/
const evmChainPattern = /^[1-9][0-9]{0,31}$/
const referencePattern = /^[-_a-zA-Z0-9]{1,32}$/

/**
 * A nonce as EIP-4361 defines it: at least 8 letters or digits.
 * @example Siwx.isNonce('32891756') // true
 */
export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && noncePattern.test(value)
}

/**
 * An RFC 3339 date-time (the ISO 8601 profile EIP-4361 names) that is a real instant: `2021-02-30` is not.
 * Leap seconds (`:60`) are refused, since JavaScript time cannot hold them.
 * @example Siwx.isTimestamp('2021-09-30T16:25:24Z') // true
 */
export function isTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const match = timestampPattern.exec(value)
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const offsetHours = match[8] === undefined ? 0 : Number(match[8])
  const offsetMinutes = match[9] === undefined ? 0 : Number(match[9])
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59 &&
    !Number.isNaN(Date.parse(value.toUpperCase()))
  )
}

/**
 * Epoch milliseconds of an RFC 3339 timestamp.
 * @example Siwx.toTime('2021-09-30T16:25:24Z') // 1633019124000
 */
export function toTime(timestamp: string): number {
  if (!isTimestamp(timestamp)) throw new InvalidMessageError(0, `"${timestamp}" is not an RFC 3339 date-time`)
  return Date.parse(timestamp.toUpperCase())
}

/**
 * A domain as Airlock accepts it: `host[:port]`, no scheme, path or userinfo.
 * @example Siwx.isDomain('shop.example:8443') // true
 */
export function isDomain(value: unknown): value is string {
  const match = typeof value === 'string' ? domainPattern.exec(value) : null
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535)
}

/**
 * An RFC 3986 URI (`https://shop.example/login`, `ipfs://…`).
 * @example Siwx.isUri('https://shop.example/login') // true
 */
export function isUri(value: unknown): value is string {
  return typeof value === 'string' && uriPattern.test(value)
}

/**
 * The CAIP-10 account id the message signs in, `eip155:1:0xab…`.
 * @example Siwx.accountId(message) // 'eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
 */
export function accountId(message: Pick<Message, 'chainId' | 'accountAddress'>): `${ChainId}:${string}` {
  return `${message.chainId}:${message.accountAddress}`
}

/**
 * The exact text an account signs to revoke one of its sessions (`POST /v1/sessions/{address}/revoke`).
 * @example Siwx.revokeMessage('0d6a…') // 'Revoke Airlock session 0d6a…'
 */
export function revokeMessage(sessionId: string): string {
  return `Revoke Airlock session ${sessionId}`
}

/**
 * Checks every field, throwing {@link InvalidMessageError} naming the first bad one.
 * @example Siwx.validate(message)
 */
export function validate(message: Message): void {
  const bad = (field: string, reason: string) => {
    throw new InvalidMessageError(0, `${field} ${reason}`)
  }
  if (!isChainId(message.chainId)) bad('chainId', 'must be a CAIP-2 id of eip155, solana or bip122')
  const { namespace, reference } = parseChainId(message.chainId)
  if (namespace === 'eip155' && !evmChainPattern.test(reference))
    bad('chainId', 'must have a decimal EIP-155 chain id')
  if (!isDomain(message.domain)) bad('domain', 'must be host[:port]')
  if (message.scheme !== undefined && !schemePattern.test(message.scheme))
    bad('scheme', 'must be a URI scheme')
  if (!isAccountAddress(namespace, message.accountAddress))
    bad('accountAddress', `is not a ${accountNames[namespace]} address`)
  if (
    message.statement !== undefined &&
    message.statement !== '' &&
    !statementPattern.test(message.statement)
  )
    bad('statement', 'must be one line of RFC 3986 reserved or unreserved characters and spaces')
  if (!isUri(message.uri)) bad('uri', 'must be an RFC 3986 URI')
  if (message.version !== '1') bad('version', 'must be 1')
  if (!isNonce(message.nonce)) bad('nonce', 'must be at least 8 letters or digits')
  if (!isTimestamp(message.issuedAt)) bad('issuedAt', 'must be an RFC 3339 date-time')
  if (message.expirationTime !== undefined && !isTimestamp(message.expirationTime))
    bad('expirationTime', 'must be an RFC 3339 date-time')
  if (message.notBefore !== undefined && !isTimestamp(message.notBefore))
    bad('notBefore', 'must be an RFC 3339 date-time')
  if (message.requestId !== undefined && !requestIdPattern.test(message.requestId))
    bad('requestId', 'must be RFC 3986 path characters')
  if (
    message.resources !== undefined &&
    !(Array.isArray(message.resources) && message.resources.every(isUri))
  )
    bad('resources', 'must be RFC 3986 URIs')
}

/**
 * The text to sign: EIP-4361 for `eip155`, CAIP-122 for `solana` and `bip122`. An empty statement is the
 * same as none.
 * @example
 * const text = Siwx.format({
 *   domain: 'shop.example',
 *   accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
 *   chainId: 'eip155:1',
 *   uri: 'https://shop.example/login',
 *   version: '1',
 *   nonce: 'Xk2p9QaZ4mN8vB3c',
 *   issuedAt: new Date().toISOString(),
 *   statement: 'Sign in to Shop',
 * })
 */
export function format(message: Message): string {
  validate(message)
  const { namespace, reference } = parseChainId(message.chainId)
  const origin = message.scheme === undefined ? message.domain : `${message.scheme}://${message.domain}`
  const lines = [`${origin} wants you to sign in with your ${accountNames[namespace]} account:`]
  lines.push(message.accountAddress, '')
  // EIP-4361's ABNF: address LF LF [ statement LF ] LF "URI: ", so no statement leaves two empty lines.
  if (message.statement) lines.push(message.statement)
  lines.push(
    '',
    `URI: ${message.uri}`,
    `Version: ${message.version}`,
    `Chain ID: ${reference}`,
    `Nonce: ${message.nonce}`,
    `Issued At: ${message.issuedAt}`,
  )
  if (message.expirationTime !== undefined) lines.push(`Expiration Time: ${message.expirationTime}`)
  if (message.notBefore !== undefined) lines.push(`Not Before: ${message.notBefore}`)
  if (message.requestId !== undefined) lines.push(`Request ID: ${message.requestId}`)
  if (message.resources !== undefined) lines.push('Resources:', ...message.resources.map((uri) => `- ${uri}`))
  return lines.join('\n')
}

/**
 * Parses a message strictly: exactly the text {@link format} writes, or {@link InvalidMessageError} naming
 * the line. The namespace comes from the account line (`…your Ethereum account:` is `eip155`).
 * @example
 * const message = Siwx.parse(text)
 * message.chainId // 'eip155:1'
 */
export function parse(text: string): Message {
  if (typeof text !== 'string') throw new InvalidMessageError(0, 'expected text')
  const lines = text.split('\n')
  const fail = (index: number, reason: string): never => {
    throw new InvalidMessageError(index + 1, reason)
  }
  const line = (index: number) => lines[index] ?? fail(index, 'the message ends early')
  const trailing = (index: number) =>
    fail(
      index,
      line(index) === '' ? 'unexpected empty line (the text ends without a newline)' : 'unexpected line',
    )

  const head = header.exec(line(0))
  if (!head) return fail(0, 'expected "{domain} wants you to sign in with your {chain} account:"')
  const [, scheme, domain = '', name] = head
  const namespace = namespaceOf(name)
  if (!namespace) return fail(0, `"${name}" accounts are not supported (Ethereum, Solana or Bitcoin)`)
  if (!isDomain(domain)) return fail(0, `"${domain}" is not a domain (host[:port])`)

  const accountAddress = line(1)
  if (!isAccountAddress(namespace, accountAddress)) fail(1, `expected the address of the ${name} account`)
  if (line(2) !== '') fail(2, 'expected an empty line after the address')

  let index = 3
  let statement: string | undefined
  if (line(3) !== '') {
    if (line(3).startsWith('URI: ')) fail(3, 'expected an empty line before "URI: " (EIP-4361 has two)')
    statement = line(3)
    if (!statementPattern.test(statement))
      fail(3, 'the statement may hold only RFC 3986 reserved or unreserved characters and spaces')
    index = 4
  }
  if (line(index) !== '') fail(index, 'expected an empty line before "URI: "')
  index++

  const field = (label: string, valid: (value: string) => boolean, expected: string): string => {
    const current = line(index)
    if (!current.startsWith(`${label}: `)) return fail(index, `expected "${label}: "`)
    const value = current.slice(label.length + 2)
    if (!valid(value)) fail(index, `${label} must be ${expected}`)
    index++
    return value
  }
  const optional = (label: string, valid: (value: string) => boolean, expected: string) =>
    lines[index]?.startsWith(`${label}: `) ? field(label, valid, expected) : undefined

  const uri = field('URI', isUri, 'an RFC 3986 URI')
  field('Version', (value) => value === '1', '1')
  const reference = field(
    'Chain ID',
    (value) => (namespace === 'eip155' ? evmChainPattern : referencePattern).test(value),
    namespace === 'eip155' ? 'a decimal EIP-155 chain id' : 'a CAIP-2 chain reference',
  )
  const nonce = field('Nonce', isNonce, 'at least 8 letters or digits')
  const issuedAt = field('Issued At', isTimestamp, 'an RFC 3339 date-time')
  const expirationTime = optional('Expiration Time', isTimestamp, 'an RFC 3339 date-time')
  const notBefore = optional('Not Before', isTimestamp, 'an RFC 3339 date-time')
  const requestId = optional(
    'Request ID',
    (value) => requestIdPattern.test(value),
    'RFC 3986 path characters',
  )
  let resources: string[] | undefined
  if (lines[index] === 'Resources:') {
    resources = []
    for (index++; index < lines.length; index++) {
      const resource = line(index)
      if (resource === '') trailing(index)
      if (!resource.startsWith('- ') || !isUri(resource.slice(2))) fail(index, 'expected "- {URI}"')
      resources.push(resource.slice(2))
    }
  }
  if (index < lines.length) trailing(index)

  const message: Message = {
    domain,
    accountAddress,
    chainId: `${namespace}:${reference}`,
    uri,
    version: '1',
    nonce,
    issuedAt,
  }
  if (scheme !== undefined) message.scheme = scheme
  if (statement !== undefined) message.statement = statement
  if (expirationTime !== undefined) message.expirationTime = expirationTime
  if (notBefore !== undefined) message.notBefore = notBefore
  if (requestId !== undefined) message.requestId = requestId
  if (resources !== undefined) message.resources = resources
  return message
}

function namespaceOf(name: string | undefined): Namespace | undefined {
  return (Object.keys(accountNames) as Namespace[]).find((namespace) => accountNames[namespace] === name)
}

function isAccountAddress(namespace: Namespace, address: unknown): boolean {
  if (typeof address !== 'string') return false
  if (namespace === 'eip155') return evmAddressPattern.test(address)
  if (namespace === 'solana') return solanaAddressPattern.test(address)
  return bitcoinAddressPattern.test(address)
}
