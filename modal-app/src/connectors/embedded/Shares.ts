/**
 * The secret split two of three (Shamir over GF(256), Privy's audited `shamir-secret-sharing`): the device
 * share, the auth share the API keeps, and the recovery share the recovery password seals. Any two give the secret
 * back; one alone is uniformly random and says nothing about it.
 *
 * A share is `version (1) || fingerprint (8) || Shamir share`. The fingerprint (Keys.fingerprintOf the EVM
 * address, public anyway) lets {@link combine} refuse shares of two wallets, and check what it rebuilt: the
 * library interpolates whatever it is given, so a tampered or mismatched share would otherwise yield a
 * different, valid-looking wallet.
 */
import * as Shamir from 'shamir-secret-sharing'
import * as Keys from './Keys.ts'

const version = 1
const header = 1 + 8

/** The three shares of one secret, named for where each is kept. */
export type Shares = { device: Uint8Array; auth: Uint8Array; recovery: Uint8Array }

/** Two shares that do not give back the wallet they claim, or bytes that are not a share. */
export class ShareMismatchError extends Error {
  override name = 'ShareMismatchError'
}

/**
 * Splits `secret` into three shares, any two of which rebuild it.
 * @example const { device, auth, recovery } = await Shares.split(secret)
 */
export async function split(secret: Keys.Secret): Promise<Shares> {
  Keys.assertSecret(secret)
  const tag = await Keys.fingerprint(secret)
  const parts = await Shamir.split(secret, 3, 2)
  const [device, auth, recovery] = parts.map((part) => {
    const share = new Uint8Array(header + part.length)
    share[0] = version
    share.set(tag, 1)
    share.set(part, header)
    part.fill(0)
    return share
  })
  if (!device || !auth || !recovery) throw new Error('Shamir split gave fewer than three shares.')
  return { device, auth, recovery }
}

/**
 * The secret two shares give back, checked against the fingerprint they carry: a share given twice, shares
 * of two wallets, or an altered share throw {@link ShareMismatchError} instead of yielding a wrong wallet.
 * @example const secret = await Shares.combine(device, auth)
 */
export async function combine(a: Uint8Array, b: Uint8Array): Promise<Keys.Secret> {
  const tag = fingerprintOf(a)
  if (!equal(tag, fingerprintOf(b)) || a.length !== b.length)
    throw new ShareMismatchError('These shares belong to different wallets.')
  let secret: Uint8Array
  try {
    secret = await Shamir.combine([a.subarray(header), b.subarray(header)])
  } catch (cause) {
    // The library refuses two shares with the same x coordinate: the same share twice.
    throw new ShareMismatchError('These are not two different shares of one wallet.', { cause })
  }
  const rebuilt = await Keys.fingerprint(secret)
  if (equal(rebuilt, tag)) return secret
  secret.fill(0)
  throw new ShareMismatchError('These shares do not rebuild their wallet: one is altered or mismatched.')
}

/**
 * The fingerprint a share carries, to compare with `Keys.fingerprintOf(address)` of the wallet the visitor
 * expects before combining. Throws {@link ShareMismatchError} on bytes that are not a share.
 */
export function fingerprintOf(share: Uint8Array): Uint8Array {
  // version, fingerprint, then the Shamir share: the secret's length (16 to 32 bytes) and its x coordinate.
  const secretLength = share.length - header - 1
  if (share[0] !== version || secretLength < 16 || secretLength > 32 || secretLength % 4 !== 0)
    throw new ShareMismatchError('Not a share of this version.')
  return share.slice(1, header)
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
