/**
 * The text of a sign-in message: EIP-4361's lines, which {@link format} writes and {@link parse} reads back
 * byte for byte.
 */
import { type Namespace, parseChainId } from '../Caip.ts'
import { accountNames, check, InvalidMessageError, type Message, validate } from './Fields.ts'

const labels = [
  'URI',
  'Version',
  'Chain ID',
  'Nonce',
  'Issued At',
  'Expiration Time',
  'Not Before',
  'Request ID',
  'Resources',
]

/**
 * The text to sign: EIP-4361 for `eip155`, CAIP-122 for `solana` and `bip122`.
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
  if (message.statement !== undefined) lines.push(message.statement)
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
 * Parses a message strictly: a text of EIP-4361's ABNF (CAIP-122's wording for other namespaces), or
 * {@link InvalidMessageError} naming the line and the field. The namespace comes from the account line
 * (`…your Ethereum account:` is `eip155`).
 * @example
 * const message = Siwx.parse(text)
 * message.chainId // 'eip155:1'
 */
export function parse(text: string): Message {
  if (typeof text !== 'string') throw new InvalidMessageError(0, 'expected text')
  const lines = text.split('\n')
  const fail = (index: number, reason: string, field?: keyof Message): never => {
    throw new InvalidMessageError(index + 1, reason, field)
  }
  const cr = lines.findIndex((line) => line.includes('\r'))
  if (cr >= 0) fail(cr, 'a line holds a CR: EIP-4361 ends lines with LF alone')
  const line = (index: number) => lines[index] ?? fail(index, 'the message ends early')

  const head = /^(.*?) wants you to sign in with your (\S+) account:$/.exec(line(0))
  if (!head) return fail(0, 'expected "{domain} wants you to sign in with your {chain} account:"')
  const [, origin = '', name] = head
  const namespace = (Object.keys(accountNames) as Namespace[]).find((key) => accountNames[key] === name)
  if (!namespace) return fail(0, `"${name}" accounts are not supported (Ethereum, Solana or Bitcoin)`)
  const schemed = /^([^:/?#]*):\/\/(.*)$/.exec(origin)
  const accountAddress = line(1)
  if (line(2) !== '') fail(2, 'expected an empty line after the address')

  // address LF LF [ statement LF ] LF "URI: ": an empty line then another is an empty statement.
  let index = 3
  let statement: string | undefined
  if (line(3) !== '' || line(4) === '') {
    statement = line(3)
    index = 4
    // A statement is followed by an empty line; "URI: " there means the text has one empty line too few.
    if (line(4) !== '')
      fail(
        statement.startsWith('URI: ') ? 3 : 4,
        statement.startsWith('URI: ')
          ? 'expected two empty lines before "URI: "'
          : 'expected an empty line after the statement',
      )
  }
  index++

  const lineOf: Partial<Record<keyof Message, number>> = { accountAddress: 2, statement: 4 }
  const field = (label: string, key: keyof Message): string => {
    const current = lines[index] ?? fail(index, `the message ends early: expected "${label}: "`, key)
    if (!current.startsWith(`${label}: `)) fail(index, `expected "${label}: "`, key)
    lineOf[key] = ++index
    return current.slice(label.length + 2)
  }
  const optional = (label: string, key: keyof Message) =>
    lines[index]?.startsWith(`${label}: `) ? field(label, key) : undefined

  const message: Message = {
    domain: schemed ? (schemed[2] ?? '') : origin,
    accountAddress,
    uri: field('URI', 'uri'),
    version: field('Version', 'version') as '1',
    chainId: `${namespace}:${field('Chain ID', 'chainId')}`,
    nonce: field('Nonce', 'nonce'),
    issuedAt: field('Issued At', 'issuedAt'),
  }
  if (schemed) message.scheme = schemed[1]
  if (statement !== undefined) message.statement = statement
  const expirationTime = optional('Expiration Time', 'expirationTime')
  if (expirationTime !== undefined) message.expirationTime = expirationTime
  const notBefore = optional('Not Before', 'notBefore')
  if (notBefore !== undefined) message.notBefore = notBefore
  const requestId = optional('Request ID', 'requestId')
  if (requestId !== undefined) message.requestId = requestId
  const firstResource = index + 2
  if (lines[index] === 'Resources:') {
    message.resources = []
    for (index++; lines[index]?.startsWith('- '); index++) message.resources.push(line(index).slice(2))
  }
  if (index < lines.length) fail(index, unexpected(lines, index, message.resources !== undefined))

  check(message, (key, item = 0) => (key === 'resources' ? firstResource + item : (lineOf[key] ?? 1)))
  return message
}

/** Why the line at `index` cannot follow the fields before it. */
function unexpected(lines: string[], index: number, inResources: boolean): string {
  const text = lines[index] ?? ''
  if (text === '')
    return index === lines.length - 1
      ? 'the message ends with a newline; EIP-4361 has none after the last field'
      : 'unexpected empty line'
  const label = labels.find((name) => text.startsWith(`${name}:`))
  if (label) return `"${label}" is out of place: the fields come once each, in the order ${labels.join(', ')}`
  return inResources
    ? 'expected "- " and a URI: one resource a line'
    : 'unexpected line: EIP-4361 has no such field'
}
