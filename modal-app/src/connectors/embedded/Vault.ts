/**
 * The embedded wallet's custody in the modal origin (SECURITY.md): on the first login a secret is drawn and
 * split two of three; this browser keeps one share, the API the auth share, and the recovery share goes to
 * the API sealed under the visitor's passkey (its PRF output), or, where no passkey gives one, under a
 * recovery password. Later logins on this browser combine its share with the auth share; on another browser
 * the passkey (or password) opens the recovery share, which that browser then keeps. The secret exists only
 * inside {@link Wallet.withSecret}, and is zeroed after.
 */
import * as Contract from '@airlock/api/contract'
import { sha256 } from '@noble/hashes/sha2'
import { privateKeyToAccount } from 'viem/accounts'
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
  /** No wallet yet: a passkey (or a recovery password) protects it, then it is created. */
  | { kind: 'create' }
  /** A wallet this browser holds no share of: its passkey (or recovery password) opens it. */
  | { kind: 'recover'; stored: Contract.StoredWallet }

/** What opens (or seals) the recovery share: a passkey's PRF output, or the recovery password. */
export type Unlock =
  | { method: 'passkey'; credentialId: string; prf: Uint8Array }
  | { method: 'password'; password: string }

/** The passkey that answered seals no copy of this wallet's recovery share, or its PRF output does not open it. */
export class WrongPasskeyError extends Error {
  override name = 'WrongPasskeyError'
}

export type VaultOptions = { account: Account; store: ShareStore }

/**
 * @example
 * const found = await Vault.find({ account, store }, session)
 * const wallet = found.kind === 'open' ? found.wallet : await Vault.create({ account, store }, session, unlock)
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

/** Creates the visitor's wallet, its recovery share sealed under what `unlock` gives. */
export async function create({ account, store }: VaultOptions, session: Session, unlock: Unlock) {
  const secret = Keys.createSecret()
  try {
    const { device, auth, recovery } = await Shares.split(secret)
    const { eip155, solana } = await Keys.accountsOf(secret)
    solana.secretKey.fill(0)
    const sealed = await Sealing.sealShare(recovery, await keyOf(unlock, session.user.id), context(session))
    recovery.fill(0)
    const body: Contract.WalletBody = {
      fingerprint: hex(Keys.fingerprintOf(eip155.address)),
      addresses: { eip155: eip155.address, solana: solana.address },
      authShare: base64.encode(auth),
      recovery: copyOf(unlock, sealed),
    }
    await account.storeWallet(session.token, body)
    // Kept only once the API holds the rest: a share of a wallet that was never stored would only mislead.
    store.keep(session.user.id, device)
    return await opened(body, device, auth)
  } finally {
    secret.fill(0)
  }
}

/** Opens the stored wallet on this browser with its passkey or password; this browser keeps that share. */
export async function recover(
  { store }: Pick<VaultOptions, 'store'>,
  session: Session,
  stored: Contract.StoredWallet,
  unlock: Unlock,
): Promise<Wallet> {
  const share = await recoveryShare(session, stored, unlock)
  const wallet = await opened(stored, share, base64.decode(stored.authShare))
  // The recovery share stands in for the device share here: with the auth share it signs, as that would.
  store.keep(session.user.id, share)
  return wallet
}

/**
 * The recovery share `unlock` opens; throws {@link Sealing.WrongPasswordError} or {@link WrongPasskeyError}
 * otherwise. Also how the visitor proves, before the recovery phrase is shown, that they hold the passkey or
 * chose the password.
 */
export async function recoveryShare(
  session: Session,
  stored: Pick<Contract.StoredWallet, 'recoveries'>,
  unlock: Unlock,
): Promise<Uint8Array> {
  const copy = stored.recoveries.find((recovery) =>
    unlock.method === 'passkey'
      ? recovery.method === 'passkey' && recovery.credentialId === unlock.credentialId
      : recovery.method === 'password',
  )
  try {
    if (!copy) throw new Sealing.SealedShareError('No copy is sealed this way.')
    return await Sealing.openShare(
      base64.decode(copy.sealed),
      await keyOf(unlock, session.user.id),
      context(session),
    )
  } catch (cause) {
    if (!(cause instanceof Sealing.SealedShareError)) throw cause
    if (unlock.method === 'passkey')
      throw new WrongPasskeyError('This passkey does not unlock the wallet.', { cause })
    throw new Sealing.WrongPasswordError('This recovery password does not open the wallet.', { cause })
  }
}

/**
 * Moves a wallet from its password to a passkey: the recovery share the password opens is sealed under the
 * passkey too, and the API takes that copy on a signature of the wallet's key (a session alone may not).
 */
export async function addPasskey(
  { account }: Pick<VaultOptions, 'account'>,
  session: Session,
  wallet: Wallet,
  stored: Contract.StoredWallet,
  password: string,
  passkey: Extract<Unlock, { method: 'passkey' }>,
): Promise<Contract.WalletRecoveriesAnswer> {
  const share = await recoveryShare(session, stored, { method: 'password', password })
  let sealed: Uint8Array
  try {
    sealed = await Sealing.sealShare(share, await keyOf(passkey, session.user.id), context(session))
  } finally {
    share.fill(0)
  }
  const issuedAt = Date.now()
  const change = {
    method: 'passkey',
    credentialId: passkey.credentialId,
    sealedSha256: hex(sha256(sealed)),
  } as const
  const signature = await prove(wallet, Contract.recoveryProof({ userId: session.user.id, issuedAt, change }))
  return account.recovery.add(session.token, { recovery: copyOf(passkey, sealed), issuedAt, signature })
}

/** Drops the copy the recovery password seals, once a passkey's is kept; signed by the wallet's key. */
export async function dropPassword(
  { account }: Pick<VaultOptions, 'account'>,
  session: Session,
  wallet: Wallet,
): Promise<Contract.WalletRecoveriesAnswer> {
  const issuedAt = Date.now()
  const message = Contract.recoveryProof({
    userId: session.user.id,
    issuedAt,
    change: { method: 'password' },
  })
  return account.recovery.dropPassword(session.token, {
    method: 'password',
    issuedAt,
    signature: await prove(wallet, message),
  })
}

/** The wallet's EVM key (`m/44'/60'/0'/0/0`) signs `message` (EIP-191): proof that the key is rebuilt here. */
async function prove(wallet: Wallet, message: string): Promise<`0x${string}`> {
  return wallet.withSecret(async (secret) => {
    const { eip155, solana } = await Keys.accountsOf(secret)
    solana.secretKey.fill(0)
    return privateKeyToAccount(eip155.privateKey).signMessage({ message })
  })
}

/** The AES-256-GCM key `unlock` gives for this visitor (`Sealing.recoveryKey` or `Sealing.passwordKey`). */
function keyOf(unlock: Unlock, userId: string): Promise<CryptoKey> {
  return unlock.method === 'passkey'
    ? Sealing.recoveryKey(unlock.prf, userId)
    : Sealing.passwordKey(unlock.password, userId)
}

function copyOf(unlock: Unlock, sealed: Uint8Array): Contract.WalletRecovery {
  const text = base64.encode(sealed)
  return unlock.method === 'passkey'
    ? { method: 'passkey', credentialId: unlock.credentialId, sealed: text }
    : { method: 'password', sealed: text }
}

const context = (session: Session) => ({ userId: session.user.id, kind: 'recovery' }) as const

/** The wallet the two shares rebuild, checked once against the addresses the API holds for it. */
async function opened(
  stored: Pick<Contract.WalletBody, 'fingerprint' | 'addresses'>,
  mine: Uint8Array,
  auth: Uint8Array,
): Promise<Wallet> {
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
