/**
 * Sign-In With X on the service's side (SPEC §4 sign-in flow, §7 sessions): single-use nonces, signature
 * checks per namespace, and the sessions a verified sign-in opens.
 *
 * A session lasts until the message's `Expiration Time`, and never more than {@link maxSessionMs}. Opening
 * one draws a bearer token, handed out once; only its SHA-256 is stored, and a dApp's backend proves a
 * visitor signed in by presenting it ({@link sessionByToken}). The signed message and signature are kept for
 * the record but are not a credential: whoever saw them could replay them.
 *
 * - `eip155`: EIP-191 through viem's `verifyMessage` on the chain's RPC, which also checks EIP-1271
 *   contract accounts and EIP-6492 signatures of accounts not deployed yet.
 * - `solana`: ed25519 over the message's UTF-8 bytes; the address is the base58 public key.
 * - `bip122`: BIP-322 "simple" (P2WPKH, P2SH-P2WPKH, P2TR key path) and the legacy BIP-137 compact
 *   signatures most wallets still produce (P2PKH, P2SH-P2WPKH, P2WPKH).
 */
import { Caip } from '@airlock/bridge-protocol'
import { ed25519 } from '@noble/curves/ed25519'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64, base64urlnopad, hex } from '@scure/base'
import { address as bitcoinAddress, Transaction } from 'bitcoinjs-lib'
import {
  BaseError,
  createPublicClient,
  HttpRequestError,
  http,
  isAddressEqual,
  isAddress as isEvmAddress,
  type PublicClient,
  recoverMessageAddress,
  TimeoutError,
  WebSocketRequestError,
} from 'viem'
import type { Database } from './Database.ts'

/** A nonce is good for 5 minutes after it was issued. */
export const nonceTtlMs = 300_000
/** How far ahead of the service's clock a message's `Issued At` may be: wallet clocks drift. */
export const maxClockSkewMs = 300_000
/** The longest a session lasts (30 days), whatever the message's `Expiration Time` says, or without one. */
export const maxSessionMs = 30 * 86_400_000
/**
 * How long a nonce is kept after it expired (1 hour), so a late replay is told "already used"; issuing a
 * nonce deletes every older one, which bounds the table.
 */
export const nonceRetentionMs = 3_600_000

const nonceAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A random nonce of `length` letters and digits (24 carry 142 bits).
 * @example Siwx.randomNonce() // 'q3ZtK0c…'
 */
export function randomNonce(length = 24): string {
  let nonce = ''
  while (nonce.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      // 248 is the largest multiple of 62 below 256: rejecting the rest keeps every character equally likely.
      if (byte < 248 && nonce.length < length) nonce += nonceAlphabet[byte % nonceAlphabet.length]
    }
  }
  return nonce
}

export type Nonce = { nonce: string; expiresAt: number }

/**
 * Issues a nonce for one sign-in of `projectId`, good for {@link nonceTtlMs}. Deletes the nonces of every
 * project that expired more than {@link nonceRetentionMs} ago.
 * @example
 * const { nonce, expiresAt } = await Siwx.issueNonce(db, 'demo', Date.now())
 */
export async function issueNonce(
  db: Pick<Database, 'query'>,
  projectId: string,
  now: number,
): Promise<Nonce> {
  await db.query('delete from siwx_nonces where expires_at < $1', [now - nonceRetentionMs])
  const nonce = randomNonce()
  const expiresAt = now + nonceTtlMs
  await db.query('insert into siwx_nonces (nonce, project_id, expires_at) values ($1, $2, $3)', [
    nonce,
    projectId,
    expiresAt,
  ])
  return { nonce, expiresAt }
}

/** What {@link consumeNonce} found: only `valid` lets a sign-in go on. */
export type NonceState = 'valid' | 'unknown' | 'used' | 'expired'

/**
 * Uses up a nonce: the first call for an issued, unexpired nonce of the project answers `valid`, every later
 * one `used`. An expired nonce is used up too. Atomic, so two racing sign-ins cannot both win.
 * @example
 * if ((await Siwx.consumeNonce(db, 'demo', message.nonce, Date.now())) !== 'valid') throw …
 */
export async function consumeNonce(
  db: Pick<Database, 'query'>,
  projectId: string,
  nonce: string,
  now: number,
): Promise<NonceState> {
  const [consumed] = await db.query<{ expires_at: string }>(
    `update siwx_nonces set used_at = $3 where nonce = $1 and project_id = $2 and used_at is null
     returning expires_at`,
    [nonce, projectId, now],
  )
  if (consumed) return Number(consumed.expires_at) > now ? 'valid' : 'expired'
  const [used] = await db.query('select 1 from siwx_nonces where nonce = $1 and project_id = $2', [
    nonce,
    projectId,
  ])
  return used ? 'used' : 'unknown'
}

/**
 * A sign-in session. Times are epoch milliseconds; `expiresAt` is the message's `Expiration Time`, capped at
 * {@link maxSessionMs} after the sign-in. Its token is not here: only its hash is stored.
 */
export type Session = {
  id: string
  projectId: string
  /** CAIP-10, in {@link normalizeAccount}'s spelling. */
  address: Caip.AccountId
  chainId: Caip.ChainId
  /** The signed message and its signature, for the record; not a credential. */
  message: string
  signature: string
  issuedAt: number
  expiresAt: number
  revokedAt: number | null
}

type SessionRow = {
  id: string
  project_id: string
  address: string
  chain_id: string
  message: string
  signature: string
  issued_at: string
  expires_at: string
  revoked_at: string | null
}

const sessionColumns =
  'id, project_id, address, chain_id, message, signature, issued_at, expires_at, revoked_at'

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    projectId: row.project_id,
    address: row.address as Caip.AccountId,
    chainId: row.chain_id as Caip.ChainId,
    message: row.message,
    signature: row.signature,
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  }
}

export type CreateSessionParameters = {
  projectId: string
  address: string
  message: string
  signature: string
  issuedAt: number
  /** The message's `Expiration Time`, if it has one; capped at `now + maxSessionMs`. */
  expiresAt?: number | undefined
  now: number
}

/** A session just opened, with its bearer token: 32 random bytes as base64url, never stored nor shown again. */
export type NewSession = { session: Session; token: string }

/**
 * Stores a verified sign-in and draws its token; only the token's SHA-256 is kept.
 * @example
 * const { session, token } = await Siwx.createSession(db, { projectId, address, message, signature, issuedAt, now })
 */
export async function createSession(
  db: Pick<Database, 'query'>,
  parameters: CreateSessionParameters,
): Promise<NewSession> {
  const address = normalizeAccount(parameters.address)
  const { chainId } = Caip.parseAccountId(address)
  const cap = parameters.now + maxSessionMs
  const expiresAt = Math.min(parameters.expiresAt ?? cap, cap)
  const token = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  const [row] = await db.query<SessionRow>(
    `insert into siwx_sessions (id, project_id, address, chain_id, message, signature, token_hash, issued_at,
       expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${sessionColumns}`,
    [
      crypto.randomUUID(),
      parameters.projectId,
      address,
      chainId,
      parameters.message,
      parameters.signature,
      tokenHash(token),
      parameters.issuedAt,
      expiresAt,
      parameters.now,
    ],
  )
  if (!row) throw new Error('siwx_sessions returned no row')
  return { session: toSession(row), token }
}

/**
 * The active session of the project (neither revoked nor expired) whose token this is; `undefined` for any
 * other token. Found by the token's hash, so the token itself is never compared nor stored.
 * @example
 * const session = await Siwx.sessionByToken(db, 'demo', token, Date.now())
 */
export async function sessionByToken(
  db: Pick<Database, 'query'>,
  projectId: string,
  token: string,
  now: number,
): Promise<Session | undefined> {
  const [row] = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions
     where token_hash = $1 and project_id = $2 and revoked_at is null and expires_at > $3`,
    [tokenHash(token), projectId, now],
  )
  return row && toSession(row)
}

/** How a session token is stored: its SHA-256, as hex. */
function tokenHash(token: string): string {
  return hex.encode(sha256(utf8ToBytes(token)))
}

/**
 * The account's active sessions in the project (neither revoked nor expired), newest first.
 * @example
 * await Siwx.activeSessions(db, 'demo', 'eip155:1:0xab…', Date.now())
 */
export async function activeSessions(
  db: Pick<Database, 'query'>,
  projectId: string,
  address: string,
  now: number,
): Promise<Session[]> {
  const rows = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions
     where project_id = $1 and address = $2 and revoked_at is null and expires_at > $3
     order by issued_at desc, id`,
    [projectId, normalizeAccount(address), now],
  )
  return rows.map(toSession)
}

/**
 * A session of the project by id, revoked or not; `undefined` when there is none.
 * @example await Siwx.findSession(db, 'demo', id)
 */
export async function findSession(
  db: Pick<Database, 'query'>,
  projectId: string,
  id: string,
): Promise<Session | undefined> {
  if (!isSessionId(id)) return undefined
  const [row] = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions where id = $1 and project_id = $2`,
    [id, projectId],
  )
  return row && toSession(row)
}

/**
 * Revokes a session of any project: the operator's path, and the API's once the account signed. Revoking
 * twice keeps the first time.
 * @returns whether the session exists
 * @example await Siwx.revoke(db, '0d6a…')
 */
export async function revoke(db: Pick<Database, 'query'>, id: string, now = Date.now()): Promise<boolean> {
  if (!isSessionId(id)) return false
  const rows = await db.query(
    'update siwx_sessions set revoked_at = coalesce(revoked_at, $2) where id = $1 returning id',
    [id, now],
  )
  return rows.length > 0
}

/** A session id: a UUID. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value)
}

/**
 * The spelling sessions are stored under: EVM and bech32 addresses are case-insensitive, so lower case.
 * @example Siwx.normalizeAccount('eip155:1:0xAb…') // 'eip155:1:0xab…'
 */
export function normalizeAccount(account: string): Caip.AccountId {
  const { namespace, chainId, address } = Caip.parseAccountId(account)
  const caseless = namespace === 'eip155' || (namespace === 'bip122' && bech32Prefix.test(address))
  return `${chainId}:${caseless ? address.toLowerCase() : address}`
}

/**
 * Whether the CAIP-10 account's address is one its chain can have: a checksummed (or one-case) EVM
 * address, a 32-byte base58 Solana key, or a Bitcoin address of the chain's network that sign-in can check.
 * @example Siwx.isAddress('bip122:000000000019d6689c085ae165831e93:bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l') // true
 */
export function isAddress(account: string): boolean {
  if (!Caip.isAccountId(account)) return false
  const { namespace, reference, address } = Caip.parseAccountId(account)
  if (namespace === 'eip155') return isEvmAddress(address, { strict: true })
  if (namespace === 'solana') return decodeOr(() => base58.decode(address))?.length === 32
  const network = bitcoinNetworks[reference]
  return network !== undefined && decodeBitcoinAddress(address, network) !== undefined
}

/** The chain's RPC did not answer, so an `eip155` signature could not be checked. */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    readonly chainId: string,
    options?: { cause?: unknown },
  ) {
    super(`The RPC of ${chainId} is unavailable`, options)
  }
}

export type VerifyParameters = {
  /** CAIP-10 id of the signer. */
  account: string
  /** The exact text that was signed. */
  message: string
  /**
   * `eip155`: 0x-hex. `solana`: 64 bytes as base58, hex (0x optional) or base64. `bip122`: base64 (the
   * BIP-137 and BIP-322 encoding) or hex.
   */
  signature: string
  /** The chain's RPC URL; `eip155` needs it to check contract accounts. */
  rpcUrl?: string | undefined
}

/**
 * Checks `signature` over `message` by the account's namespace.
 * @throws {RpcError} when an `eip155` chain's RPC cannot be reached
 * @example
 * await Siwx.verify({ account: 'eip155:1:0xab…', message, signature, rpcUrl: 'https://rpc.example' })
 */
export async function verify(parameters: VerifyParameters): Promise<boolean> {
  const { namespace, reference, chainId, address } = Caip.parseAccountId(parameters.account)
  if (namespace === 'eip155') {
    if (!parameters.rpcUrl) throw new RpcError(chainId)
    return verifyEvm(chainId, parameters.rpcUrl, address, parameters.message, parameters.signature)
  }
  if (namespace === 'solana') return verifySolana(address, parameters.message, parameters.signature)
  const network = bitcoinNetworks[reference]
  return network ? verifyBitcoin(address, parameters.message, parameters.signature, network) : false
}

// ——— eip155 ———

const clients = new Map<string, PublicClient>()

function clientFor(rpcUrl: string): PublicClient {
  let client = clients.get(rpcUrl)
  if (!client) {
    client = createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }) })
    clients.set(rpcUrl, client)
  }
  return client
}

async function verifyEvm(
  chainId: string,
  rpcUrl: string,
  address: string,
  message: string,
  signature: string,
): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) return false
  const hex = signature as `0x${string}`
  // An EOA's signature needs no chain: plain EIP-191 recovery.
  try {
    if (isAddressEqual(await recoverMessageAddress({ message, signature: hex }), address as `0x${string}`))
      return true
  } catch {}
  const client = clientFor(rpcUrl)
  // viem reads any failed call as an invalid signature, so an unreachable RPC, or one of another chain
  // (EIP-4361: contract accounts MUST be resolved on the message's chain), is told apart first.
  let reachable: boolean
  try {
    reachable = `eip155:${await client.getChainId()}` === chainId
  } catch {
    reachable = false
  }
  if (!reachable) throw new RpcError(chainId)
  try {
    // EIP-6492's universal validator covers EIP-1271 accounts and those not deployed yet.
    return await client.verifyMessage({ address: address as `0x${string}`, message, signature: hex })
  } catch (error) {
    const unreachable =
      error instanceof BaseError &&
      error.walk(
        (cause) =>
          cause instanceof HttpRequestError ||
          cause instanceof TimeoutError ||
          cause instanceof WebSocketRequestError,
      )
    if (unreachable) throw new RpcError(chainId, { cause: error })
    return false
  }
}

// ——— solana ———

function verifySolana(address: string, message: string, signature: string): boolean {
  const publicKey = decodeOr(() => base58.decode(address))
  if (publicKey?.length !== 32) return false
  const bytes = utf8ToBytes(message)
  return signatureBytes(signature).some((candidate) => {
    if (candidate.length !== 64) return false
    try {
      // RFC 8032's strict rules, as Solana's own verifier applies them.
      return ed25519.verify(candidate, bytes, publicKey, { zip215: false })
    } catch {
      return false
    }
  })
}

/**
 * Every reading of a signature text as bytes. A text can be valid in several encodings (a hex string may
 * also be base64), and the signature check decides which one was meant.
 */
function signatureBytes(text: string): Uint8Array[] {
  const readings = [
    /^(?:0x)?(?:[0-9a-fA-F]{2})+$/.test(text)
      ? decodeOr(() => hex.decode(text.replace(/^0x/, '').toLowerCase()))
      : undefined,
    decodeOr(() => base58.decode(text)),
    decodeOr(() => base64.decode(text)),
  ]
  return readings.filter((bytes) => bytes !== undefined)
}

function decodeOr(decode: () => Uint8Array): Uint8Array | undefined {
  try {
    return decode()
  } catch {
    return undefined
  }
}

// ——— bip122 ———

type BitcoinNetwork = { bech32: string; pubKeyHash: number; scriptHash: number }

const mainnet: BitcoinNetwork = { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05 }
const testnet: BitcoinNetwork = { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 }
const regtest: BitcoinNetwork = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4 }

/** The Bitcoin networks sign-in knows, by CAIP-2 reference (the genesis block hash's first 32 digits). */
export const bitcoinNetworks: Readonly<Record<string, BitcoinNetwork>> = {
  '000000000019d6689c085ae165831e93': mainnet,
  '000000000933ea01ad0ee984209779ba': testnet,
  '00000000da84f2bafbbc53dee25a72ae': testnet, // testnet4
  '00000008819873e925422c1ff0f99f7c': testnet, // signet
  '0f9188f13cb7b2c71f2a335e3a4fc328': regtest,
}

const bech32Prefix = /^(?:bc|tb|bcrt)1/i

type BitcoinOutput = {
  kind: 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2tr'
  /** The key or script hash, or P2TR's output key. */
  program: Uint8Array
  /** The scriptPubKey. */
  script: Uint8Array
}

function decodeBitcoinAddress(address: string, network: BitcoinNetwork): BitcoinOutput | undefined {
  try {
    if (bech32Prefix.test(address)) {
      const { version, prefix, data } = bitcoinAddress.fromBech32(address)
      if (prefix !== network.bech32) return undefined
      if (version === 0 && data.length === 20)
        return { kind: 'p2wpkh', program: data, script: concatBytes(Uint8Array.of(0x00, 0x14), data) }
      if (version === 1 && data.length === 32)
        return { kind: 'p2tr', program: data, script: concatBytes(Uint8Array.of(0x51, 0x20), data) }
      // P2WSH and future witness versions would need a script interpreter.
      return undefined
    }
    const { version, hash } = bitcoinAddress.fromBase58Check(address)
    if (hash.length !== 20) return undefined
    if (version === network.pubKeyHash) return { kind: 'p2pkh', program: hash, script: p2pkhScript(hash) }
    if (version === network.scriptHash)
      return {
        kind: 'p2sh',
        program: hash,
        script: concatBytes(Uint8Array.of(0xa9, 0x14), hash, Uint8Array.of(0x87)),
      }
    return undefined
  } catch {
    return undefined
  }
}

function verifyBitcoin(
  address: string,
  message: string,
  signature: string,
  network: BitcoinNetwork,
): boolean {
  const output = decodeBitcoinAddress(address, network)
  if (!output) return false
  const bytes = utf8ToBytes(message)
  return signatureBytes(signature).some(
    (candidate) => verifyBip137(output, bytes, candidate) || verifyBip322Simple(output, bytes, candidate),
  )
}

const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i])
const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes))
const p2pkhScript = (keyHash: Uint8Array) =>
  concatBytes(Uint8Array.of(0x76, 0xa9, 0x14), keyHash, Uint8Array.of(0x88, 0xac))
// The P2SH-P2WPKH redeem script's hash, which a nested-segwit address carries.
const nestedKeyHash = (keyHash: Uint8Array) => hash160(concatBytes(Uint8Array.of(0x00, 0x14), keyHash))

/**
 * BIP-137 (Bitcoin Core's `signmessage`, extended to segwit): header ‖ r ‖ s over the double SHA-256 of the
 * magic-prefixed message. The header's address type is not trusted: the key is recovered and must hash to
 * the address, whichever of P2PKH, P2SH-P2WPKH or P2WPKH it is (Electrum, for one, labels segwit keys 31–34).
 */
function verifyBip137(output: BitcoinOutput, message: Uint8Array, signature: Uint8Array): boolean {
  const header = signature[0]
  if (signature.length !== 65 || header === undefined || header < 27 || header > 42) return false
  const compressed = header >= 31
  let publicKey: Uint8Array
  try {
    publicKey = secp256k1.Signature.fromCompact(signature.subarray(1))
      .addRecoveryBit((header - 27) % 4)
      .recoverPublicKey(bitcoinMessageHash(message))
      .toRawBytes(compressed)
  } catch {
    return false
  }
  const keyHash = hash160(publicKey)
  if (output.kind === 'p2pkh') return equalBytes(keyHash, output.program)
  // Segwit outputs commit to compressed keys only.
  if (!compressed) return false
  if (output.kind === 'p2wpkh') return equalBytes(keyHash, output.program)
  if (output.kind === 'p2sh') return equalBytes(nestedKeyHash(keyHash), output.program)
  return false
}

const messageMagic = utf8ToBytes('\x18Bitcoin Signed Message:\n')

function bitcoinMessageHash(message: Uint8Array): Uint8Array {
  return sha256(sha256(concatBytes(messageMagic, compactSize(message.length), message)))
}

function compactSize(value: number): Uint8Array {
  if (value < 0xfd) return Uint8Array.of(value)
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >> 8)
  return Uint8Array.of(0xfe, value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24)
}

/**
 * BIP-322 "simple": the witness of `to_sign`, which spends `to_spend`, whose output is the address's script
 * and whose input commits to the message. Single-key scripts only: P2WPKH, P2SH-P2WPKH and P2TR key path.
 */
function verifyBip322Simple(output: BitcoinOutput, message: Uint8Array, signature: Uint8Array): boolean {
  const witness = decodeWitness(signature)
  if (!witness) return false
  try {
    const toSign = toSignTransaction(output.script, message)
    if (output.kind === 'p2tr') {
      const [sig] = witness
      if (witness.length !== 1 || !sig) return false
      // BIP-341: 64 bytes is SIGHASH_DEFAULT; 65 bytes must name its type, and BIP-322 allows only ALL.
      const hashType = sig.length === 64 ? Transaction.SIGHASH_DEFAULT : sig[64]
      if (
        hashType !== Transaction.SIGHASH_DEFAULT &&
        !(sig.length === 65 && hashType === Transaction.SIGHASH_ALL)
      )
        return false
      const hash = toSign.hashForWitnessV1(0, [output.script], [0n], hashType)
      return schnorr.verify(sig.subarray(0, 64), hash, output.program)
    }
    if (output.kind !== 'p2wpkh' && output.kind !== 'p2sh') return false
    const [sig, publicKey] = witness
    if (witness.length !== 2 || !sig || !publicKey) return false
    if (publicKey.length !== 33 || (publicKey[0] !== 0x02 && publicKey[0] !== 0x03)) return false
    const keyHash = hash160(publicKey)
    const committed = output.kind === 'p2wpkh' ? keyHash : nestedKeyHash(keyHash)
    if (!equalBytes(committed, output.program) || sig.at(-1) !== Transaction.SIGHASH_ALL) return false
    const hash = toSign.hashForWitnessV0(0, p2pkhScript(keyHash), 0n, Transaction.SIGHASH_ALL)
    // BIP-322's required rules: strict DER, low S.
    return secp256k1.verify(sig.subarray(0, -1), hash, publicKey, { lowS: true, format: 'der' })
  } catch {
    return false
  }
}

function toSignTransaction(script: Uint8Array, message: Uint8Array): Transaction {
  const toSpend = new Transaction()
  toSpend.version = 0
  const messageHash = taggedHash('BIP0322-signed-message', message)
  toSpend.addInput(new Uint8Array(32), 0xffffffff, 0, concatBytes(Uint8Array.of(0x00, 0x20), messageHash))
  toSpend.addOutput(script, 0n)
  const toSign = new Transaction()
  toSign.version = 0
  toSign.addInput(toSpend.getHash(), 0, 0)
  toSign.addOutput(Uint8Array.of(0x6a), 0n)
  return toSign
}

function taggedHash(tag: string, data: Uint8Array): Uint8Array {
  const tagHash = sha256(utf8ToBytes(tag))
  return sha256(concatBytes(tagHash, tagHash, data))
}

/** A consensus-encoded witness stack: a count, then length-prefixed items, and nothing after. */
function decodeWitness(bytes: Uint8Array): Uint8Array[] | undefined {
  let offset = 0
  const size = (): number | undefined => {
    const first = bytes[offset++]
    if (first === undefined || first > 0xfd) return undefined
    if (first < 0xfd) return first
    const low = bytes[offset++]
    const high = bytes[offset++]
    return low === undefined || high === undefined ? undefined : low | (high << 8)
  }
  const count = size()
  if (count === undefined || count === 0) return undefined
  const items: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const length = size()
    if (length === undefined || offset + length > bytes.length) return undefined
    items.push(bytes.subarray(offset, offset + length))
    offset += length
  }
  return offset === bytes.length ? items : undefined
}
