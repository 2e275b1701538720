import { describe, expect, it } from 'vitest'
import * as Config from './Config.ts'

describe('Config', () => {
  it('reads the example configuration', () => {
    const config = Config.read(new URL('../airlock.config.example.json', import.meta.url).pathname)
    expect(config.chains.map((chain) => chain.id)).toEqual(['eip155:1'])
    expect(config.chains[0]?.tokens?.map((token) => token.symbol)).toEqual(['USDC', 'USDT'])
  })

  it('names the field that is wrong', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174' }
    const chain = {
      id: 'eip155:1',
      name: 'E',
      rpcUrl: 'http://x',
      nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
    }
    expect(() => Config.parse({ ...base, chains: [{ ...chain, id: 'eip155' }] })).toThrow(
      'Invalid CAIP-2 network id',
    )
    expect(() => Config.parse({ ...base, chains: [{ ...chain, rpcUrl: 'ftp://x' }] })).toThrow(
      'chains[0].rpcUrl',
    )
    expect(() => Config.parse({ ...base, modalOrigin: 'http://x/path', chains: [] })).toThrow('modalOrigin')
    expect(() =>
      Config.parse({
        ...base,
        chains: [{ ...chain, tokens: [{ address: '0x1', name: 'T', symbol: 'T', decimals: 6 }] }],
      }),
    ).toThrow('chains[0].tokens[0].address')
  })

  it('takes optional limits, and names the limit that is wrong', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
    const limits = { perClient: { burst: 50, perSecond: 0.5 }, requestTimeoutMs: 5_000, trustedProxies: 1 }
    expect(Config.parse({ ...base, limits }).limits).toEqual(limits)
    expect(Config.parse(base).limits).toBeUndefined()
    expect(() => Config.parse({ ...base, limits: { perClient: { burst: 1.5 } } })).toThrow(
      'limits.perClient.burst: expected a whole number',
    )
    expect(() => Config.parse({ ...base, limits: { perProject: { perSecond: 0 } } })).toThrow(
      'limits.perProject.perSecond',
    )
    expect(() => Config.parse({ ...base, limits: { trustedProxies: -1 } })).toThrow('limits.trustedProxies')
  })

  it('takes an optional email block, and names the email field that is wrong', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
    const email = {
      smtp: { host: 'smtp.example', port: 587, secure: false, user: 'login', pass: 'hunter2' },
      from: 'Airlock <login@example.com>',
      secret: 'x'.repeat(32),
    }
    expect(Config.parse({ ...base, email }).email).toEqual(email)
    expect(
      Config.parse({ ...base, email: { ...email, smtp: { host: '127.0.0.1', port: 1025 } } }).email?.smtp,
    ).toEqual({ host: '127.0.0.1', port: 1025 })
    expect(Config.parse(base).email).toBeUndefined()
    expect(() => Config.parse({ ...base, email: { ...email, secret: 'x'.repeat(31) } })).toThrow(
      'email.secret',
    )
    expect(() => Config.parse({ ...base, email: { ...email, smtp: { host: 'h', port: 0 } } })).toThrow(
      'email.smtp.port',
    )
    expect(() => Config.parse({ ...base, email: { ...email, smtp: { host: 'h', port: 25.5 } } })).toThrow(
      'email.smtp.port: expected a whole number',
    )
    expect(() => Config.parse({ ...base, email: { ...email, smtp: { host: '', port: 25 } } })).toThrow(
      'email.smtp.host',
    )
    expect(() => Config.parse({ ...base, email: { smtp: email.smtp, secret: email.secret } })).toThrow(
      'email.from',
    )
  })

  it('says which file it could not read', () => {
    expect(() => Config.read('/nonexistent/airlock.json')).toThrow('/nonexistent/airlock.json')
  })
})
