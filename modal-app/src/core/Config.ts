/**
 * The modal's configuration, read once from its own URL (`?projectId=…&config=<JSON>`), which the host SDK
 * builds. It is the host's word, so it is parsed here and nowhere else, with the bridge's own shapes.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as Switches from '@airlock/bridge-protocol/Features'
import { miniApp } from '@airlock/bridge-protocol/MiniApp'
import * as S from '@airlock/bridge-protocol/Shape'

const chainId = S.check(S.string(80), Caip.isChainId, Caip.invalidChainId)
const httpUrl = S.string(2048, 1, /^https?:\/\/\S+$/)
const rpcUrls = S.check(
  S.record(httpUrl, 64),
  (urls) => Object.keys(urls).every(Caip.isChainId),
  `rpcUrls: ${Caip.invalidChainId}`,
)

const walletId = S.string(80, 1, /^[\w-]+$/)

/** A string whose failure names what was expected in words (`…rpcUrl: expected an http(s) URL`), not a regex. */
const text =
  (expected: string, max: number, pattern = /^/): S.Shape<string> =>
  (value, path) => {
    if (typeof value === 'string' && value.length > 0 && value.length <= max && pattern.test(value))
      return value
    throw new S.ShapeError(`${path}: expected ${expected}`)
  }
const url = text('an http(s) URL', 2048, /^https?:\/\/\S+$/)
/** A wallet app's link: a universal link, or a native scheme that cannot run script in the page. */
const appLink = /^(https:\/\/\S+|(?!(javascript|data|vbscript|file|blob|http):)[a-z][a-z\d+.-]*:\S*)$/i
// An image in <img> runs no script, so an SVG data URL is as safe as a PNG.
const imageUrl = text(
  'an http(s) or data:image/… URL',
  8192,
  /^(https?:\/\/\S+|data:image\/[-+.\w]+[;,][^\n\r]*)$/i,
)
/** A wallet as `excludeWalletIds` names it: a registry id, an rdns (`io.metamask`) or a name (`MetaMask`). */
const walletRef = text('a wallet id, rdns or name of 1 to 100 characters', 100, /^[^\p{Cc}]+$/u)

const customId: S.Shape<Caip.ChainId> = (value, path) => {
  if (!Caip.isChainId(value)) throw new S.ShapeError(`${path}: ${Caip.invalidChainId}`)
  // Wallets switch EVM chains by the number's hex form (EIP-3326), so the reference must be that number.
  if (/^eip155:(?![1-9]\d{0,15}$)/.test(value))
    throw new S.ShapeError(`${path}: expected eip155:<decimal chain id>`)
  return value
}

/** A network the host declares itself; see `customNetworks` in the host SDK's options. */
const customNetwork = S.object({
  id: customId,
  name: text('a name of 1 to 100 characters', 100),
  rpcUrl: url,
  explorer: S.optional(S.object({ name: text('a name of 1 to 100 characters', 100), url })),
  nativeCurrency: S.object({
    name: text('a name of 1 to 100 characters', 100),
    symbol: text('a symbol of 1 to 20 characters', 20),
    decimals: (value, path) => {
      if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 36) return value as number
      throw new S.ShapeError(`${path}: expected a whole number in 0..36`)
    },
  }),
  iconUrl: S.optional(imageUrl),
  testnet: S.optional(S.boolean),
})

const customNetworks: S.Shape<S.Infer<typeof customNetwork>[]> = (value, path) => {
  const list = S.array(customNetwork, 64)(value, path)
  const twice = list.find((network, i) => list.findIndex((other) => other.id === network.id) !== i)
  if (twice) throw new S.ShapeError(`${path}: ${twice.id} is declared twice`)
  return list
}

/**
 * docs/behaviour.md §1's account types, by namespace, that a host may prefer. EIP-7702 (the visitor's key upgraded in
 * place) is a smart account in the product's terms (docs/behaviour.md §1), so eip155 names it apart from the ERC-4337 `smartAccount`.
 */
const accountTypes = {
  eip155: ['smartAccount', 'eip7702', 'eoa'],
  solana: ['eoa'],
  polkadot: ['eoa'],
  bip122: ['payment'],
} as const
const typesByNamespace = S.object({
  eip155: S.optional(S.picklist(accountTypes.eip155)),
  solana: S.optional(S.picklist(accountTypes.solana)),
  polkadot: S.optional(S.picklist(accountTypes.polkadot)),
  bip122: S.optional(S.picklist(accountTypes.bip122)),
})
// Unlike the config's own keys, a namespace this build does not know is an error: the host asked for an
// account it would silently not get.
const preferredAccountTypes: S.Shape<S.Infer<typeof typesByNamespace>> = (value, path) => {
  const types = typesByNamespace(value, path)
  const stray = Object.keys(value as object).find((key) => !Object.hasOwn(accountTypes, key))
  if (stray !== undefined)
    throw new S.ShapeError(`${path}.${stray}: expected one of ${Object.keys(accountTypes).join(', ')}`)
  return types
}

/**
 * A wallet the host lists itself, in Connect's `custom` group: it pairs over WalletConnect through its own
 * links, as a registry wallet does. Its name, icon and links are the host's claims, and shown as such.
 */
const customWallet = S.object({
  id: text('an id of letters, digits, - or _', 80, /^[\w-]+$/),
  name: text('a name of 1 to 100 characters', 100, /^[^\p{Cc}]+$/u),
  iconUrl: imageUrl,
  /** A native scheme (`wallet://`) or a universal link (`https://…`), for phones. */
  mobileLink: S.optional(text('a wallet:// or https:// link', 2048, appLink)),
  desktopLink: S.optional(text('a wallet:// or https:// link', 2048, appLink)),
  webappLink: S.optional(text('an https:// link', 2048, /^https:\/\/\S+$/)),
  /** The EIP-6963 rdns of its browser extension: where that extension is on the page, it is listed once. */
  rdns: S.optional(text('a reverse domain name', 128, /^[a-z\d-]+(\.[a-z\d-]+)+$/i)),
})

const customWallets: S.Shape<S.Infer<typeof customWallet>[]> = (value, path) => {
  const list = S.array(customWallet, 32)(value, path)
  const twice = list.find((wallet, i) => list.findIndex((other) => other.id === wallet.id) !== i)
  if (twice) throw new S.ShapeError(`${path}: ${twice.id} is listed twice`)
  return list
}

const schema = S.object({
  /** CAIP-2 ids of the networks the dApp supports, in its order. */
  networks: S.array(chainId, 64),
  rpcUrls: S.optional(rpcUrls),
  /** Networks the host declares itself; shown only where `networks` lists their ids. */
  customNetworks: S.optional(customNetworks),
  themeMode: S.optional(S.picklist(['light', 'dark'])),
  /** A BCP 47 tag (`ar`, `pt-BR`): the language the host wants, tried before the browser's. */
  locale: S.optional(S.string(35, 2, /^[A-Za-z]{2,3}(-[A-Za-z\d]{1,8})*$/)),
  /** Checked key by key by `Theme.sanitize`; anything unsafe is dropped, not fatal. */
  themeVariables: S.optional(S.record(S.string(256), 64)),
  /** Switches (`allWallets: false`) and orders (`connectorTypeOrder: ['walletConnect', …]`); see `Switches.ts`. */
  features: S.optional(Switches.features),
  embedded: S.optional(S.boolean),
  /** The embedded wallet's account type per namespace (the defaults where unset); the visitor's choice wins. */
  preferredAccountTypes: S.optional(preferredAccountTypes),
  /** A wallet on a network the dApp did not configure stays connected there, with a notice. @default false */
  allowUnsupportedChain: S.optional(S.boolean),
  /** The visitor may move the wallet between the configured networks. @default true */
  enableNetworkSwitch: S.optional(S.boolean),
  /** The Telegram mini-app the page runs in, as the host SDK read it; absent when it is not one. */
  telegram: miniApp,
  /** IANA time zones where Buy and Swap say they are unavailable (`Region.ts`); `[]` for none. */
  restrictedTimeZones: S.optional(S.array(S.string(64, 1, /^[\w+/-]+$/), 64)),
  /** WalletConnect: the project id and, optionally, the relay (default WalletConnect's public one). */
  walletConnect: S.optional(
    S.object({
      projectId: S.string(128, 1, /^[\w-]+$/),
      relayUrl: S.optional(S.string(2048, 1, /^wss?:\/\/[^\s]+$/)),
    }),
  ),
  /** Registry ids of wallets to show first. */
  featuredWalletIds: S.optional(S.array(walletId, 64)),
  /** Wallets never to show, by registry id, rdns or name: on the page, in the registry and among the recent. */
  excludeWalletIds: S.optional(S.array(walletRef, 500)),
  customWallets: S.optional(customWallets),
  /** The project's terms and privacy policy, linked at Connect's foot. */
  termsConditionsUrl: S.optional(url),
  privacyPolicyUrl: S.optional(url),
  /** Sign-in after connecting; `legacy` marks the EVM-only `siweConfig` of the host. */
  siwx: S.optional(
    S.object({
      legacy: S.optional(S.boolean),
      required: S.optional(S.boolean),
      // EIP-4361: one line, no line breaks.
      statement: S.optional(S.string(500, 0, /^[^\n\r]*$/)),
      resources: S.optional(S.array(S.string(2048, 1, /^[a-z][a-z0-9+.-]*:\S+$/i), 32)),
      expiresIn: S.optional(S.number(60, 31_536_000)),
    }),
  ),
})
export type Config = S.Infer<typeof schema>

const known = [
  'networks',
  'rpcUrls',
  'customNetworks',
  'themeMode',
  'locale',
  'themeVariables',
  'features',
  'embedded',
  'preferredAccountTypes',
  'walletConnect',
  'featuredWalletIds',
  'excludeWalletIds',
  'termsConditionsUrl',
  'privacyPolicyUrl',
  'siwx',
  'allowUnsupportedChain',
  'enableNetworkSwitch',
  'telegram',
  'customWallets',
  'restrictedTimeZones',
]

/** What the URL said, or why it could not be used. */
export type Parsed =
  | { ok: true; projectId: string; config: Config }
  | { ok: false; projectId: string; config: Config; message: string }

/** The configuration a modal falls back to when the host's is unusable: nothing configured. */
const empty: Config = { networks: [] }

/**
 * Reads `projectId` and `config` from the modal's query string.
 * @example
 * Config.parse('?projectId=demo&config=' + encodeURIComponent(JSON.stringify({ networks: ['eip155:1'] })))
 */
export function parse(search: string): Parsed {
  const params = new URLSearchParams(search)
  const projectId = params.get('projectId') ?? ''
  const raw = params.get('config')
  const fail = (message: string): Parsed => ({ ok: false, projectId, config: empty, message })
  if (raw === null) return fail('The modal URL has no config parameter.')
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return fail('The config parameter is not valid JSON.')
  }
  const parsed = S.parse(schema, json)
  if (!parsed.ok) return fail(`Invalid config: ${parsed.message}`)
  // A custom wallet pairs through its links over WalletConnect: without it, the entry could never connect.
  if (parsed.value.customWallets?.length && !parsed.value.walletConnect)
    return fail(
      'Invalid config: customWallets: needs walletConnectProjectId, as they pair over WalletConnect',
    )
  // Unknown keys are dropped with a warning, so a newer host SDK does not break an older modal.
  const unknown = Object.keys(json as object)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = Switches.closest(key, known)
      return near ? `${key} (did you mean ${near}?)` : key
    })
  if (unknown.length > 0) console.warn(`[airlock] Unknown config keys are ignored: ${unknown.join(', ')}`)
  // Declaring a network is not listing it (it may only rename a registry network): say when it shows nowhere.
  for (const { id } of parsed.value.customNetworks ?? [])
    if (!parsed.value.networks.includes(id))
      console.warn(`[airlock] Custom network ${id} is not listed in \`networks\`, so it is not shown.`)
  return { ok: true, projectId, config: parsed.value }
}
