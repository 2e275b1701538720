import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidParamsError } from './Errors.ts'
import * as Siwx from './Siwx.ts'

// The examples of ERC-4361 (ethereum/ERCs, ERCS/erc-4361.md), verbatim.
const resources = [
  'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
  'https://example.com/my-web2-claim.json',
]
const eipExample = (origin: string) =>
  [
    `${origin} wants you to sign in with your Ethereum account:`,
    '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
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
  ].join('\n')

// The example of the Solana CAIP-122 profile (ChainAgnostic/namespaces, solana/caip122.md), with the
// base64url of its bytes that the profile gives.
const solanaExample = [
  'service.org wants you to sign in with your Solana account:',
  'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1',
  '',
  'I accept the ServiceOrg Terms of Service: https://service.org/tos',
  '',
  'URI: https://service.org/login',
  'Version: 1',
  'Chain ID: 1',
  'Nonce: 32891757',
  'Issued At: 2021-09-30T16:25:24.000Z',
  'Resources:',
  '- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu',
  '- https://example.com/my-web2-claim.json',
].join('\n')
const solanaExampleBytes =
  'c2VydmljZS5vcmcgd2FudHMgeW91IHRvIHNpZ24gaW4gd2l0aCB5b3VyIFNvbGFuYSBhY2NvdW50OgpHd0FGNDV6amZ5R3pVYmQzaTNoWHh6R2V1Y2h6RVpYd3BSWUhaTTU5MTJGMQoKSSBhY2NlcHQgdGhlIFNlcnZpY2VPcmcgVGVybXMgb2YgU2VydmljZTogaHR0cHM6Ly9zZXJ2aWNlLm9yZy90b3MKClVSSTogaHR0cHM6Ly9zZXJ2aWNlLm9yZy9sb2dpbgpWZXJzaW9uOiAxCkNoYWluIElEOiAxCk5vbmNlOiAzMjg5MTc1NwpJc3N1ZWQgQXQ6IDIwMjEtMDktMzBUMTY6MjU6MjQuMDAwWgpSZXNvdXJjZXM6Ci0gaXBmczovL1FtZTdzczNBUlZneHY2clhxVlBpaWtNSjh1Mk5MZ21nc3pnMTNwWXJES0VvaXUKLSBodHRwczovL2V4YW1wbGUuY29tL215LXdlYjItY2xhaW0uanNvbg'

const bitcoin: Siwx.Message = {
  domain: 'localhost:5173',
  accountAddress: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
  chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
  uri: 'http://localhost:5173/',
  version: '1',
  nonce: 'a1B2c3D4e5F6g7H8',
  issuedAt: '2026-11-22T10:00:00.000Z',
  expirationTime: '2026-11-23T10:00:00.000Z',
  notBefore: '2026-11-22T09:59:00.000Z',
  requestId: 'req-1',
  statement: 'Sign in to the shop',
}

describe('Siwx', () => {
  describe('EIP-4361', () => {
    it.each([
      ['an implicit scheme', 'example.com'],
      ['an implicit scheme and an explicit port', 'example.com:3388'],
      ['an explicit scheme', 'https://example.com'],
    ])("round-trips the ERC's example with %s exactly", (_, origin) => {
      const text = eipExample(origin)
      const message = Siwx.parse(text)
      expect(message).toEqual({
        ...(origin.startsWith('https') ? { scheme: 'https' } : {}),
        domain: origin.replace('https://', ''),
        accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        chainId: 'eip155:1',
        statement: 'I accept the ExampleOrg Terms of Service: https://example.com/tos',
        uri: 'https://example.com/login',
        version: '1',
        nonce: '32891756',
        issuedAt: '2021-09-30T16:25:24Z',
        resources,
      })
      expect(Siwx.format(message)).toBe(text)
    })

    it('leaves two empty lines where there is no statement, as the ABNF says', () => {
      const message = Siwx.parse(eipExample('example.com'))
      const { statement: _, ...rest } = message
      const text = Siwx.format(rest)
      expect(text).toContain(
        '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\nURI: https://example.com/login\n',
      )
      expect(Siwx.parse(text)).toEqual(rest)
      // An empty statement is no statement.
      expect(Siwx.format({ ...rest, statement: '' })).toBe(text)
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
      expect(text).toBe(
        [
          'shop.example wants you to sign in with your Ethereum account:',
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
        ].join('\n'),
      )
      expect(Siwx.format(Siwx.parse(text))).toBe(text)
    })
  })

  describe('CAIP-122', () => {
    it("round-trips the Solana profile's example exactly, bytes included", () => {
      const message = Siwx.parse(solanaExample)
      expect(message).toMatchObject({
        domain: 'service.org',
        accountAddress: 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1',
        chainId: 'solana:1',
        nonce: '32891757',
        issuedAt: '2021-09-30T16:25:24.000Z',
      })
      expect(Siwx.format(message)).toBe(solanaExample)
      expect(Buffer.from(solanaExampleBytes, 'base64url').toString('utf8')).toBe(solanaExample)
    })

    it('writes Solana messages with the CAIP-2 reference as the chain id', () => {
      const message: Siwx.Message = {
        ...bitcoin,
        accountAddress: 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1',
        chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      }
      const text = Siwx.format(message)
      expect(text.split('\n').slice(0, 2)).toEqual([
        'localhost:5173 wants you to sign in with your Solana account:',
        'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1',
      ])
      expect(text).toContain('\nChain ID: EtWTRABZaYq6iMfeYKouRu166VU2xqa1\n')
      expect(Siwx.parse(text)).toEqual(message)
    })

    it('round-trips Bitcoin messages with every field', () => {
      const text = Siwx.format({ ...bitcoin, resources: ['https://shop.example/terms'] })
      expect(text).toBe(
        [
          'localhost:5173 wants you to sign in with your Bitcoin account:',
          'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
          '',
          'Sign in to the shop',
          '',
          'URI: http://localhost:5173/',
          'Version: 1',
          'Chain ID: 0f9188f13cb7b2c71f2a335e3a4fc328',
          'Nonce: a1B2c3D4e5F6g7H8',
          'Issued At: 2026-11-22T10:00:00.000Z',
          'Expiration Time: 2026-11-23T10:00:00.000Z',
          'Not Before: 2026-11-22T09:59:00.000Z',
          'Request ID: req-1',
          'Resources:',
          '- https://shop.example/terms',
        ].join('\n'),
      )
      expect(Siwx.parse(text)).toEqual({ ...bitcoin, resources: ['https://shop.example/terms'] })
      const mainnet = { ...bitcoin, accountAddress: 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l' }
      expect(Siwx.parse(Siwx.format(mainnet))).toEqual(mainnet)
      const legacy = { ...bitcoin, accountAddress: '14vV3aCHBeStb5bkenkNHbe2YAFinYdXgc' }
      expect(Siwx.parse(Siwx.format(legacy))).toEqual(legacy)
    })

    it('round-trips any valid message', () => {
      const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)
      const time = fc
        .date({
          min: new Date(Date.UTC(2000, 0, 1)),
          max: new Date(Date.UTC(2100, 0, 1)),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString())
      const message = fc.record(
        {
          domain: word.map((w) => `${w}.example`),
          accountAddress: fc.constant('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
          chainId: fc.integer({ min: 1, max: 2 ** 40 }).map((id) => `eip155:${id}` as const),
          uri: word.map((w) => `https://${w}.example/${w}`),
          version: fc.constant('1' as const),
          nonce: fc.stringMatching(/^[A-Za-z0-9]{8,32}$/),
          issuedAt: time,
          expirationTime: time,
          notBefore: time,
          requestId: word,
          resources: fc.array(word.map((w) => `ipfs://${w}`)),
          statement: fc.stringMatching(/^[A-Za-z0-9 .,:/!?'()-]{1,60}$/),
        },
        { requiredKeys: ['domain', 'accountAddress', 'chainId', 'uri', 'version', 'nonce', 'issuedAt'] },
      )
      fc.assert(
        fc.property(message, (value) => {
          const text = Siwx.format(value)
          expect(Siwx.format(Siwx.parse(text))).toBe(text)
        }),
      )
    })
  })

  describe('refuses malformed messages, naming the line', () => {
    const valid = eipExample('example.com')
    const edit = (index: number, line: string | undefined) => {
      const lines = valid.split('\n')
      if (line === undefined) lines.splice(index, 1)
      else lines[index] = line
      return lines.join('\n')
    }
    it.each([
      [
        'an unknown chain',
        edit(0, 'example.com wants you to sign in with your Cosmos account:'),
        1,
        'Cosmos',
      ],
      [
        'a domain with a path',
        edit(0, 'example.com/x wants you to sign in with your Ethereum account:'),
        1,
        '',
      ],
      [
        'userinfo in the domain',
        edit(0, 'me@example.com wants you to sign in with your Ethereum account:'),
        1,
        '',
      ],
      ['a bad header', edit(0, 'example.com wants you to sign in:'), 1, ''],
      ['a short address', edit(1, '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756C'), 2, 'Ethereum account'],
      ['a missing empty line', edit(2, undefined), 3, 'empty line'],
      ['a statement with a quote', edit(3, 'Say "hi"'), 4, 'statement'],
      ['a statement with non-ASCII text', edit(3, 'Grüezi'), 4, 'statement'],
      ['one empty line before the URI', edit(3, undefined).replace('\n\nURI', '\nURI'), 4, 'two'],
      ['a bad URI', edit(5, 'URI: not a uri'), 6, 'URI'],
      ['a renamed field', edit(5, 'Uri: https://example.com/login'), 6, '"URI: "'],
      ['another version', edit(6, 'Version: 2'), 7, 'Version'],
      ['a hex chain id', edit(7, 'Chain ID: 0x1'), 8, 'Chain ID'],
      ['a short nonce', edit(8, 'Nonce: 1234567'), 9, 'Nonce'],
      ['a nonce with symbols', edit(8, 'Nonce: 12345678-9'), 9, 'Nonce'],
      ['an impossible date', edit(9, 'Issued At: 2021-02-30T16:25:24Z'), 10, 'Issued At'],
      ['a date without a zone', edit(9, 'Issued At: 2021-09-30T16:25:24'), 10, 'Issued At'],
      ['fields out of order', edit(8, 'Issued At: 2021-09-30T16:25:24Z'), 9, '"Nonce: "'],
      ['a bad resource', edit(11, '* ipfs://x'), 12, '- {URI}'],
      ['a trailing newline', `${valid}\n`, 14, 'empty line'],
      ['a trailing line', `${valid.split('\nResources:')[0]}\nHello`, 11, 'unexpected line'],
      ['a CRLF line end', valid.replace('\n', '\r\n'), 1, ''],
      ['a message that ends early', valid.split('\nNonce')[0] ?? '', 9, 'ends early'],
    ])('refuses %s', (_, text, line, reason) => {
      let error: unknown
      try {
        Siwx.parse(text)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(Siwx.InvalidMessageError)
      expect(error).toBeInstanceOf(InvalidParamsError)
      expect((error as Siwx.InvalidMessageError).line).toBe(line)
      expect((error as Error).message).toMatch(new RegExp(`^Invalid sign-in message, line ${line}: `))
      expect((error as Error).message).toContain(reason)
    })

    it('refuses to format invalid fields', () => {
      const message = Siwx.parse(valid)
      expect(() => Siwx.format({ ...message, statement: 'two\nlines' })).toThrow('statement')
      expect(() => Siwx.format({ ...message, nonce: 'short' })).toThrow('nonce')
      expect(() => Siwx.format({ ...message, domain: 'https://example.com' })).toThrow('domain')
      expect(() => Siwx.format({ ...message, chainId: 'eip155:abc' })).toThrow('chainId')
      expect(() => Siwx.format({ ...message, chainId: 'solana:1' })).toThrow('accountAddress')
      expect(() => Siwx.format({ ...message, resources: ['no uri'] })).toThrow('resources')
      expect(() => Siwx.format({ ...message, issuedAt: 'yesterday' })).toThrow('issuedAt')
    })
  })

  describe('helpers', () => {
    it('checks nonces, timestamps, domains and URIs', () => {
      expect(Siwx.isNonce('abcd1234')).toBe(true)
      expect(Siwx.isNonce('abcd123')).toBe(false)
      expect(Siwx.isTimestamp('2024-02-29T23:59:59.999+05:30')).toBe(true)
      expect(Siwx.isTimestamp('2023-02-29T00:00:00Z')).toBe(false)
      expect(Siwx.isTimestamp('2023-01-01T24:00:00Z')).toBe(false)
      expect(Siwx.isTimestamp('2023-01-01 00:00:00Z')).toBe(false)
      expect(Siwx.toTime('2021-09-30T16:25:24Z')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24))
      expect(Siwx.toTime('2021-09-30T18:25:24+02:00')).toBe(Date.UTC(2021, 8, 30, 16, 25, 24))
      for (const domain of ['localhost', 'shop.example', '127.0.0.1:8080', '[::1]:5173', 'a-b.c'])
        expect(Siwx.isDomain(domain), domain).toBe(true)
      for (const domain of ['', 'http://x', 'x/y', 'u@x', 'x:99999', '-x', 'x y'])
        expect(Siwx.isDomain(domain), domain).toBe(false)
      expect(Siwx.isUri('https://shop.example/a?b=c#d')).toBe(true)
      expect(Siwx.isUri('https://shop.example/a b')).toBe(false)
    })

    it('names the account and the revoke text', () => {
      expect(Siwx.accountId(Siwx.parse(eipExample('example.com')))).toBe(
        'eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      )
      expect(Siwx.revokeMessage('abc')).toBe('Revoke Airlock session abc')
    })
  })
})
