/**
 * The host's `features` option: every switch and order the modal knows, their defaults, and the shape the
 * modal parses it with, which refuses anything else at configuration time, naming the path
 * (`features.histroy: unknown switch; did you mean history?`). A switch the modal accepts is a switch it
 * honours (docs/behaviour.md#switches). The host SDK takes only the types: the modal judges.
 */
import * as S from './Shape.ts'

/** Connect's groups, in the order of the `connectorTypeOrder` the host may give. */
export const connectorTypes = [
  'walletConnect',
  'recent',
  'injected',
  'featured',
  'custom',
  'external',
  'recommended',
] as const
export type ConnectorType = (typeof connectorTypes)[number]

/** Account's actions, in their default order. */
export const walletFeatures = ['onramp', 'swaps', 'receive', 'send'] as const
export type WalletFeature = (typeof walletFeatures)[number]

/** Connect's sections: an email login, social logins, and the wallets, in their default order. */
export const connectMethods = ['email', 'social', 'wallet'] as const
export type ConnectMethod = (typeof connectMethods)[number]

/** The social logins, in their default order. */
export const socialProviders = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const
export type SocialProvider = (typeof socialProviders)[number]

/**
 * The on/off switches and what each is when the host leaves it out. `analyticsConsent` is the visitor's
 * consent the host's own banner collected (see `Analytics.ts`).
 */
export const switchDefaults = {
  swaps: true,
  onramp: true,
  receive: true,
  send: true,
  email: true,
  emailShowWallets: true,
  history: true,
  analytics: true,
  analyticsConsent: false,
  allWallets: true,
  legalCheckbox: false,
  smartSessions: true,
  collapseWallets: false,
  pay: false,
} as const
export type Switch = keyof typeof switchDefaults

const orders = {
  connectorTypeOrder: connectorTypes,
  walletFeaturesOrder: walletFeatures,
  connectMethodsOrder: connectMethods,
} as const

export type Features = { [K in Switch]?: boolean } & {
  socials?: false | SocialProvider[]
  connectorTypeOrder?: ConnectorType[]
  walletFeaturesOrder?: WalletFeature[]
  connectMethodsOrder?: ConnectMethod[]
}

const names: readonly string[] = [...Object.keys(switchDefaults), 'socials', ...Object.keys(orders)]

/** An order: each name once, every one known. */
const order =
  <T extends string>(known: readonly T[]): S.Shape<T[]> =>
  (value, path = '') => {
    const list = S.array(S.picklist(known), known.length)(value, path)
    const twice = list.find((name, i) => list.indexOf(name) !== i)
    if (twice) throw new S.ShapeError(`${path}: ${twice} is named twice`)
    return list
  }

const socials: S.Shape<false | SocialProvider[]> = (value, path) =>
  value === false ? false : order(socialProviders)(value, path)

/**
 * @example
 * features({ swaps: false }, 'features') // { swaps: false }
 * features({ histroy: false }, 'features') // throws 'features.histroy: unknown switch; did you mean history?'
 */
export const features: S.Shape<Features> = (value, path = 'features') => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new S.ShapeError(`${path}: expected an object`)
  const out: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(value)) {
    const at = `${path}.${key}`
    if (key in orders) out[key] = order(orders[key as keyof typeof orders])(entry, at)
    else if (key === 'socials') out[key] = socials(entry, at)
    else if (Object.hasOwn(switchDefaults, key)) {
      if (typeof entry !== 'boolean') throw new S.ShapeError(`${at}: expected true or false`)
      out[key] = entry
    } else {
      const near = closest(key, names)
      throw new S.ShapeError(`${at}: unknown switch${near ? `; did you mean ${near}?` : ''}`)
    }
  }
  return out as Features
}

/** Whether the switch is on: the host's word, else its default. */
export function isOn(config: { features?: Features | undefined }, name: Switch): boolean {
  return config.features?.[name] ?? switchDefaults[name]
}

/** The known name nearest to a misspelt one: same letters in another case, or at most 2 edits away. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === lower ? 0 : edits(lower, candidate.toLowerCase())
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance }
  }
  return best?.name
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function edits(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    previous = row
  }
  return previous[b.length] as number
}
