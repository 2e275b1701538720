/**
 * The checks of a Sign In With Farcaster message (FIP-11), once the relay passes one on: it is an EIP-4361
 * message as Farcaster apps write it (statement `Farcaster Auth`, chain 10, resources naming the fid), for
 * our domain and URI, with our nonce, within its times, naming the relay's fid; its signature recovers the
 * address it names; and that address is the fid's custody address on the IdRegistry. Only then is the
 * visitor the fid. Auth addresses (`farcaster://signer/type/authAddress`) are refused: checking one needs
 * the KeyRegistry, and a custody signature is what every Farcaster app can give.
 */
import { type Address, type Hex, verifyMessage } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { IdOf } from './IdRegistry.ts'

/** The statement every Sign In With Farcaster message carries. */
const statement = 'Farcaster Auth'

/** The chain id every Sign In With Farcaster message names (Optimism, the IdRegistry's), whatever the app. */
const chainId = 10

const fidResource = /^farcaster:\/\/fid\/([1-9][0-9]*)\/?$/
const signerResource = /^farcaster:\/\/signer\/type\/([A-Za-z]+)\/?$/

/** Why a message does not sign the visitor in. */
export type Refusal =
  | 'malformed'
  | 'domain'
  | 'uri'
  | 'nonce'
  | 'expired'
  | 'notYetValid'
  | 'fid'
  | 'signer'
  | 'signature'
  | 'owner'

/** The texts of the refusals, answered with 401. */
export const refusals: Record<Refusal, string> = {
  malformed: 'The signed message is not a Sign In With Farcaster message',
  domain: 'The signed message is for another domain',
  uri: 'The signed message is for another URI',
  nonce: 'The signed message is for another sign-in (its nonce)',
  expired: 'The signed message has expired',
  notYetValid: 'The signed message is not valid yet',
  fid: 'The signed message is for another fid',
  signer: 'Only a custody address signature is accepted',
  signature: 'The signature does not match the message',
  owner: 'The signer does not own this fid',
}

/** What the message must say: our sign-in's domain, URI and nonce, the relay's fid, and the time now. */
export type Expected = { domain: string; uri: string; nonce: string; fid: number; now: number }

export type Verdict = { ok: true; fid: number; custody: Address } | { ok: false; reason: Refusal }

/**
 * Checks a signed message under the rules above; `idOf` reads the IdRegistry (its RPC errors go through).
 * @example
 * const verdict = await SignIn.verify({ message, signature }, { domain, uri, nonce, fid, now }, idOf)
 * if (!verdict.ok) throw new HttpError(401, SignIn.refusals[verdict.reason])
 */
export async function verify(
  signed: { message: string; signature: string },
  expected: Expected,
  idOf: IdOf,
): Promise<Verdict> {
  const refused = (reason: Refusal): Verdict => ({ ok: false, reason })
  const message = parseSiweMessage(signed.message)
  const { address, issuedAt, expirationTime, notBefore } = message
  const wellFormed =
    address !== undefined &&
    message.version === '1' &&
    message.statement === statement &&
    message.chainId === chainId &&
    issuedAt !== undefined &&
    [issuedAt, expirationTime, notBefore].every((time) => !time || !Number.isNaN(time.getTime()))
  if (!wellFormed) return refused('malformed')
  // EIP-4361 lets the domain carry its scheme (`https://shop.example wants you…`): ours, if it does.
  const scheme = URL.canParse(expected.uri) ? new URL(expected.uri).protocol.slice(0, -1) : ''
  if (message.domain !== expected.domain || (message.scheme !== undefined && message.scheme !== scheme))
    return refused('domain')
  if (message.uri !== expected.uri) return refused('uri')
  if (message.nonce !== expected.nonce) return refused('nonce')
  if (expirationTime && expected.now >= expirationTime.getTime()) return refused('expired')
  if (notBefore && expected.now < notBefore.getTime()) return refused('notYetValid')
  const resources = resourcesOf(message.resources ?? [])
  if (resources.signer !== 'custody') return refused('signer')
  if (resources.fid !== expected.fid) return refused('fid')
  if (!(await signs(address, signed.message, signed.signature))) return refused('signature')
  if ((await idOf(address)) !== BigInt(expected.fid)) return refused('owner')
  return { ok: true, fid: expected.fid, custody: address }
}

/**
 * The fid and signer type the resources name: exactly one fid, at most one signer type (`custody` when
 * none, as before apps wrote it), nothing else; `undefined` fid for anything other.
 */
function resourcesOf(resources: readonly string[]): { fid: number | undefined; signer: string } {
  const fids = resources.flatMap((resource) => fidResource.exec(resource)?.[1] ?? [])
  const signers = resources.flatMap((resource) => signerResource.exec(resource)?.[1] ?? [])
  const signer = signers.length === 0 ? 'custody' : signers.length === 1 ? (signers[0] ?? '') : ''
  const others = resources.length - fids.length - signers.length
  const fid = fids.length === 1 && others === 0 ? Number(fids[0]) : undefined
  return { fid: fid !== undefined && Number.isSafeInteger(fid) ? fid : undefined, signer }
}

/** Whether the signature is `address`'s over the message (EIP-191; custody addresses are keys). */
async function signs(address: Address, message: string, signature: string): Promise<boolean> {
  try {
    return await verifyMessage({ address, message, signature: signature as Hex })
  } catch {
    // Not a signature at all (wrong length, no curve point): it signs nothing.
    return false
  }
}
