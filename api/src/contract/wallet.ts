/**
 * The embedded wallet's custody (SECURITY.md): `POST /v1/wallet` stores a new wallet's auth share and its
 * sealed recovery share, `GET /v1/wallet` hands both back to a session of the same user. Shares travel as
 * standard base64 (padded, as `btoa` writes it): a share is `version (1) || fingerprint (8) || Shamir share`,
 * a sealed share `version (1) || IV (12) || ciphertext and 16-byte tag`.
 */
import * as S from '@airlock/bridge-protocol/Shape'

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
 * `POST /v1/wallet`: a new wallet's public side, the auth share (which the API encrypts under a key of its
 * configuration), and the recovery share sealed under a key from the visitor's recovery password (which the
 * API does not hold).
 * `GET /v1/wallet` answers the same shape: the auth share in clear again, the recovery share still sealed.
 */
export const walletBody = S.object({
  fingerprint: walletFingerprint,
  addresses: walletAddresses,
  authShare: base64(authShareMax),
  recoveryShare: base64(recoveryShareMax),
})
export type WalletBody = S.Infer<typeof walletBody>

/** `POST /v1/wallet` (201): the wallet stored. */
export const walletAnswer = S.object({ fingerprint: walletFingerprint, addresses: walletAddresses })
export type WalletAnswer = S.Infer<typeof walletAnswer>
