/**
 * Test support: the modal's side of the custody, rebuilt in the formats of `modal-app/src/connectors/embedded`
 * (the API may not import the modal): wallets with their addresses and fingerprint, shares
 * `version || fingerprint || Shamir share`, and shares sealed as `Sealing.sealShare` seals them, with
 * WebCrypto. The Shamir part is random bytes of a share's size: the API never combines shares.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils'
import { base58 } from '@scure/base'
import { privateKeyToAddress } from 'viem/accounts'
import type * as Contract from '../../contract/index.ts'

export type Kind = 'auth' | 'recovery' | 'device'

/** The modal's additional data: `version || JSON ["airlock/share", kind, userId]`. */
function additionalData(userId: string, kind: Kind): Uint8Array<ArrayBuffer> {
  const context = new TextEncoder().encode(JSON.stringify(['airlock/share', kind, userId]))
  const data = new Uint8Array(1 + context.length)
  data[0] = 1
  data.set(context, 1)
  return data
}

/** Seals `share` as the modal does: `01 || IV || ciphertext and tag`. */
export async function seal(
  share: Uint8Array,
  key: CryptoKey,
  userId: string,
  kind: Kind,
): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const additional = additionalData(userId, kind)
  const body = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: additional },
    key,
    new Uint8Array(share),
  )
  return new Uint8Array([1, ...iv, ...new Uint8Array(body)])
}

/** Opens what {@link seal} (or the API) sealed, as the modal does; throws on any other key, user or kind. */
export async function open(
  sealed: Uint8Array,
  key: CryptoKey,
  userId: string,
  kind: Kind,
): Promise<Uint8Array> {
  const additional = additionalData(userId, kind)
  const iv = sealed.slice(1, 13)
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: additional }, key, sealed.slice(13)),
  )
}

/** An AES-256-GCM key, as the recovery password gives the modal (or the API's `wallet.key`, from its hex). */
export function aesKey(raw: Uint8Array = crypto.getRandomValues(new Uint8Array(32))): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new Uint8Array(raw), 'AES-GCM', false, ['encrypt', 'decrypt'])
}

/** A wallet as the modal posts it, with its shares in clear and the key that sealed its recovery share. */
export type Made = {
  body: Contract.WalletBody
  authShare: Uint8Array
  recoveryShare: Uint8Array
  /** What the modal derives from the visitor's recovery password (`Sealing.passwordKey`). */
  recoveryKey: CryptoKey
}

/** A new wallet of `userId`: random keys, real addresses, a 32-byte secret's shares. */
export async function makeWallet(userId: string): Promise<Made> {
  const eip155 = privateKeyToAddress(`0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`)
  const solana = base58.encode(ed25519.getPublicKey(crypto.getRandomValues(new Uint8Array(32))))
  const tag = sha256(hexToBytes(eip155.slice(2))).slice(0, 8)
  const share = (x: number) => new Uint8Array([1, ...tag, ...crypto.getRandomValues(new Uint8Array(32)), x])
  const authShare = share(2)
  const recoveryShare = share(3)
  const recoveryKey = await aesKey()
  const body = {
    fingerprint: bytesToHex(tag),
    addresses: { eip155, solana },
    authShare: base64(authShare),
    recovery: {
      method: 'password' as const,
      sealed: base64(await seal(recoveryShare, recoveryKey, userId, 'recovery')),
    },
  }
  return { body, authShare, recoveryShare, recoveryKey }
}

/** Standard padded base64, as the modal's `btoa` writes it. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64')
}
