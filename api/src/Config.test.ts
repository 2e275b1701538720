import { describe, expect, it } from 'vitest'
import * as Config from './Config.ts'
import * as ConfigFile from './ConfigFile.ts'

describe('Config', () => {
  it('reads the example configuration', () => {
    const config = ConfigFile.read(new URL('../airlock.config.example.json', import.meta.url).pathname)
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

  it('takes social providers by documented ids (docs/behaviour.md §1) only, https or loopback http, with the email block', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
    const email = {
      smtp: { host: 'smtp.example', port: 587 },
      from: 'login@example.com',
      secret: 'x'.repeat(32),
    }
    const google = { issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 's', kind: 'oidc' }
    const github = {
      issuer: 'https://github.com',
      clientId: 'Iv1.abc',
      kind: 'oauth2',
      userinfoUrl: 'https://api.github.com/user',
    }
    const dev = {
      issuer: 'http://127.0.0.1:8795',
      clientId: 'airlock-google',
      kind: 'oidc',
      scope: 'openid email',
    }
    const social = (providers: Record<string, unknown>) => ({ ...base, email, social: { providers } })
    expect(Config.parse(social({ google, github })).social).toEqual({ providers: { google, github } })
    expect(Config.parse(social({ google: dev })).social?.providers.google).toEqual(dev)
    expect(Config.parse(social({})).social).toEqual({ providers: {} })
    expect(() => Config.parse(social({ gooogle: google }))).toThrow(
      'social.providers.gooogle: not a social provider (one of google, x, discord, github, apple, facebook)',
    )
    expect(() => Config.parse(social({ farcaster: google }))).toThrow('not a social provider')
    expect(() => Config.parse(social({ google: { ...google, issuer: 'http://accounts.example' } }))).toThrow(
      'a social provider URL must be https, or http on 127.0.0.1, [::1] or localhost',
    )
    expect(() =>
      Config.parse(social({ github: { ...github, userinfoUrl: 'http://api.example/user' } })),
    ).toThrow('must be https')
    expect(() => Config.parse(social({ github: { ...github, userinfoUrl: undefined } }))).toThrow(
      'an oauth2 social provider needs its userinfoUrl',
    )
    // Endpoints named for a provider without a discovery document: both, https, and only for oauth2.
    const discord = {
      issuer: 'https://discord.com',
      clientId: '1234',
      kind: 'oauth2',
      authorizationUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userinfoUrl: 'https://discord.com/api/users/@me',
    }
    expect(Config.parse(social({ discord })).social?.providers.discord).toEqual(discord)
    const endpoints = 'authorizationUrl and tokenUrl go together, and only for an oauth2 social provider'
    expect(() => Config.parse(social({ discord: { ...discord, tokenUrl: undefined } }))).toThrow(endpoints)
    expect(() => Config.parse(social({ discord: { ...discord, authorizationUrl: undefined } }))).toThrow(
      endpoints,
    )
    const { authorizationUrl, tokenUrl } = discord
    expect(() => Config.parse(social({ google: { ...google, authorizationUrl, tokenUrl } }))).toThrow(
      endpoints,
    )
    expect(() =>
      Config.parse(social({ discord: { ...discord, tokenUrl: 'http://discord.example/token' } })),
    ).toThrow('must be https')
    expect(() => Config.parse(social({ google: { ...google, kind: 'saml' } }))).toThrow(
      'social.providers.google.kind',
    )
    expect(() => Config.parse(social({ google: { ...google, scope: 'openid "email"' } }))).toThrow(
      'social.providers.google.scope',
    )
    expect(() => Config.parse({ ...base, social: { providers: { google } } })).toThrow(
      'social needs the email block: its sessions are kept under email.secret',
    )
  })

  it('takes an optional wallet key of 32 bytes, apart from the email secret and only with it', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
    const email = {
      smtp: { host: 'smtp.example', port: 587 },
      from: 'login@example.com',
      secret: 'ab'.repeat(32),
    }
    const key = '0123456789abcdefABCDEF'.padEnd(64, '7')
    expect(Config.parse({ ...base, email, wallet: { key } }).wallet).toEqual({ key })
    expect(Config.parse({ ...base, email }).wallet).toBeUndefined()
    for (const bad of [key.slice(1), `${key}0`, `${key.slice(1)}g`, 42])
      expect(() => Config.parse({ ...base, email, wallet: { key: bad } })).toThrow('wallet.key')
    expect(() => Config.parse({ ...base, email, wallet: {} })).toThrow('wallet.key')
    expect(() => Config.parse({ ...base, wallet: { key } })).toThrow(
      "wallet needs the email block: its routes take the email login's sessions",
    )
    for (const same of [email.secret, email.secret.toUpperCase()])
      expect(() => Config.parse({ ...base, email, wallet: { key: same } })).toThrow(
        'wallet.key must not be email.secret: a leaked HMAC secret must not open wallet shares',
      )
  })

  it('takes a farcaster block with a relay and an IdRegistry on a configured EVM chain, with the email block', () => {
    const optimism = {
      id: 'eip155:10',
      name: 'OP Mainnet',
      rpcUrl: 'https://mainnet.optimism.io',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    }
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [optimism] }
    const email = {
      smtp: { host: 'smtp.example', port: 587 },
      from: 'login@example.com',
      secret: 'x'.repeat(32),
    }
    const farcaster = {
      relayUrl: 'https://relay.farcaster.xyz',
      idRegistry: { chainId: 'eip155:10', address: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b' },
    }
    expect(Config.parse({ ...base, email, farcaster }).farcaster).toEqual(farcaster)
    const dev = { ...farcaster, relayUrl: 'http://127.0.0.1:8796' }
    expect(Config.parse({ ...base, email, farcaster: dev }).farcaster).toEqual(dev)
    const relayAt = (relayUrl: string) => ({ ...base, email, farcaster: { ...farcaster, relayUrl } })
    expect(() => Config.parse(relayAt('http://relay.example'))).toThrow(
      'farcaster.relayUrl must be an https origin, or http on 127.0.0.1, [::1] or localhost',
    )
    expect(() => Config.parse(relayAt('https://relay.example/v1'))).toThrow('farcaster.relayUrl')
    expect(() => Config.parse({ ...base, farcaster })).toThrow(
      'farcaster needs the email block: its sessions are kept under email.secret',
    )
    const elsewhere = { ...farcaster, idRegistry: { ...farcaster.idRegistry, chainId: 'eip155:8453' } }
    expect(() => Config.parse({ ...base, email, farcaster: elsewhere })).toThrow(
      'farcaster.idRegistry.chainId must be one of the configured chains',
    )
    const solana = {
      ...farcaster,
      idRegistry: { ...farcaster.idRegistry, chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
    }
    expect(() => Config.parse({ ...base, email, farcaster: solana })).toThrow('farcaster.idRegistry.chainId')
    const short = { ...farcaster, idRegistry: { ...farcaster.idRegistry, address: '0x1234' } }
    expect(() => Config.parse({ ...base, email, farcaster: short })).toThrow('farcaster.idRegistry.address')
  })

  it("takes a chain's swaps through Uniswap v2 and v3 deployments, on eip155 chains only", () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174' }
    const chain = {
      id: 'eip155:1',
      name: 'E',
      rpcUrl: 'http://x',
      nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
    }
    const swaps = {
      uniswapV2: {
        router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
        factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
        weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      },
    }
    expect(Config.parse({ ...base, chains: [{ ...chain, swaps }] }).chains[0]?.swaps).toEqual(swaps)
    expect(Config.parse({ ...base, chains: [chain] }).chains[0]?.swaps).toBeUndefined()
    const router = { ...swaps.uniswapV2, router: '0x7a25' }
    expect(() => Config.parse({ ...base, chains: [{ ...chain, swaps: { uniswapV2: router } }] })).toThrow(
      'chains[0].swaps.uniswapV2.router',
    )
    // No venue at all: a chain Uniswap deploys on is turned off, any other has none anyway.
    expect(Config.parse({ ...base, chains: [{ ...chain, swaps: {} }] }).chains[0]?.swaps).toEqual({})
    const v3 = {
      factory: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
      quoter: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
      router: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
      weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    }
    expect(
      Config.parse({ ...base, chains: [{ ...chain, swaps: { uniswapV3: v3 } }] }).chains[0]?.swaps,
    ).toEqual({
      uniswapV3: v3,
    })
    expect(() =>
      Config.parse({ ...base, chains: [{ ...chain, swaps: { uniswapV3: { ...v3, quoter: undefined } } }] }),
    ).toThrow('chains[0].swaps.uniswapV3.quoter')
    const solana = { ...chain, id: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', swaps }
    expect(() => Config.parse({ ...base, chains: [solana] })).toThrow('swaps are for eip155 chains only')
  })

  it('takes a names block on a configured EVM chain, with a 32-byte gateway key', () => {
    const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174' }
    const chain = {
      id: 'eip155:1',
      name: 'E',
      rpcUrl: 'http://x',
      nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
    }
    const names = {
      chainId: 'eip155:1',
      universalResolver: '0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe',
      gatewayKey: `0x${'ab'.repeat(32)}`,
    }
    expect(Config.parse({ ...base, chains: [chain], names }).names).toEqual(names)
    expect(
      Config.parse({ ...base, chains: [chain], names: { ...names, suffix: 'wcn.id' } }).names?.suffix,
    ).toBe('wcn.id')
    expect(() => Config.parse({ ...base, chains: [], names })).toThrow(
      'names.chainId must be one of the configured chains',
    )
    expect(() =>
      Config.parse({ ...base, chains: [chain], names: { ...names, gatewayKey: 'ab'.repeat(32) } }),
    ).toThrow('names.gatewayKey')
    expect(() => Config.parse({ ...base, chains: [chain], names: { ...names, suffix: 'Airlock' } })).toThrow(
      'names.suffix',
    )
    const internal = (internalGateways: unknown) =>
      Config.parse({ ...base, chains: [chain], names: { ...names, internalGateways } }).names
        ?.internalGateways
    expect(internal(['http://127.0.0.1:8787', 'https://gateway.internal'])).toEqual([
      'http://127.0.0.1:8787',
      'https://gateway.internal',
    ])
    // Origins as a URL's origin reads, so that the one compared is the one written.
    for (const written of ['http://127.0.0.1:8787/v1', 'HTTP://Gateway.internal', 'https://x:443', 'ftp://x'])
      expect(() => internal([written])).toThrow('names.internalGateways')
  })

  it('says which file it could not read', () => {
    expect(() => ConfigFile.read('/nonexistent/airlock.json')).toThrow('airlock.json: not readable')
  })
})
