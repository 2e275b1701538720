/**
 * The embedded wallet's custody in the modal origin (SECURITY.md): on the first login a secret is drawn and
 * split two of three; this browser keeps one share, the API the auth share, and the recovery share goes to
 * the API sealed under the visitor's recovery password. Later logins on this browser combine its share with
 * the auth share; on another browser the password opens the recovery share, which that browser then keeps.
 * The secret exists only inside {@link Wallet.withSecret}, and is zeroed after.
 */
import type * as Contract from '@airlock/api/contract'
import * as base58 from '../../shared/encoding/base58.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import type { Account, Session } from './Account.ts'
import * as Keys from './Keys.ts'
import * as Sealing from './Sealing.ts'
import * as Shares from './Shares.ts'

/** Where this browser keeps its share, per visitor (see `Secrets.ts`). */
export type ShareStore = {
  share(userId: string): Uint8Array | undefined
  keep(userId: string, share: Uint8Array): void
}

/**
 * The wallet's recovery phrase (BIP-39, 24 words), for the visitor to write down: with it any wallet rebuilds
 * these accounts, with no Airlock involved.
 */
export function phraseOf(wallet: Wallet): Promise<string> {
  return wallet.withSecret(async (secret) => Keys.mnemonicOf(secret))
}

/** An opened wallet: its public side, and the two shares that sign, held for the session. */
export type Wallet = {
  fingerprint: string
  addresses: Contract.WalletAddresses
  /** The Solana account's 32-byte public key. */
  solanaKey: Uint8Array
  /** Runs `use` with the secret, zeroed when it settles. */
  withSecret<T>(use: (secret: Keys.Secret) => Promise<T>): Promise<T>
}

/** What a login finds: the wallet open, or what the visitor must do first. */
export type Found =
  | { kind: 'open'; wallet: Wallet }
  /** No wallet yet: a recovery password is chosen, then it is created. */
  | { kind: 'create' }
  /** A wallet this browser holds no share of: its recovery password opens it. */
  | { kind: 'recover'; stored: Contract.WalletBody }

export type VaultOptions = { account: Account; store: ShareStore }

/**
 * @example
 * const found = await Vault.find({ account, store }, session)
 * const wallet = found.kind === 'open' ? found.wallet : await Vault.create({ account, store }, session, password)
 */
export async function find({ account, store }: VaultOptions, session: Session): Promise<Found> {
  const stored = await account.wallet(session.token)
  if (!stored) return { kind: 'create' }
  const auth = base64.decode(stored.authShare)
  const kept = store.share(session.user.id)
  // A share kept for an earlier wallet of this id, or altered, is not used: the password recovers.
  if (!kept || !sameTag(kept, auth)) return { kind: 'recover', stored }
  try {
    return { kind: 'open', wallet: await opened(stored, kept, auth) }
  } catch (error) {
    // The wallet's tag on bytes that do not rebuild it (altered, or the auth share itself): the password recovers.
    if (error instanceof Shares.ShareMismatchError) return { kind: 'recover', stored }
    throw error
  }
}

/** Creates the visitor's wallet, its recovery share sealed under `password`. */
export async function create({ account, store }: VaultOptions, session: Session, password: string) {
  const secret = Keys.createSecret()
  try {
    const { device, auth, recovery } = await Shares.split(secret)
    const { eip155, solana } = await Keys.accountsOf(secret)
    solana.secretKey.fill(0)
    const context = { userId: session.user.id, kind: 'recovery' } as const
    const sealed = await Sealing.sealShare(
      recovery,
      await Sealing.passwordKey(password, session.user.id),
      context,
    )
    recovery.fill(0)
    const body: Contract.WalletBody = {
      fingerprint: hex(Keys.fingerprintOf(eip155.address)),
      addresses: { eip155: eip155.address, solana: solana.address },
      authShare: base64.encode(auth),
      recoveryShare: base64.encode(sealed),
    }
    await account.storeWallet(session.token, body)
    // Kept only once the API holds the rest: a share of a wallet that was never stored would only mislead.
    store.keep(session.user.id, device)
    return await opened(body, device, auth)
  } finally {
    secret.fill(0)
  }
}

/** Opens the stored wallet on this browser with the recovery password; this browser keeps that share. */
export async function recover(
  { store }: Pick<VaultOptions, 'store'>,
  session: Session,
  stored: Contract.WalletBody,
  password: string,
): Promise<Wallet> {
  const share = await recoveryShare(session, stored, password)
  const wallet = await opened(stored, share, base64.decode(stored.authShare))
  // The recovery share stands in for the device share here: with the auth share it signs, as that would.
  store.keep(session.user.id, share)
  return wallet
}

/**
 * The recovery share the password opens; throws {@link Sealing.WrongPasswordError} otherwise. Also how the visitor
 * proves, before the recovery phrase is shown, that they are the one who chose the password.
 */
export async function recoveryShare(
  session: Session,
  stored: Contract.WalletBody,
  password: string,
): Promise<Uint8Array> {
  try {
    return await Sealing.openShare(
      base64.decode(stored.recoveryShare),
      await Sealing.passwordKey(password, session.user.id),
      { userId: session.user.id, kind: 'recovery' },
    )
  } catch (cause) {
    if (cause instanceof Sealing.SealedShareError)
      throw new Sealing.WrongPasswordError('This recovery password does not open the wallet.', { cause })
    throw cause
  }
}

/** The wallet the two shares rebuild, checked once against the addresses the API holds for it. */
async function opened(stored: Contract.WalletBody, mine: Uint8Array, auth: Uint8Array): Promise<Wallet> {
  const withSecret = async <T>(use: (secret: Keys.Secret) => Promise<T>): Promise<T> => {
    const secret = await Shares.combine(mine, auth)
    try {
      return await use(secret)
    } finally {
      secret.fill(0)
    }
  }
  const accounts = await withSecret(async (secret) => {
    const { eip155, solana } = await Keys.accountsOf(secret)
    solana.secretKey.fill(0)
    return { eip155: eip155.address, solana: solana.address }
  })
  if (
    accounts.eip155.toLowerCase() !== stored.addresses.eip155.toLowerCase() ||
    accounts.solana !== stored.addresses.solana
  )
    throw new Shares.ShareMismatchError('The shares rebuild a wallet other than the one stored.')
  return {
    fingerprint: stored.fingerprint,
    addresses: { eip155: accounts.eip155, solana: accounts.solana },
    solanaKey: base58.decode(accounts.solana),
    withSecret,
  }
}

function sameTag(a: Uint8Array, b: Uint8Array): boolean {
  try {
    const [x, y] = [Shares.fingerprintOf(a), Shares.fingerprintOf(b)]
    return x.every((byte, i) => byte === y[i])
  } catch {
    return false
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
