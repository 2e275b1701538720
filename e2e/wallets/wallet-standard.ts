/**
 * The Wallet Standard pieces both non-EVM wallets share: the types (kept local instead of depending on
 * @wallet-standard/base, since only their shape matters), registration, accounts and the connect session.
 */
import { isRecord, unauthorized } from './errors.ts'
import type { SvgDataUri } from './icons.ts'
import {
  confirmWithUser,
  Emitter,
  recordCall,
  sitePermission,
  type WalletKind,
  type WalletRuntime,
} from './runtime.ts'

export type IdentifierString = `${string}:${string}`

export interface WalletAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly IdentifierString[]
  readonly features: readonly IdentifierString[]
  readonly label?: string
  readonly icon?: SvgDataUri
}

export interface StandardWallet {
  readonly version: '1.0.0'
  readonly name: string
  readonly icon: SvgDataUri
  readonly chains: readonly IdentifierString[]
  readonly features: Readonly<Record<IdentifierString, unknown>>
  readonly accounts: readonly WalletAccount[]
}

interface StandardChangeEvent {
  accounts?: readonly WalletAccount[]
}

type RegisterCallback = (api: { register(...wallets: StandardWallet[]): unknown }) => unknown

/** Same contract as @wallet-standard/wallet's event: a non-bubbling Event whose `detail` is the callback. */
class RegisterWalletEvent extends Event {
  readonly #detail: RegisterCallback

  get detail(): RegisterCallback {
    return this.#detail
  }

  constructor(callback: RegisterCallback) {
    super('wallet-standard:register-wallet', { bubbles: false, cancelable: false, composed: false })
    this.#detail = callback
  }
}

/**
 * Covers both orders: apps already listening get `wallet-standard:register-wallet`; apps that load
 * later dispatch `wallet-standard:app-ready` with `detail.register`.
 */
export function registerWallet(wallet: StandardWallet): void {
  const callback: RegisterCallback = ({ register }) => register(wallet)
  window.dispatchEvent(new RegisterWalletEvent(callback))
  window.addEventListener('wallet-standard:app-ready', (event) => {
    const api = 'detail' in event ? event.detail : undefined
    // Called as a method of detail, exactly like `detail.register(wallet)` in the reference implementation.
    if (isRecord(api) && typeof api.register === 'function') Reflect.apply(api.register, api, [wallet])
  })
}

/** Frozen account object; the public key is copied on read because a typed array cannot be frozen. */
export class TestWalletAccount implements WalletAccount {
  readonly #publicKey: Uint8Array
  readonly address: string
  readonly chains: readonly IdentifierString[]
  readonly features: readonly IdentifierString[]
  readonly label: string

  constructor(fields: Omit<WalletAccount, 'label' | 'icon'> & { label: string }) {
    this.#publicKey = fields.publicKey.slice()
    this.address = fields.address
    this.chains = Object.freeze([...fields.chains])
    this.features = Object.freeze([...fields.features])
    this.label = fields.label
    Object.freeze(this)
  }

  get publicKey(): Uint8Array {
    return this.#publicKey.slice()
  }
}

export type StandardConnectFeature = {
  readonly version: '1.0.0'
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>
}

export type StandardDisconnectFeature = {
  readonly version: '1.0.0'
  disconnect(): Promise<void>
}

export type StandardEventsFeature = {
  readonly version: '1.0.0'
  on(event: 'change', listener: (change: StandardChangeEvent) => void): () => void
}

/** Input of both `solana:signMessage` and `bitcoin:signMessage`. */
export interface SignMessageInput {
  readonly account: WalletAccount
  readonly message: Uint8Array
}

export interface SignMessageOutput {
  readonly signedMessage: Uint8Array
  readonly signature: Uint8Array
}

/** Authorisation state of one single-account wallet, plus its `standard:events` feature. */
export interface AccountSession {
  readonly account: WalletAccount
  accounts(): readonly WalletAccount[]
  connect(silent: boolean): { accounts: readonly WalletAccount[] }
  disconnect(): void
  /** Throws 4100 unless connected and `claimed` is this wallet's account. */
  requireAccount(claimed: unknown): void
  readonly eventsFeature: StandardEventsFeature
}

export function createAccountSession(
  account: WalletAccount,
  runtime: WalletRuntime,
  kind: WalletKind,
): AccountSession {
  const events = new Emitter<{ change: StandardChangeEvent }>()
  let authorised = sitePermission.get(kind)
  const accounts = (): readonly WalletAccount[] => (authorised ? [account] : [])
  const setAuthorised = (value: boolean): void => {
    if (authorised === value) return
    authorised = value
    sitePermission.set(kind, value)
    events.emit('change', { accounts: accounts() })
  }
  return {
    account,
    accounts,
    connect(silent) {
      // A silent connect never prompts: it only reports an existing authorisation.
      if (!authorised && !silent) {
        confirmWithUser(runtime)
        setAuthorised(true)
      }
      return { accounts: accounts() }
    },
    disconnect: () => setAuthorised(false),
    requireAccount(claimed) {
      if (!authorised) throw unauthorized('connect first')
      if (!isRecord(claimed) || claimed.address !== account.address) throw unauthorized('unknown account')
    },
    eventsFeature: Object.freeze({
      version: '1.0.0' as const,
      on(event: 'change', listener: (change: StandardChangeEvent) => void) {
        recordCall(runtime, kind, 'standard:events')
        events.on(event, listener)
        return () => events.off(event, listener)
      },
    }),
  }
}

export function requireBytes(value: unknown, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`)
  return value
}
