import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidParamsError } from './Errors.ts'
import * as Siwx from './Siwx.ts'

const address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const resources = [
  'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
  'https://example.com/my-web2-claim.json',
]
// ERC-4361's first example (ethereum/ERCs, ERCS/erc-4361.md), verbatim, line by line; the table's cases
// are edits of it. Indexes: 0 header, 1 address, 3 statement, 5 URI, 6 Version, 7 Chain ID, 8 Nonce,
// 9 Issued At, 10 Resources.
const example = [
  'example.com wants you to sign in with your Ethereum account:',
  address,
  '',
  'I accept the ExampleOrg Terms of Service: https://example.com/tos',
  '',
  'URI: https://example.com/login',
  'Version: 1',
  'Chain ID: 1',
  'Nonce: 32891756',
  'Issued At: 2021-09-30T16:25:24Z',
  'Resources:',
  ...resources.map((uri) => `- ${uri}`),
]
const valid = example.join('\n')
/** The example with line `index` replaced by `lines` (none: removed). */
const edit = (index: number, ...lines: string[]) => example.toSpliced(index, 1, ...lines).join('\n')
const withOrigin = (origin: string) => edit(0, `${origin} wants you to sign in with your Ethereum account:`)
/** The example as a CAIP-122 message of another namespace. */
const caip = (name: string, account: string, reference: string) =>
  example
    .toSpliced(0, 2, `example.com wants you to sign in with your ${name} account:`, account)
    .toSpliced(7, 1, `Chain ID: ${reference}`)
    .join('\n')
const solanaMainnet = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const bitcoin = {
  mainnet: '000000000019d6689c085ae165831e93',
  testnet: '000000000933ea01ad0ee984209779ba',
  regtest: '0f9188f13cb7b2c71f2a335e3a4fc328',
  litecoin: '12a765e31ffd4059bada1e25190f6e98',
}

describe('Siwx', () => {
  // Every text here follows the ABNF; each must read back to itself, byte for byte.
  const accepted: [string, string][] = [
    ["the ERC's example", valid],
    ["the ERC's example with a port", withOrigin('example.com:3388')],
    ["the ERC's example with a scheme", withOrigin('https://example.com')],
    ['an upper-case scheme', withOrigin('HTTPS://example.com')],
    ['a scheme with "+", "-" and "."', withOrigin('git+ssh.v-2://example.com')],
    ['userinfo and a port', withOrigin('alice:s3cret@example.com:8443')],
    ['userinfo with sub-delims and percent-encoding', withOrigin("a%20b!$&'()*+,;=:@example.com")],
    ['a percent-encoded host', withOrigin('ex%41mple.com')],
    ['an IPv4 host and a port', withOrigin('127.0.0.1:5173')],
    ['an IPv6 loopback and a port', withOrigin('[::1]:5173')],
    ['a full IPv6 address', withOrigin('[2001:db8:85a3:0:0:8a2e:370:7334]')],
    ['an IPv6 address ending in IPv4', withOrigin('[::ffff:192.0.2.128]')],
    ['an IPvFuture literal', withOrigin('[v1.fe80::a+en1]')],
    ['an empty port', withOrigin('example.com:')],
    ['no statement: two empty lines', edit(3)],
    ['an empty statement: three empty lines', edit(3, '')],
    ['a statement of every character it may hold', edit(3, "Az09-._~:/?#[]@!$&'()*+,;= and  spaces ")],
    ['a statement that reads like a field', edit(3, 'URI: https://example.com')],
    ['a URN as the URI', edit(5, 'URI: urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66')],
    ['a URI with IPv6, port, query and fragment', edit(5, 'URI: https://[::1]:8080/a/b?c=d&e=/?#f/?')],
    ['a URI with an empty authority', edit(5, 'URI: file:///etc/hosts')],
    ['an upper-case, percent-encoded URI', edit(5, 'URI: HTTPS://EXAMPLE.COM/%7Euser')],
    ['a 32-digit chain id', edit(7, `Chain ID: ${'9'.repeat(32)}`)],
    ['a long nonce', edit(8, `Nonce: ${'aZ9'.repeat(20)}`)],
    ['nanoseconds and more', edit(9, 'Issued At: 2021-09-30T16:25:24.123456789012Z')],
    ['lower-case "t" and "z"', edit(9, 'Issued At: 2021-09-30t16:25:24z')],
    ['an offset', edit(9, 'Issued At: 2024-02-29T23:59:59.5+05:30')],
    ['an unknown offset (-00:00)', edit(9, 'Issued At: 2021-09-30T16:25:24-00:00')],
    [
      'every optional field, an empty request id among them',
      edit(
        9,
        example[9] ?? '',
        'Expiration Time: 2021-10-01T00:00:00Z',
        'Not Before: 2021-09-30T00:00:00Z',
        'Request ID: ',
      ),
    ],
    ['a request id of every pchar', edit(9, example[9] ?? '', "Request ID: a%20Z9-._~!$&'()*+,;=:@")],
    ['an empty resource list', example.slice(0, 11).join('\n')],
    ['no resources', example.slice(0, 10).join('\n')],
    ['a Solana account', caip('Solana', 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1', solanaMainnet)],
    ['a Solana key of zero bytes', caip('Solana', '11111111111111111111111111111111', solanaMainnet)],
    ['a P2WPKH address', caip('Bitcoin', 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l', bitcoin.mainnet)],
    [
      'an upper-case P2WPKH address',
      caip('Bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', bitcoin.mainnet),
    ],
    [
      'a P2TR address',
      caip('Bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', bitcoin.mainnet),
    ],
    ['a P2PKH address', caip('Bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', bitcoin.mainnet)],
    ['a P2SH address', caip('Bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', bitcoin.mainnet)],
    [
      'a testnet P2WSH address',
      caip('Bitcoin', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', bitcoin.testnet),
    ],
    ['a testnet P2PKH address', caip('Bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', bitcoin.testnet)],
    ['a regtest address', caip('Bitcoin', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', bitcoin.regtest)],
    [
      "another bip122 chain's addresses",
      caip('Bitcoin', 'ltc1qqurswpc8qurswpc8qurswpc8qurswpc8p4r4uu', bitcoin.litecoin),
    ],
    [
      "another bip122 chain's Base58Check address",
      caip('Bitcoin', 'LKVsu3q4F1qVREZ4mxMgL5ZcCH88KhzivD', bitcoin.litecoin),
    ],
  ]

  it.each(accepted)('reads %s and writes it back byte for byte', (_, text) => {
    expect(Siwx.format(Siwx.parse(text))).toBe(text)
  })

  // [case, text, line, field, what the error says]
  const refused: [string, string, number, keyof Siwx.Message | undefined, string][] = [
    ['CRLF line ends', valid.replaceAll('\n', '\r\n'), 1, undefined, 'CR'],
    ['a CR inside a line', edit(3, 'Terms\rof Service'), 4, undefined, 'CR'],
    ['a trailing newline', `${valid}\n`, 14, undefined, 'ends with a newline'],
    [
      'a trailing space after the header',
      edit(0, `${example[0]} `),
      1,
      undefined,
      'expected "{domain} wants you',
    ],
    [
      'a different header',
      edit(0, 'example.com wants you to sign into your Ethereum account:'),
      1,
      undefined,
      'expected',
    ],
    [
      'a lower-case chain name',
      edit(0, 'example.com wants you to sign in with your ethereum account:'),
      1,
      undefined,
      '"ethereum"',
    ],
    [
      'an unknown chain',
      edit(0, 'example.com wants you to sign in with your Cosmos account:'),
      1,
      undefined,
      '"Cosmos"',
    ],
    ['a domain with a path', withOrigin('example.com/login'), 1, 'domain', 'RFC 3986 authority'],
    ['a domain with a space', withOrigin('exa mple.com'), 1, 'domain', 'does not allow'],
    ['a bad percent-encoding in the host', withOrigin('ex%zzample.com'), 1, 'domain', 'percent-encoding'],
    ['a cut percent-encoding in the userinfo', withOrigin('a%2@example.com'), 1, 'domain', 'userinfo'],
    ['two "@"', withOrigin('a@b@example.com'), 1, 'domain', 'userinfo'],
    ['a port with a letter', withOrigin('example.com:80a'), 1, 'domain', 'port "80a" is not digits'],
    ['a port above 65535', withOrigin('example.com:65536'), 1, 'domain', 'above 65535'],
    ['an empty host', withOrigin('alice@:443'), 1, 'domain', 'host is empty'],
    ['an empty domain', withOrigin(''), 1, 'domain', 'host is empty'],
    ['an IPv6 address without brackets', withOrigin('::1'), 1, 'domain', 'port'],
    ['an IPv6 address with two "::"', withOrigin('[1::2::3]'), 1, 'domain', 'IPv6'],
    ['an IPv6 address of nine groups', withOrigin('[1:2:3:4:5:6:7:8:9]'), 1, 'domain', 'IPv6'],
    ['an IPv6 group of five digits', withOrigin('[12345::1]'), 1, 'domain', 'IPv6'],
    ['an IPv6 address ending in a bad IPv4', withOrigin('[::ffff:256.0.0.1]'), 1, 'domain', 'IPv6'],
    ['an unclosed IP literal', withOrigin('[::1:5173'), 1, 'domain', 'closing "]"'],
    ['text after an IP literal', withOrigin('[::1]5173'), 1, 'domain', 'follows the host'],
    ['a scheme starting with a digit', withOrigin('1https://example.com'), 1, 'scheme', 'RFC 3986 scheme'],
    ['an empty scheme', withOrigin('://example.com'), 1, 'scheme', 'RFC 3986 scheme'],
    [
      'a lower-case address',
      edit(1, address.toLowerCase()),
      2,
      'accountAddress',
      'EIP-55 checksummed (0xC02a',
    ],
    ['an upper-case address', edit(1, `0x${address.slice(2).toUpperCase()}`), 2, 'accountAddress', 'EIP-55'],
    ['one letter in the wrong case', edit(1, address.replace('C02a', 'c02a')), 2, 'accountAddress', 'EIP-55'],
    ['a short address', edit(1, address.slice(0, -1)), 2, 'accountAddress', '40 hexadecimal digits'],
    ['an "0X" address', edit(1, address.replace('0x', '0X')), 2, 'accountAddress', '"0x"'],
    ['a trailing space after the address', edit(1, `${address} `), 2, 'accountAddress', '40 hexadecimal'],
    [
      'a Solana address on Ethereum',
      edit(1, 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1'),
      2,
      'accountAddress',
      '"0x"',
    ],
    ['no empty line after the address', edit(2), 3, undefined, 'empty line after the address'],
    [
      'a statement over two lines',
      edit(3, 'I accept', 'the terms'),
      5,
      undefined,
      'empty line after the statement',
    ],
    ['one empty line before the URI', edit(3).replace('\n\nURI', '\nURI'), 4, undefined, 'two empty lines'],
    ['a statement with a quote', edit(3, 'Say "hi"'), 4, 'statement', 'not "\\""'],
    ['a statement with a percent sign', edit(3, '100% sure'), 4, 'statement', 'not "%"'],
    ['a statement with non-ASCII text', edit(3, 'Grüezi'), 4, 'statement', 'not "ü"'],
    ['a renamed field', edit(5, 'Uri: https://example.com/login'), 6, 'uri', 'expected "URI: "'],
    ['a URI with a space', edit(5, 'URI: https://example.com/log in'), 6, 'uri', 'RFC 3986 URI'],
    ['a URI without a scheme', edit(5, 'URI: example.com/login'), 6, 'uri', 'RFC 3986 URI'],
    ['a URI with a bad percent-encoding', edit(5, 'URI: https://example.com/%zz'), 6, 'uri', 'RFC 3986 URI'],
    ['a URI with two fragments', edit(5, 'URI: https://example.com/#a#b'), 6, 'uri', 'RFC 3986 URI'],
    ['a URI with a bad port', edit(5, 'URI: https://example.com:8o/'), 6, 'uri', 'RFC 3986 URI'],
    ['a trailing space after the URI', edit(5, 'URI: https://example.com/login '), 6, 'uri', 'RFC 3986 URI'],
    ['another version', edit(6, 'Version: 2'), 7, 'version', 'Version must be 1'],
    ['a version of "1.0"', edit(6, 'Version: 1.0'), 7, 'version', 'Version must be 1'],
    ['a leading zero in the chain id', edit(7, 'Chain ID: 01'), 8, 'chainId', 'no leading zero'],
    ['chain id 0', edit(7, 'Chain ID: 0'), 8, 'chainId', 'EIP-155 chain id'],
    ['a hex chain id', edit(7, 'Chain ID: 0x1'), 8, 'chainId', 'EIP-155 chain id'],
    ['a chain id of 33 digits', edit(7, `Chain ID: ${'9'.repeat(33)}`), 8, 'chainId', 'EIP-155 chain id'],
    ['a short nonce', edit(8, 'Nonce: 1234567'), 9, 'nonce', 'at least 8 letters or digits'],
    ['a nonce with a symbol', edit(8, 'Nonce: 12345678-9'), 9, 'nonce', 'at least 8 letters or digits'],
    ['a trailing space after the nonce', edit(8, 'Nonce: 32891756 '), 9, 'nonce', 'letters or digits'],
    ['February 30', edit(9, 'Issued At: 2021-02-30T16:25:24Z'), 10, 'issuedAt', 'day that does not exist'],
    [
      'February 29 of 2100',
      edit(9, 'Issued At: 2100-02-29T16:25:24Z'),
      10,
      'issuedAt',
      'day that does not exist',
    ],
    ['month 13', edit(9, 'Issued At: 2021-13-01T16:25:24Z'), 10, 'issuedAt', 'day that does not exist'],
    ['hour 24', edit(9, 'Issued At: 2021-09-30T24:00:00Z'), 10, 'issuedAt', 'time of day'],
    ['a leap second', edit(9, 'Issued At: 2016-12-31T23:59:60Z'), 10, 'issuedAt', 'time of day'],
    ['an offset of 24 hours', edit(9, 'Issued At: 2021-09-30T16:25:24+24:00'), 10, 'issuedAt', 'offset'],
    ['no offset', edit(9, 'Issued At: 2021-09-30T16:25:24'), 10, 'issuedAt', 'RFC 3339 date-time'],
    ['a space for "T"', edit(9, 'Issued At: 2021-09-30 16:25:24Z'), 10, 'issuedAt', 'RFC 3339 date-time'],
    ['an offset without a colon', edit(9, 'Issued At: 2021-09-30T16:25:24+0200'), 10, 'issuedAt', 'RFC 3339'],
    ['a fraction without digits', edit(9, 'Issued At: 2021-09-30T16:25:24.Z'), 10, 'issuedAt', 'RFC 3339'],
    [
      'a bad expiration time',
      edit(9, example[9] ?? '', 'Expiration Time: 2021-09-31T00:00:00Z'),
      11,
      'expirationTime',
      'Expiration Time names a day',
    ],
    [
      'a bad not-before time',
      edit(9, example[9] ?? '', 'Not Before: tomorrow'),
      11,
      'notBefore',
      'Not Before must be',
    ],
    ['a request id with "/"', edit(9, example[9] ?? '', 'Request ID: a/b'), 11, 'requestId', 'pchar'],
    ['a request id with a space', edit(9, example[9] ?? '', 'Request ID: a b'), 11, 'requestId', 'pchar'],
    ['a resource without "- "', edit(11, resources[0] ?? ''), 12, undefined, 'expected "- " and a URI'],
    ['a resource marked "* "', edit(11, `* ${resources[0]}`), 12, undefined, 'expected "- " and a URI'],
    [
      'a resource that is no URI',
      edit(12, '- not a uri'),
      13,
      'resources',
      'resource 2 must be an RFC 3986 URI',
    ],
    [
      'an empty line among the resources',
      edit(11, example[11] ?? '', ''),
      13,
      undefined,
      'unexpected empty line',
    ],
    ['fields out of order', edit(8, 'Issued At: 2021-09-30T16:25:24Z'), 9, 'nonce', 'expected "Nonce: "'],
    [
      'optional fields out of order',
      edit(9, example[9] ?? '', 'Not Before: 2021-09-30T00:00:00Z', 'Expiration Time: 2021-10-01T00:00:00Z'),
      12,
      undefined,
      '"Expiration Time" is out of place',
    ],
    [
      'a field twice',
      edit(9, example[9] ?? '', 'Request ID: a', 'Request ID: b'),
      12,
      undefined,
      '"Request ID" is out of place',
    ],
    [
      'a request id after the resources',
      `${valid}\nRequest ID: a`,
      14,
      undefined,
      '"Request ID" is out of place',
    ],
    ['an unknown field', edit(10, 'Comment: hello'), 11, undefined, 'unexpected line'],
    ['"Resources: " with a space', edit(10, 'Resources: '), 11, undefined, '"Resources" is out of place'],
    ['a message that ends early', example.slice(0, 8).join('\n'), 9, 'nonce', 'ends early'],
    [
      "the Solana profile's own example, whose Chain ID 1 is no CAIP-2 reference",
      caip('Solana', 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1', '1'),
      8,
      'chainId',
      'Solana CAIP-2 reference',
    ],
    [
      'a Solana key of 31 bytes',
      caip('Solana', '1111111111111111111111111111111', solanaMainnet),
      2,
      'accountAddress',
      '32 bytes in base58',
    ],
    [
      'a Solana key with a "0"',
      caip('Solana', 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F0', solanaMainnet),
      2,
      'accountAddress',
      'base58',
    ],
    [
      'a Bitcoin chain id in upper case',
      caip('Bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', bitcoin.mainnet.toUpperCase()),
      8,
      'chainId',
      'lowercase hex',
    ],
    [
      'a bech32 checksum typo',
      caip('Bitcoin', 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0m', bitcoin.mainnet),
      2,
      'accountAddress',
      'bech32 checksum is wrong',
    ],
    [
      'a v0 address with a bech32m checksum',
      caip('Bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', bitcoin.mainnet),
      2,
      'accountAddress',
      'checksum',
    ],
    [
      'mixed-case bech32',
      caip('Bitcoin', 'bc1Q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l', bitcoin.mainnet),
      2,
      'accountAddress',
      'mixes upper and lower case',
    ],
    [
      'a mainnet address on regtest',
      caip('Bitcoin', 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l', bitcoin.regtest),
      2,
      'accountAddress',
      'prefix "bc" is not',
    ],
    [
      'a testnet Base58Check address on mainnet',
      caip('Bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', bitcoin.mainnet),
      2,
      'accountAddress',
      'version byte 111',
    ],
    [
      'a Base58Check checksum typo',
      caip('Bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', bitcoin.mainnet),
      2,
      'accountAddress',
      'Base58Check checksum',
    ],
    [
      'an EVM address on Bitcoin',
      caip('Bitcoin', address, bitcoin.mainnet),
      2,
      'accountAddress',
      'neither a bech32',
    ],
  ]

  it.each(refused)('refuses %s, naming the line and the field', (_, text, line, field, reason) => {
    let error: unknown
    try {
      Siwx.parse(text)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(Siwx.InvalidMessageError)
    expect(error).toBeInstanceOf(InvalidParamsError)
    expect(error).toMatchObject({ line, field, code: -32602 })
    expect((error as Error).message).toMatch(new RegExp(`^Invalid sign-in message, line ${line}: `))
    expect((error as Error).message).toContain(reason)
  })

  it("reads the ERC's example into its fields", () => {
    expect(Siwx.parse(withOrigin('https://alice@example.com:3388'))).toEqual({
      scheme: 'https',
      domain: 'alice@example.com:3388',
      accountAddress: address,
      chainId: 'eip155:1',
      statement: 'I accept the ExampleOrg Terms of Service: https://example.com/tos',
      uri: 'https://example.com/login',
      version: '1',
      nonce: '32891756',
      issuedAt: '2021-09-30T16:25:24Z',
      resources,
    })
  })

  it('tells no statement from an empty one', () => {
    const none = Siwx.parse(edit(3))
    const empty = Siwx.parse(edit(3, ''))
    expect(none).not.toHaveProperty('statement')
    expect(empty.statement).toBe('')
    expect(Siwx.format(none)).toContain(`${address}\n\n\nURI: `)
    expect(Siwx.format(empty)).toContain(`${address}\n\n\n\nURI: `)
  })

  it("writes CAIP-122 texts with the namespace's word and the CAIP-2 reference", () => {
    const message = Siwx.parse(
      caip('Bitcoin', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', bitcoin.regtest),
    )
    expect(message).toMatchObject({
      chainId: `bip122:${bitcoin.regtest}`,
      accountAddress: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
    })
    const solana = Siwx.format({
      ...message,
      chainId: `solana:${solanaMainnet}`,
      accountAddress: '11111111111111111111111111111111',
    })
    expect(solana.split('\n')[0]).toBe('example.com wants you to sign in with your Solana account:')
    expect(solana).toContain(`\nChain ID: ${solanaMainnet}\n`)
  })

  it('writes the optional fields in the ABNF order', () => {
    const text = Siwx.format({
      domain: 'shop.example',
      accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 'eip155:31337',
      uri: 'https://shop.example',
      version: '1',
      nonce: 'abcdefgh12345678',
      issuedAt: '2026-01-01T00:00:00Z',
      expirationTime: '2026-01-02T00:00:00Z',
      notBefore: '2026-01-01T00:00:00+01:00',
      requestId: '',
      resources: [],
    })
    expect(text.split('\n').slice(1)).toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '',
      '',
      'URI: https://shop.example',
      'Version: 1',
      'Chain ID: 31337',
      'Nonce: abcdefgh12345678',
      'Issued At: 2026-01-01T00:00:00Z',
      'Expiration Time: 2026-01-02T00:00:00Z',
      'Not Before: 2026-01-01T00:00:00+01:00',
      'Request ID: ',
      'Resources:',
    ])
  })

  it('refuses to write invalid fields, naming the field', () => {
    const message = Siwx.parse(valid)
    const cases: [Partial<Siwx.Message>, keyof Siwx.Message, string][] = [
      [{ statement: 'two\nlines' }, 'statement', 'not "\\n"'],
      [{ accountAddress: address.toLowerCase() }, 'accountAddress', `EIP-55 checksummed (${address})`],
      [{ nonce: 'short' }, 'nonce', 'Nonce'],
      [{ domain: 'https://example.com' }, 'domain', 'authority'],
      [{ scheme: 'ht tp' }, 'scheme', 'scheme'],
      [{ chainId: 'eip155:01' }, 'chainId', 'leading zero'],
      [{ chainId: 'cosmos:1' as Siwx.Message['chainId'] }, 'chainId', 'CAIP-2'],
      [{ chainId: `solana:${solanaMainnet}` }, 'accountAddress', 'Solana public key'],
      [{ uri: 'no uri' }, 'uri', 'URI'],
      [{ version: '2' as '1' }, 'version', 'Version'],
      [{ resources: ['no uri'] }, 'resources', 'resource 1'],
      [{ issuedAt: 'yesterday' }, 'issuedAt', 'Issued At'],
      [{ requestId: 'a b' }, 'requestId', 'pchar'],
    ]
    for (const [change, field, reason] of cases) {
      expect(() => Siwx.format({ ...message, ...change }), field).toThrow(reason)
      expect(() => Siwx.validate({ ...message, ...change })).toThrow(
        expect.objectContaining({ field, line: 0 }),
      )
    }
  })

  it('round-trips any valid message, and refuses its address in the wrong case', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)
    const time = fc
      .date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true })
      .map((date) => date.toISOString())
    const message = fc.record(
      {
        scheme: fc.constantFrom('https', 'http'),
        domain: fc
          .tuple(word, fc.option(fc.integer({ min: 0, max: 65_535 })))
          .map(([w, port]) => `${w}.example${port === null ? '' : `:${port}`}`),
        accountAddress: fc
          .uint8Array({ minLength: 20, maxLength: 20 })
          .map((bytes) => Siwx.checksumAddress(`0x${Buffer.from(bytes).toString('hex')}`)),
        chainId: fc.integer({ min: 1, max: 2 ** 40 }).map((id) => `eip155:${id}` as const),
        uri: word.map((w) => `https://${w}.example/${w}`),
        version: fc.constant('1' as const),
        nonce: fc.stringMatching(/^[A-Za-z0-9]{8,32}$/),
        issuedAt: time,
        expirationTime: time,
        notBefore: time,
        requestId: word,
        resources: fc.array(word.map((w) => `ipfs://${w}`)),
        statement: fc.stringMatching(/^[A-Za-z0-9 .,:/!?'()-]{0,60}$/),
      },
      { requiredKeys: ['domain', 'accountAddress', 'chainId', 'uri', 'version', 'nonce', 'issuedAt'] },
    )
    fc.assert(
      fc.property(message, (value) => {
        const text = Siwx.format(value)
        expect(Siwx.parse(text)).toEqual(value)
        expect(Siwx.format(Siwx.parse(text))).toBe(text)
        const lower = value.accountAddress.toLowerCase()
        if (lower !== value.accountAddress)
          expect(() => Siwx.parse(text.replace(value.accountAddress, lower))).toThrow('EIP-55')
      }),
    )
  })

  describe('helpers', () => {
    it("spells addresses as EIP-55's examples do", () => {
      // EIP-55's test cases: all caps, all lower and mixed.
      for (const spelled of [
        '0x52908400098527886E0F7030069857D2E4169EE7',
        '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
        '0xde709f2102306220921060314715629080e2fb77',
        '0x27b1fdb04752bbc536007a920d24acb045561c26',
        '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
        '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
      ]) {
        expect(Siwx.checksumAddress(spelled.toLowerCase())).toBe(spelled)
        expect(Siwx.parse(edit(1, spelled)).accountAddress).toBe(spelled)
      }
    })

    it('checks nonces, timestamps, domains and URIs', () => {
      expect(Siwx.isNonce('abcd1234')).toBe(true)
      expect(Siwx.isNonce('abcd123')).toBe(false)
      expect(Siwx.isTimestamp('2024-02-29T23:59:59.999+05:30')).toBe(true)
      expect(Siwx.isTimestamp('2023-02-29T00:00:00Z')).toBe(false)
      expect(Siwx.toTime('2021-09-30T16:25:24Z')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24))
      expect(Siwx.toTime('2021-09-30T18:25:24+02:00')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24))
      expect(() => Siwx.toTime('2021-09-30')).toThrow(Siwx.InvalidMessageError)
      // Read by the grammar, not Date.parse: year 50 is not 1950, and digits past the millisecond drop.
      expect(new Date(Siwx.toTime('0050-03-01T00:00:00Z')).toISOString()).toBe('0050-03-01T00:00:00.000Z')
      expect(Siwx.toTime('2021-09-30T16:25:24.1239999z')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24, 123))
      expect(Siwx.toTime('2021-09-30T16:25:24-00:00')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24))
      // An empty userinfo is one too.
      for (const domain of ['localhost', 'shop.example', '127.0.0.1:8080', '[::1]:5173', 'u:p@x:1', '@x'])
        expect(Siwx.isDomain(domain), domain).toBe(true)
      for (const domain of ['', 'http://x', 'x/y', 'x:99999', 'x y', ':80', 'x@'])
        expect(Siwx.isDomain(domain), domain).toBe(false)
      expect(Siwx.isUri('https://shop.example/a?b=c#d')).toBe(true)
      expect(Siwx.isUri('https://shop.example/a b')).toBe(false)
    })

    it('names the account and the revoke text', () => {
      expect(Siwx.accountId(Siwx.parse(valid))).toBe(`eip155:1:${address}`)
      expect(Siwx.revokeMessage('abc')).toBe('Revoke Airlock session abc')
    })
  })
})
