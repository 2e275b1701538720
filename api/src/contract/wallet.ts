/**
 * The embedded wallet's custody (SECURITY.md): `POST /v1/wallet` stores a new wallet's auth share and its
 * sealed recovery share, `GET /v1/wallet` hands them back to a session of the same user, and
 * `POST /v1/wallet/recovery` and `…/recovery/drop` add a passkey's sealed copy of the recovery share or drop
 * the password's, each proven by a signature of the wallet's own key. Shares travel as standard base64
 * (padded, as `btoa` writes it): a share is `version (1) || fingerprint (8) || Shamir share`, a sealed share
 * `version (1) || IV (12) || ciphertext and 16-byte tag`.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { credentialId } from './passkey.ts'

/** The text of `GET /v1/wallet` for a user who has stored none: the modal then creates one. */
export const noWallet = 'No wallet yet'

/** The largest auth share the API takes, and the largest sealed recovery share (bytes). */
export const authShareMax = 256
export const recoveryShareMax = 512

// Padded base64 of whole bytes; a canonical encoding (zero padding bits) is checked where the bytes are read.
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

const fail = (path: string | undefined, expected: string): never => {
  throw new S.ShapeError(`${path ? `${path}: ` : ''}expected ${expected}`)
}

/** A string matching `pattern`; the error says `expected <what>`, not the pattern. */
const matching =
  /* @__NO_SIDE_EFFECTS__ */
    (pattern: RegExp, what: string): S.Shape<string> =>
    (value, path) =>
      typeof value === 'string' && value.length <= 100 && pattern.test(value) ? value : fail(path, what)

/** Standard, padded base64 of 1 to `max` bytes. */
const base64 =
  /* @__NO_SIDE_EFFECTS__ */
    (max: number): S.Shape<string> =>
    (value, path) => {
      const text = typeof value === 'string' && value.length <= 4 * Math.ceil(max / 3) ? value : ''
      const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
      const bytes = base64Pattern.test(text) ? (text.length / 4) * 3 - padding : 0
      return bytes >= 1 && bytes <= max ? text : fail(path, `base64 of 1 to ${max} bytes`)
    }

/**
 * The wallet's public tag, as its shares carry it: the first 8 bytes of SHA-256 over its EVM address's 20
 * bytes, in lower-case hex.
 */
export const walletFingerprint = matching(/^[0-9a-f]{16}$/, '16 lower-case hex digits')

/**
 * The wallet's accounts: its EVM address (EIP-55, `m/44'/60'/0'/0/0`) and its Solana public key (base58,
 * `m/44'/501'/0'/0'`). The API checks more than these patterns where it stores them.
 */
export const walletAddresses = S.object({
  eip155: matching(/^0x[0-9a-fA-F]{40}$/, 'an EVM address'),
  solana: matching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'a base58 Solana address'),
})
export type WalletAddresses = S.Infer<typeof walletAddresses>

/**
 * The recovery share, sealed by the modal under a key the API does not hold: a passkey's WebAuthn PRF output
 * (`credentialId` names the passkey), or, where no passkey gives one, the visitor's recovery password.
 */
export const walletRecovery = S.variant('method', {
  passkey: S.object({ method: S.literal('passkey'), credentialId, sealed: base64(recoveryShareMax) }),
  password: S.object({ method: S.literal('password'), sealed: base64(recoveryShareMax) }),
})
export type WalletRecovery = S.Infer<typeof walletRecovery>

/** The most sealed copies of one wallet's recovery share: a password's and a passkey's each. */
export const recoveriesMax = 8

/**
 * `POST /v1/wallet`: a new wallet's public side, the auth share (which the API encrypts under a key of its
 * configuration), and the recovery share as the modal sealed it.
 */
export const walletBody = S.object({
  fingerprint: walletFingerprint,
  addresses: walletAddresses,
  authShare: base64(authShareMax),
  recovery: walletRecovery,
})
export type WalletBody = S.Infer<typeof walletBody>

/** `GET /v1/wallet`: the auth share in clear again, every sealed copy of the recovery share still sealed. */
export const storedWallet = S.object({
  fingerprint: walletFingerprint,
  addresses: walletAddresses,
  authShare: base64(authShareMax),
  recoveries: S.array(walletRecovery, recoveriesMax),
})
export type StoredWallet = S.Infer<typeof storedWallet>

/** A signature of the wallet's EVM key (EIP-191), 65 bytes as 0x-hex. */
const signature: S.Shape<string> = (value, path) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{130}$/.test(value)
    ? value
    : fail(path, 'a 65-byte signature as 0x-hex')
/** When the modal signed, epoch milliseconds: the API takes a proof for 5 minutes. */
const issuedAt = S.number(0, 1e14)

/** `POST /v1/wallet/recovery`: another sealed copy of the recovery share, proven by the wallet's key. */
export const walletRecoveryBody = S.object({ recovery: walletRecovery, issuedAt, signature })
export type WalletRecoveryBody = S.Infer<typeof walletRecoveryBody>

/** `POST /v1/wallet/recovery/drop`: the password's copy goes, proven by the wallet's key. */
export const walletDropBody = S.object({ method: S.literal('password'), issuedAt, signature })
export type WalletDropBody = S.Infer<typeof walletDropBody>

/** What seals the wallet's recovery share now. */
export const walletRecoveriesAnswer = S.object({
  recoveries: S.array(
    S.object({ method: S.picklist(['passkey', 'password']), credentialId: S.optional(credentialId) }),
    recoveriesMax,
  ),
})
export type WalletRecoveriesAnswer = S.Infer<typeof walletRecoveriesAnswer>

/** How long a signed change of the recovery stays good: the API refuses it older (or further ahead). */
export const recoveryProofTtlMs = 5 * 60_000

/**
 * The text the wallet's EVM key signs (EIP-191) to change how its recovery share is sealed: only someone
 * who can rebuild the key (this browser's share and the auth share, or the recovery share) can, not a mere
 * session of the visitor. A passkey's copy is named by its credential and the SHA-256 of its sealed bytes
 * (hex; each side hashes with what it has, so this contract stays free of hashing code).
 * @example recoveryProof({ userId, issuedAt, change: { method: 'password' } })
 */
export function recoveryProof(proof: {
  userId: string
  issuedAt: number
  change: { method: 'password' } | { method: 'passkey'; credentialId: string; sealedSha256: string }
}): string {
  const { change } = proof
  const action =
    change.method === 'password'
      ? 'drop the recovery password'
      : `seal the recovery share under passkey ${change.credentialId} (${change.sealedSha256})`
  return `Airlock wallet: ${action}\nUser: ${proof.userId}\nIssued at: ${new Date(proof.issuedAt).toISOString()}`
}

/** `POST /v1/wallet` (201): the wallet stored. */
export const walletAnswer = S.object({ fingerprint: walletFingerprint, addresses: walletAddresses })
export type WalletAnswer = S.Infer<typeof walletAnswer>
