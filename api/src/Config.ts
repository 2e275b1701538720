/**
 * What a deployment configures: its chains (RPC URLs and the tokens whose balances it reports), where the
 * modal origin and the API are reachable, and the ports. Read from a JSON file by `ConfigFile.ts` (`--config`
 * or `AIRLOCK_CONFIG`), checked with the bridge's shapes before the service starts.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { type SocialProvider, socialProviders } from './contract/auth.ts'
import { accountAbstractionConfig } from './features/bundler/ChainConfig.ts'
import { onrampConfig } from './features/onramp/ProviderConfig.ts'
import { sponsorshipConfig } from './features/paymaster/Sponsorship.ts'

/** A token's contract (EVM, `0x…`) or mint (Solana, base58); checked against its chain's family below. */
const address = S.string(44, 32, /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/)
/** A URL of the schemes `pattern` allows; a wrong one is named as what it should be, not as a pattern. */
const url =
  (pattern: RegExp, expected = 'an http(s) URL'): S.Shape<string> =>
  (value, path) => {
    if (typeof value === 'string' && value.length <= 2048 && pattern.test(value)) return value
    throw new S.ShapeError(`${path}: expected ${expected}`)
  }
const origin = 'an http(s) origin: scheme, host and port, no path'

const token = S.object({
  address,
  name: S.string(100, 1),
  symbol: S.string(20, 1),
  decimals: S.number(0, 255),
  iconUrl: S.optional(url(/^https?:\/\/\S+$/)),
})

const evmAddress = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)

/**
 * Swaps on a chain (docs/behaviour.md §7's `/v1/convert/*`, `features/swaps`): the venues that quote and make them. The
 * API quotes every venue at one block and takes the best output net of gas. Without the block, a chain
 * Uniswap deploys on (Ethereum, Optimism, Polygon, Base, Arbitrum: `features/swaps/Canonical.ts`) swaps
 * through Uniswap's own v2 and v3 there, and any other chain answers 'Network not supported for Swaps'; `{}`
 * turns swaps off.
 */
const swaps = S.object({
  /**
   * A Uniswap v2 deployment, or a fork with its router and pair code: `router` (Router02, the contract that
   * swaps and that visitors approve), `factory` (which finds the pools) and `weth` (the wrapped native
   * currency Router02 was deployed with). Mainnet's: router `0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D`,
   * factory `0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f`, WETH `0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2`.
   */
  uniswapV2: S.optional(S.object({ router: evmAddress, factory: evmAddress, weth: evmAddress })),
  /**
   * A Uniswap v3 deployment, pools at v3-periphery's init-code hash: `factory`, `quoter` (QuoterV2), `router`
   * (SwapRouter02, which visitors approve) and `weth`. Mainnet's: factory
   * `0x1F98431c8aD98523631AE4a59f267346ea31F984`, QuoterV2 `0x61fFE014bA17989E743c5F6cB21bF9697530B21e`,
   * SwapRouter02 `0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45`, WETH as above.
   */
  uniswapV3: S.optional(
    S.object({ factory: evmAddress, quoter: evmAddress, router: evmAddress, weth: evmAddress }),
  ),
})

const chainFields = S.object({
  /** CAIP-2 id: `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`, `bip122:000000000019d6689c085ae165831e93`. */
  id: S.check(S.string(80), Caip.isChainId, Caip.invalidChainId),
  name: S.string(100, 1),
  /**
   * The chain's JSON-RPC: an EVM node, a Solana RPC, or for `bip122` a Bitcoin Core-style node (its
   * credentials in the URL, `http://user:password@host:port`), which the API indexes and serves as Esplora.
   */
  rpcUrl: url(/^https?:\/\/\S+$/),
  /** A WebSocket RPC URL, listed under `ws` by `/v1/supported-chains`. */
  wsUrl: S.optional(url(/^wss?:\/\/\S+$/, 'a ws(s) URL')),
  nativeCurrency: S.object({ name: S.string(100, 1), symbol: S.string(20, 1), decimals: S.number(0, 255) }),
  /** A test network: the modal marks it so in its Networks view. */
  testnet: S.optional(S.boolean),
  /** ERC-20 contracts or SPL mints whose balances `/v1/account/{address}/balance` reports on this chain. */
  tokens: S.optional(S.array(token, 200)),
  /** Swaps on an `eip155` chain: its venues; Uniswap's own on the mainnets it deploys on, none elsewhere. */
  swaps: S.optional(swaps),
  /** ERC-4337 on an `eip155` chain (`features/bundler/ChainConfig.ts`): its bundler, and a paymaster. */
  accountAbstraction: S.optional(accountAbstractionConfig),
})

/** A chain whose tokens are of its own family: EVM contracts on `eip155`, mints on `solana`, none on `bip122`. */
const chainOfOneFamily = S.check(
  chainFields,
  (entry) =>
    (entry.tokens ?? []).every((item) =>
      entry.id.startsWith('eip155:')
        ? item.address.startsWith('0x')
        : entry.id.startsWith('solana:') && !item.address.startsWith('0x'),
    ),
  "a chain's tokens must be of its family: 0x contracts on eip155, base58 mints on solana, none on bip122",
)

const chain = S.check(
  S.check(
    chainOfOneFamily,
    (entry) => entry.swaps === undefined || entry.id.startsWith('eip155:'),
    'swaps are for eip155 chains only',
  ),
  (entry) => entry.accountAbstraction === undefined || entry.id.startsWith('eip155:'),
  'accountAbstraction is for eip155 chains only',
)

const whole =
  (min: number, max: number): S.Shape<number> =>
  (value, path) => {
    const n = S.number(min, max)(value, path)
    if (!Number.isInteger(n)) throw new S.ShapeError(`${path}: expected a whole number in ${min}..${max}`)
    return n
  }

/** A budget of `http/buckets.ts`; what is left out keeps its default. */
const budget = S.object({
  burst: S.optional(whole(1, 1e9)),
  perSecond: S.optional(S.number(0.001, 1e9)),
  inFlight: S.optional(whole(1, 1e6)),
})

/** Rate limits and time-outs (`http/limits.ts` has the defaults and what each means). */
const limits = S.object({
  perClient: S.optional(budget),
  perProject: S.optional(budget),
  requestTimeoutMs: S.optional(whole(100, 600_000)),
  /** Proxies of ours in front of the API that append to `X-Forwarded-For`; 0 (the default) trusts none. */
  trustedProxies: S.optional(whole(0, 10)),
})

/** A cap over time: at most `max` events within any `windowS` seconds (up to 30 days); 1 to 4 of them. */
const capWindows = S.check(
  S.array(S.object({ max: whole(1, 1e9), windowS: whole(1, 30 * 86_400) }), 4),
  (windows) => windows.length > 0,
  'a cap needs at least one window { max, windowS }',
)

/**
 * Email one-time-code login (`features/auth`): the SMTP server that sends the codes, their sender, and the
 * key of the HMACs under which codes and session tokens are stored. Without it, the email routes answer 404.
 */
const email = S.object({
  smtp: S.object({
    host: S.string(253, 1),
    port: whole(1, 65535),
    /** TLS from the first byte (port 465); otherwise STARTTLS (see `requireTLS`). */
    secure: S.optional(S.boolean),
    /**
     * Without `secure`: send only once STARTTLS succeeded, so a server that offers none (or a network that
     * strips the offer) fails the mail instead of getting the code, and the login's password, in clear.
     * `false` only for a catcher on loopback (the dev stack's maildev). @default true
     */
    requireTLS: S.optional(S.boolean),
    user: S.optional(S.string(256, 1)),
    pass: S.optional(S.string(256, 1)),
  }),
  /** The sender, e.g. `Airlock <login@example.com>`. */
  from: S.string(320, 3),
  /**
   * At least 32 characters, kept out of the database: a stolen database then cannot test the 10^6 codes of
   * a stored hash offline, nor pass a stored token hash for a session. Changing it ends every session.
   */
  secret: S.string(256, 32),
  /** Caps on codes over time (`features/auth/Caps.ts` has the defaults and what each means). */
  limits: S.optional(
    S.object({
      codesPerClient: S.optional(capWindows),
      codes: S.optional(capWindows),
      wrongCodesPerAddress: S.optional(capWindows),
      wrongCodesPerAddressAndClient: S.optional(capWindows),
      wrongCodesPerClient: S.optional(capWindows),
      wrongCodes: S.optional(capWindows),
    }),
  ),
})

/** An http URL only on this machine (a development provider): anywhere else a provider must use https. */
const providerUrl = S.check(
  url(/^https?:\/\/\S+$/),
  (value) => value.startsWith('https://') || isLoopback(value),
  'a social provider URL must be https, or http on 127.0.0.1, [::1] or localhost',
)

/**
 * A social login provider (`features/auth/social.ts`); what each one is like beyond this (its default
 * scope, how it is answered and how its user endpoint writes a person) follows from its id
 * (`features/auth/Presets.ts`). `oidc`: OpenID Connect, discovered from `issuer`, the user read from the ID
 * token it signs (Google, Apple). `oauth2`: plain OAuth 2.0 whose ID token, if any, is not relied on: the
 * user is read from `userinfoUrl` with the access token (Discord's `https://discord.com/api/users/@me`;
 * GitHub's `https://api.github.com/user`, whose verified addresses are read beside it, at `/user/emails`).
 * Endpoints come from the issuer's discovery document, unless `authorizationUrl` and `tokenUrl` name them
 * (providers that publish none: GitHub, Discord, Facebook, X).
 */
const socialProviderConfig = S.check(
  S.check(
    S.object({
      issuer: providerUrl,
      clientId: S.string(256, 1),
      /** Omitted for a public client (PKCE alone). Apple's is the ES256 JWT signed with the team's key. */
      clientSecret: S.optional(S.string(1024, 1)),
      kind: S.picklist(['oidc', 'oauth2']),
      /** Where an `oauth2` provider tells who logged in; required for that kind. */
      userinfoUrl: S.optional(providerUrl),
      /** An `oauth2` provider's authorization endpoint, for one without a discovery document (with `tokenUrl`). */
      authorizationUrl: S.optional(providerUrl),
      /** Its token endpoint, with `authorizationUrl`. */
      tokenUrl: S.optional(providerUrl),
      /** @default the provider's own (`Presets.ts`): `openid email profile` for Google, `identify email` for Discord… */
      scope: S.optional(S.string(500, 1, /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/)),
    }),
    (provider) => provider.kind === 'oidc' || provider.userinfoUrl !== undefined,
    'an oauth2 social provider needs its userinfoUrl',
  ),
  // An OpenID provider's keys (`jwks_uri`) come from its discovery document: it is always discovered.
  (provider) =>
    (provider.authorizationUrl === undefined) === (provider.tokenUrl === undefined) &&
    (provider.kind === 'oauth2' || provider.authorizationUrl === undefined),
  'authorizationUrl and tokenUrl go together, and only for an oauth2 social provider',
)
export type SocialProviderConfig = S.Infer<typeof socialProviderConfig>

/** The providers by docs/behaviour.md §5's ids; any other name is refused, so a typo never passes for a provider. */
const socialProvidersConfig: S.Shape<Partial<Record<SocialProvider, SocialProviderConfig>>> = (
  value,
  path = '',
) => {
  const all = S.record(socialProviderConfig, socialProviders.length)(value, path)
  const unknown = Object.keys(all).find((name) => !(socialProviders as readonly string[]).includes(name))
  if (unknown !== undefined)
    throw new S.ShapeError(`${path}.${unknown}: not a social provider (one of ${socialProviders.join(', ')})`)
  return all
}

/**
 * Social login. Its sessions are the email login's (one kind of bearer token, under `email.secret`), so it
 * needs the `email` block too.
 */
const social = S.object({ providers: socialProvidersConfig })

/**
 * The embedded wallet's custody (`features/wallet`): `key` is the AES-256-GCM key under which the API keeps
 * visitors' auth shares, 32 bytes as 64 hex characters. Keep it out of the database and apart from
 * `email.secret`: a stolen database, or a leaked HMAC secret, must not open a share. Losing or changing it
 * loses every stored auth share (the visitors' device and recovery shares still rebuild their wallets).
 * Without it, the wallet routes answer 404.
 */
const wallet = S.object({
  key: S.check(
    S.string(64, 64),
    (key) => /^[0-9a-fA-F]{64}$/.test(key),
    'wallet.key: expected 64 hex characters (32 bytes)',
  ),
})

/**
 * Sign In With Farcaster (`features/auth/farcaster`): the relay the modal's sign-ins go through (Farcaster's
 * is `https://relay.farcaster.xyz`), and the IdRegistry that says which fid a custody address owns
 * (`idOf(address)`; Farcaster's is `0x00000000Fc6c5F01Fc30151999387Bb99A9f489b` on Optimism, `eip155:10`),
 * read on one of the configured chains. Its sessions are the email login's, so it needs the `email` block.
 */
const farcaster = S.object({
  relayUrl: S.check(
    url(/^https?:\/\/[^/\s]+$/, origin),
    (value) => value.startsWith('https://') || isLoopback(value),
    'farcaster.relayUrl must be an https origin, or http on 127.0.0.1, [::1] or localhost',
  ),
  idRegistry: S.object({
    /** CAIP-2 id of an `eip155` chain of `chains`. */
    chainId: S.string(80, 8, /^eip155:[0-9]{1,32}$/),
    address: evmAddress,
  }),
})

/**
 * Names (`features/names`, docs/behaviour.md §7 "profile"): the suffix of the project's names, which the API keeps and
 * answers for through ENS's offchain resolver (deployed with `{apiUrl}/v1/ens/gateway/{sender}/{data}.json` as
 * its gateway and the address of `gatewayKey` as its signer), and the chain whose ENS the API reads (`.eth`
 * names, primary names). Without it, the names routes answer 404.
 */
const names = S.object({
  /** The suffix, e.g. `airlock.id`: a name is a label of its own and this. @default 'airlock.id' */
  suffix: S.optional(S.string(200, 3, /^[a-z0-9-]+(\.[a-z0-9-]+)+$/)),
  /** CAIP-2 id of an `eip155` chain of `chains`, with ENS and the offchain resolver of the suffix. */
  chainId: S.string(80, 8, /^eip155:[0-9]{1,32}$/),
  /** ENS's universal resolver there (mainnet's: `0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe`). */
  universalResolver: evmAddress,
  /**
   * The key the gateway signs its answers with, 32 bytes as 0x and 64 hex characters. Keep it out of the
   * database: whoever holds it can make the resolver answer anything for the suffix's names.
   */
  gatewayKey: S.string(66, 66, /^0x[0-9a-fA-F]{64}$/),
  /**
   * Origins of CCIP-read gateways the API may ask although they are on loopback or a private network: the
   * deployment's own (`http://127.0.0.1:8787` on the dev stack, where the suffix's resolver asks this API).
   * Any other gateway an ENS resolver names is asked only at public addresses. @default []
   */
  internalGateways: S.optional(
    S.array(
      S.check(
        url(/^https?:\/\/[^/\s]+$/, origin),
        (value) => new URL(value).origin === value,
        `names.internalGateways: expected ${origin}, written as the browser writes it (no default port, lower case)`,
      ),
      20,
    ),
  ),
})

const fields = S.object({
  chains: S.array(chain, 200),
  /** Where browsers reach the API, e.g. `https://api.example`; the modal's HTML is told this URL. */
  apiUrl: url(/^https?:\/\/[^/\s]+$/, origin),
  /** The modal origin, e.g. `https://modal.example`; CORS always answers it. */
  modalOrigin: url(/^https?:\/\/[^/\s]+$/, origin),
  limits: S.optional(limits),
  email: S.optional(email),
  social: S.optional(social),
  wallet: S.optional(wallet),
  farcaster: S.optional(farcaster),
  names: S.optional(names),
  /** On-ramp providers (`features/onramp`). Without it, options answer docs/behaviour.md §8's fallback and the other routes 404. */
  onramp: S.optional(onrampConfig),
  /** The projects whose user operations chains' paymasters pay for (`features/paymaster/Sponsorship.ts`). */
  sponsorship: S.optional(sponsorshipConfig),
  /**
   * PGlite's data folder, relative to this file's folder (`AIRLOCK_DATA` wins; unused with `DATABASE_URL`).
   * @default '.airlock-data'
   */
  dataDir: S.optional(S.string(4096, 1)),
})

/** Rules across blocks, each with the text that names it, checked in this order. */
const rules: readonly [rule: (config: S.Infer<typeof fields>) => boolean, message: string][] = [
  [
    (config) => !config.social || config.email !== undefined,
    'social needs the email block: its sessions are kept under email.secret',
  ],
  [
    (config) => !config.wallet || config.email !== undefined,
    "wallet needs the email block: its routes take the email login's sessions",
  ],
  [
    (config) => !config.farcaster || config.email !== undefined,
    'farcaster needs the email block: its sessions are kept under email.secret',
  ],
  [
    (config) =>
      !config.farcaster || config.chains.some((chain) => chain.id === config.farcaster?.idRegistry.chainId),
    'farcaster.idRegistry.chainId must be one of the configured chains',
  ],
  [
    (config) => !config.names || config.chains.some((chain) => chain.id === config.names?.chainId),
    'names.chainId must be one of the configured chains',
  ],
  [
    (config) => !config.wallet || config.wallet.key.toLowerCase() !== config.email?.secret.toLowerCase(),
    'wallet.key must not be email.secret: a leaked HMAC secret must not open wallet shares',
  ],
]

export const schema = rules.reduce((shape, [rule, message]) => S.check(shape, rule, message), fields)

export type Config = S.Infer<typeof schema>
export type Chain = Config['chains'][number]
export type Token = NonNullable<Chain['tokens']>[number]
export type Swaps = NonNullable<Chain['swaps']>
export type Email = NonNullable<Config['email']>
export type Farcaster = NonNullable<Config['farcaster']>

/**
 * Parses a configuration, throwing an error that names the bad field.
 * @example
 * Config.parse({ chains: [], apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174' })
 */
export function parse(value: unknown): Config {
  const parsed = S.parse(schema, value)
  if (!parsed.ok) throw new Error(`Invalid Airlock API configuration: ${parsed.message}`)
  return parsed.value
}

/** Whether a URL's host is this machine's loopback interface. */
export function isLoopback(value: string): boolean {
  const hostname = URL.canParse(value) ? new URL(value).hostname : ''
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}
