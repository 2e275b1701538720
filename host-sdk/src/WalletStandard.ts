/**
 * The Wallet Standard's `Wallet` as `providers.solana` and `providers.bip122` are typed, restated from
 * `@wallet-standard/base` 1.1 (https://github.com/wallet-standard/wallet-standard, Apache-2.0) so the published
 * declarations need nothing installed: that package's declarations are ESM-only, which a CommonJS project
 * under node16 resolution cannot import. Structurally the same types (WalletStandard.test.ts holds them to it),
 * so Wallet Standard apps take these wallets unchanged.
 */

/** A CAIP-2-like `namespace:reference` naming a chain or a feature. */
type IdentifierString = `${string}:${string}`

/** A Wallet Standard wallet. */
export interface Wallet {
  readonly version: '1.0.0'
  readonly name: string
  readonly icon: WalletIcon
  readonly chains: readonly IdentifierString[]
  readonly features: Readonly<Record<IdentifierString, unknown>>
  readonly accounts: readonly WalletAccount[]
}

/** An account a wallet has authorised. */
export interface WalletAccount {
  readonly address: string
  readonly publicKey: Omit<Uint8Array, 'copyWithin' | 'fill' | 'reverse' | 'set' | 'sort'> & {
    readonly [n: number]: number
  }
  readonly chains: readonly IdentifierString[]
  readonly features: readonly IdentifierString[]
  readonly label?: string
  readonly icon?: WalletIcon
}

type WalletIcon = `data:image/${'svg+xml' | 'webp' | 'png' | 'gif'};base64,${string}`
