/**
 * A new wallet as `POST /v1/wallet` brings it, checked beyond the contract's shape, down to the bytes: what
 * the API can verify of a wallet it never sees whole. The fingerprint must be the EVM address's (SHA-256 of
 * its 20 bytes, first 8), the auth share must be a share of version 1 carrying that fingerprint, and the
 * sealed recovery share must be a share of the same size sealed in version 1's format. The Solana key must be
 * a point of ed25519, as every wallet's key is (program-derived addresses are not). The API cannot tell the
 * Solana key belongs to the same secret: only the modal, which holds it, can.
 */
import { checksumEvmAddress } from '@airlock/bridge-protocol/Address'
import { ed25519 } from '@noble/curves/ed25519'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils'
import { base58 } from '@scure/base'
import type * as Contract from '../../contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import { messages } from './messages.ts'
import * as Sealing from './Sealing.ts'
import type * as Wallets from './Wallets.ts'

const shareVersion = 1
/** A share's version byte and fingerprint, before the Shamir share. */
const shareHeader = 1 + 8

/** A wallet to store: its public side, the auth share in clear, the recovery share as sealed. */
export type Submission = {
  fingerprint: string
  addresses: Contract.WalletAddresses
  authShare: Uint8Array
  recovery: Wallets.Recovery
}

/**
 * The wallet `body` describes, or a 400 that names what does not check out.
 * @example const wallet = Submission.parse(parse(Contract.walletBody, await json(c)))
 */
export function parse(body: Contract.WalletBody): Submission {
  const { fingerprint, addresses } = body
  // Only the checksummed form: one address, one spelling, so the unique column means one wallet.
  if (checksumEvmAddress(addresses.eip155) !== addresses.eip155)
    throw new HttpError(400, messages.invalidEvmAddress)
  if (!isSolanaKey(addresses.solana)) throw new HttpError(400, messages.invalidSolanaAddress)
  if (bytesToHex(sha256(hexToBytes(addresses.eip155.slice(2))).subarray(0, 8)) !== fingerprint)
    throw new HttpError(400, messages.fingerprintMismatch)
  const authShare = bytesOf(body.authShare, 'authShare')
  if (!isShare(authShare)) throw new HttpError(400, messages.notAShare)
  if (bytesToHex(authShare.subarray(1, shareHeader)) !== fingerprint)
    throw new HttpError(400, messages.otherWallet)
  return { fingerprint, addresses, authShare, recovery: recoveryOf(body.recovery, authShare.length) }
}

/**
 * The sealed copy of a recovery share `body` brings, if it has the format and size of a sealed share of
 * `shareLength` bytes; a 400 otherwise.
 */
export function recoveryOf(body: Contract.WalletRecovery, shareLength: number): Wallets.Recovery {
  const sealed = bytesOf(body.sealed, 'recovery.sealed')
  if (sealed[0] !== shareVersion || sealed.length !== Sealing.overhead + shareLength)
    throw new HttpError(400, messages.notASealedShare)
  return body.method === 'passkey'
    ? { method: 'passkey', credentialId: body.credentialId, sealed }
    : { method: 'password', sealed }
}

/** The bytes of padded base64 the contract let through, if it is canonical (its padding bits zero). */
function bytesOf(text: string, field: string): Uint8Array {
  const bytes = Buffer.from(text, 'base64')
  if (bytes.toString('base64') !== text) throw new HttpError(400, messages.notCanonical(field))
  return new Uint8Array(bytes)
}

// As the modal's Shares.fingerprintOf reads one: the secret (BIP-39 entropy, 16 to 32 bytes in steps of
// 4) and the share's x coordinate follow the header.
function isShare(share: Uint8Array): boolean {
  const secretLength = share.length - shareHeader - 1
  return share[0] === shareVersion && secretLength >= 16 && secretLength <= 32 && secretLength % 4 === 0
}

function isSolanaKey(address: string): boolean {
  try {
    const key = base58.decode(address)
    if (key.length !== 32 || base58.encode(key) !== address) return false
    ed25519.ExtendedPoint.fromHex(key)
    return true
  } catch {
    return false
  }
}
