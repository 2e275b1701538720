import { readFileSync } from 'node:fs'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import * as ConfigFile from './ConfigFile.ts'

// airlock.config.schema.json is written by hand for editors and readers; Config.ts is what the server
// enforces. These tests hold them together: a configuration using every key both know, then every key
// removed, given a wrong type and joined by an unknown sibling, one at a time, must be judged alike.
const schema = JSON.parse(readFileSync(new URL('../airlock.config.schema.json', import.meta.url), 'utf8'))
const validate = new Ajv({ allErrors: true }).compile(schema)

const evm = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const full = {
  $schema: './airlock.config.schema.json',
  apiUrl: 'https://api.example',
  modalOrigin: 'https://modal.example',
  dataDir: '/var/lib/airlock',
  chains: [
    {
      id: 'eip155:1',
      name: 'Ethereum',
      rpcUrl: 'https://rpc.example',
      wsUrl: 'wss://rpc.example',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: false,
      tokens: [
        {
          address: evm(1),
          name: 'USD Coin',
          symbol: 'USDC',
          decimals: 6,
          iconUrl: 'https://i.example/u.png',
        },
      ],
      swaps: {
        uniswapV2: { router: evm(2), factory: evm(3), weth: evm(4) },
        uniswapV3: { factory: evm(5), quoter: evm(6), router: evm(7), weth: evm(4) },
      },
      accountAbstraction: {
        bundlerUrl: 'https://bundler.example',
        entryPoints: [evm(7)],
        paymaster: { address: evm(8), signerKey: `0x${'c'.repeat(64)}` },
      },
    },
  ],
  limits: {
    perClient: { burst: 50, perSecond: 0.5, inFlight: 8 },
    perProject: { burst: 500, perSecond: 5, inFlight: 64 },
    requestTimeoutMs: 5_000,
    trustedProxies: 1,
  },
  email: {
    smtp: {
      host: 'smtp.example',
      port: 465,
      secure: true,
      requireTLS: true,
      user: 'airlock',
      pass: 'secret',
    },
    from: 'Airlock <login@example.com>',
    secret: 's'.repeat(32),
    limits: {
      codesPerClient: [{ max: 10, windowS: 600 }],
      codes: [{ max: 1_000, windowS: 3_600 }],
      wrongCodesPerAddress: [
        { max: 10, windowS: 3_600 },
        { max: 30, windowS: 86_400 },
      ],
      wrongCodesPerAddressAndClient: [{ max: 5, windowS: 3_600 }],
      wrongCodesPerClient: [{ max: 30, windowS: 3_600 }],
      wrongCodes: [{ max: 1_000, windowS: 3_600 }],
    },
  },
  social: {
    providers: {
      google: {
        issuer: 'https://accounts.google.com',
        clientId: 'g',
        clientSecret: 'gs',
        kind: 'oidc',
        scope: 'openid email',
      },
      github: {
        issuer: 'https://github.com',
        clientId: 'h',
        kind: 'oauth2',
        userinfoUrl: 'https://api.github.com/user',
        authorizationUrl: 'https://github.com/login/oauth/authorize',
        tokenUrl: 'https://github.com/login/oauth/access_token',
      },
    },
  },
  wallet: { key: 'a'.repeat(64) },
  farcaster: {
    relayUrl: 'https://relay.farcaster.xyz',
    idRegistry: { chainId: 'eip155:1', address: evm(5) },
  },
  names: {
    suffix: 'airlock.id',
    chainId: 'eip155:1',
    universalResolver: evm(6),
    gatewayKey: `0x${'b'.repeat(64)}`,
    internalGateways: ['http://10.0.0.7:8787'],
  },
  onramp: {
    providers: [
      {
        id: 'moonpay',
        name: 'MoonPay',
        kind: 'moonpay',
        apiUrl: 'https://api.moonpay.example',
        widgetUrl: 'https://buy.moonpay.example',
        publishableKey: 'pk_live_1',
        secretKey: 'sk_live_0123456789abcdef',
        webhookSecret: 'wh_0123456789abcdef',
        networks: { 'solana-devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
        country: 'US',
      },
    ],
  },
  sponsorship: [
    {
      projectId: 'shop',
      maxGas: 2_000_000,
      budget: { perDay: '100000000000000000', total: '1000000000000000000', perSenderPerDay: '0' },
      fees: { baseFeeMultiplier: 2, maxPriorityFeePerGasGwei: 1.5, maxFeePerGasGwei: 50 },
      calls: [
        { to: evm(1), selectors: ['0xa9059cbb'] },
        { to: 'self', selectors: ['0x06fca92c'] },
      ],
    },
  ],
}

type Path = (string | number)[]
type Json = unknown

/** Every key path of a JSON value, objects' and array items' alike, parents before children. */
function paths(value: Json, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => paths(item, [...at, i]))
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, item]) => [[...at, key], ...paths(item, [...at, key])])
}

/** A copy of `value` with `change` applied to the parent of `path`'s last key. */
function edit(
  value: Json,
  path: Path,
  change: (parent: Record<string | number, Json>, key: string | number) => void,
) {
  const copy = structuredClone(value) as Record<string | number, Json>
  const parent = path
    .slice(0, -1)
    .reduce<Record<string | number, Json>>((node, key) => node[key] as never, copy)
  change(parent, path[path.length - 1] as string | number)
  return copy
}

const name = (path: Path) =>
  path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`))
    .join('')
    .slice(1)
const server = (value: Json) => {
  try {
    ConfigFile.check(value, 'airlock.config.json')
    return true
  } catch {
    return false
  }
}
const judged = (value: Json) => ({ server: server(value), schema: validate(value) })

describe('airlock.config.schema.json', () => {
  it('accepts the example configuration and one using every key, as the server does', () => {
    const example = JSON.parse(
      readFileSync(new URL('../airlock.config.example.json', import.meta.url), 'utf8'),
    )
    expect(judged(example)).toEqual({ server: true, schema: true })
    expect(judged(full)).toEqual({ server: true, schema: true })
  })

  it('documents every block Config.ts reads', () => {
    // The shapes are functions, so their keys are read from the source: the top-level fields' object.
    const source = readFileSync(new URL('./Config.ts', import.meta.url), 'utf8')
    const fields = source.slice(source.indexOf('const fields = S.object({'))
    const keys = [...fields.slice(0, fields.indexOf('\n})')).matchAll(/^ {2}(\w+):/gm)].map(
      (match) => match[1],
    )
    expect(keys.length).toBeGreaterThan(5)
    expect(
      Object.keys(schema.properties)
        .filter((key) => key !== '$schema')
        .sort(),
    ).toEqual(keys.sort())
  })

  it('names no key the configuration above leaves out', () => {
    const documented = (node: Record<string, Json>, value: Json, at: string): string[] => {
      if (Array.isArray(value))
        return value.flatMap((item) => documented(node.items as never, item, `${at}[]`))
      const properties = (node.properties ?? {}) as Record<string, Record<string, Json>>
      const own = Object.entries(properties).flatMap(([key, child]) =>
        value !== null && typeof value === 'object' && key in value
          ? documented(child, (value as Record<string, Json>)[key], `${at}.${key}`)
          : [`${at}.${key}`],
      )
      const open = node.additionalProperties
      const extra = typeof open === 'object' && value && typeof value === 'object' ? Object.values(value) : []
      // A map's entries (the social providers) share one schema: a key counts as used if one entry uses it.
      const missing = extra.map((item) => documented(open as never, item, `${at}.*`))
      return [...own, ...(missing[0] ?? []).filter((key) => missing.every((keys) => keys.includes(key)))]
    }
    expect(documented(schema, full, '')).toEqual([])
  })

  it.each(paths(full).map((path) => [name(path), path] as const))(
    'judges %s left out, mistyped or misspelt alike',
    (_, path) => {
      const removed = edit(full, path, (parent, key) => {
        if (Array.isArray(parent)) parent.splice(key as number, 1)
        else delete parent[key]
      })
      const { server: kept, schema: valid } = judged(removed)
      expect({ path: name(path), valid }).toEqual({ path: name(path), valid: kept })
      if (path[0] === '$schema') return
      const mistyped = edit(full, path, (parent, key) => {
        parent[key] = typeof parent[key] === 'string' ? 42 : 'text'
      })
      expect(judged(mistyped)).toEqual({ server: false, schema: false })
      const misspelt = edit(full, path, (parent) => {
        if (!Array.isArray(parent)) parent.unknownKey = 1
      })
      const parent = path.slice(0, -1)
      // The social providers are a map (any provider name goes to the name check); arrays have no siblings.
      if (typeof path[path.length - 1] === 'string' && name(parent) !== 'social.providers')
        expect(judged(misspelt)).toEqual({ server: false, schema: false })
    },
  )
})
