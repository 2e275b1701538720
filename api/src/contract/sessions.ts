/**
 * Smart sessions (docs/behaviour.md §7 `GET /v1/sessions/{address}`, `POST /v1/sessions/{address}/revoke`): the session keys
 * an Airlock smart account granted dApps (ERC-7715 `wallet_grantPermissions`), each enforced on chain by the
 * account's session-key validator (`SessionKeys.sol`: one target, one function, a spend limit, an ETH allowance
 * for gas, an expiry).
 *
 * A session is named by its `pci` (as WalletConnect's Blockchain API calls a permission's id), which is also
 * the ERC-7715 `permissionsContext` the modal answers the dApp with: `abi.encode(address account, address key,
 * uint256 chainId)`, 96 bytes as 0x-hex. It says everything needed to find the session on chain.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { sessionSummary } from './siwx.ts'

/** The API's refusals, answered as `{ message }`. */
export const smartSessionTexts = {
  invalidPci: 'Invalid pci: expected the 0x-hex permissions context the wallet answered',
  wrongAccount: 'The pci names another account',
  chainRequired: 'chainId is required with a plain address (or give a CAIP-10 address)',
  notFound: 'Session not found',
  invalidSignature: 'Invalid signature',
  signedByKey: 'Signed by a session key: only the account itself revokes its sessions or records them',
  invalidOrigin: 'Invalid origin',
} as const

const hex40 = /^0x[0-9a-fA-F]{40}$/

export type SessionId = { account: `0x${string}`; key: `0x${string}`; chainId: number }

/**
 * A session's pci: `abi.encode(account, key, chainId)`.
 * @example
 * encodePci({ account, key, chainId: 31337 }) // '0x000…account000…key000…7a69'
 */
export function encodePci(id: SessionId): `0x${string}` {
  const address = (value: string) => value.slice(2).toLowerCase().padStart(64, '0')
  return `0x${address(id.account)}${address(id.key)}${id.chainId.toString(16).padStart(64, '0')}`
}

/** The session a pci names, or undefined when it is not one (the wrong length, dirty address words). */
export function decodePci(pci: string): SessionId | undefined {
  if (!/^0x[0-9a-fA-F]{192}$/.test(pci)) return undefined
  const [account, key, chain] = [0, 1, 2].map((i) => pci.slice(2 + i * 64, 2 + (i + 1) * 64)) as [
    string,
    string,
    string,
  ]
  // An address word has 12 zero bytes first; anything else would be a second spelling of the same session.
  if (!account.startsWith('0'.repeat(24)) || !key.startsWith('0'.repeat(24))) return undefined
  const chainId = Number.parseInt(chain, 16)
  if (!Number.isSafeInteger(chainId) || chainId <= 0) return undefined
  return { account: `0x${account.slice(24)}`, key: `0x${key.slice(24)}`, chainId }
}

/** What the account's owner signs to record which page a session was granted to. */
export function grantedMessage(pci: string, origin: string): string {
  return `Airlock: smart session granted to ${origin}\n${pci.toLowerCase()}`
}

/**
 * A session's status at `nowS` (Unix seconds, the chain's clock) from its `validUntil` as `sessionOf` answers it
 * (0 once revoked): the chain's word alone, which the API's list and the modal's both follow.
 */
export function sessionStatus(validUntil: number, nowS: number): 'active' | 'expired' | 'revoked' {
  return validUntil === 0 ? 'revoked' : validUntil <= nowS ? 'expired' : 'active'
}

const address = S.string(42, 42, hex40)
const pciShape = S.string(194, 194, /^0x[0-9a-fA-F]{192}$/)
const decimal = S.string(80, 1, /^\d+$/)

/** One session, as the chain holds it, with what only the API knows (the page it was granted to). */
export const smartSessionRecord = S.object({
  pci: pciShape,
  /** CAIP-2. */
  chainId: S.string(80, 1),
  account: address,
  /** The session key: the dApp's signer. */
  key: address,
  /** The only contract its calls may reach. */
  target: address,
  /** The only function (4-byte selector); `0x00000000` means plain native transfers only. */
  selector: S.string(10, 10, /^0x[0-9a-fA-F]{8}$/),
  /** The spend limit and what was spent, in the target token's base units (wei for native transfers). */
  limit: decimal,
  spent: decimal,
  /**
   * Wei the account may pay for the key's operations' gas (those no paymaster pays), and what their maximum
   * prefunds took of it.
   */
  gasAllowance: decimal,
  gasSpent: decimal,
  /** Unix seconds. */
  validUntil: S.number(0),
  /**
   * As the chain has it, never the API's own say: `revoked` once the account's `revokeSession` is on chain
   * (a revocation recorded at the API alone leaves it `active`, as its key still signs).
   */
  status: S.picklist(['active', 'expired', 'revoked']),
  /** When the account recorded a revocation at the API (epoch ms), which the modal does once it is on chain. */
  revokedAt: S.optional(S.number(0)),
  /** The page that asked for it, when the modal recorded it. */
  origin: S.optional(S.string(2048, 1)),
  /** The target token's symbol and decimals, when it is an ERC-20 the chain answers for. */
  token: S.optional(S.object({ symbol: S.string(64), decimals: S.number(0, 255) })),
})
export type SmartSessionRecord = S.Infer<typeof smartSessionRecord>

/**
 * What `GET /v1/sessions/{address}` adds to sign-in's `sessions` for an EVM chain the API has: `pci`, the active
 * smart sessions' ids (the shape of WalletConnect's Blockchain API), and `smartSessions`, every session the
 * account ever granted there, newest first.
 */
export const smartSessionsAnswer = S.object({
  pci: S.array(pciShape, 1000),
  smartSessions: S.array(smartSessionRecord, 1000),
})
export type SmartSessionsAnswer = S.Infer<typeof smartSessionsAnswer>

/** `GET /v1/sessions/{address}`: sign-in's sessions, and the smart ones where the account granted any. */
export const accountSessionsAnswer = S.object({
  sessions: S.array(sessionSummary, 100),
  pci: S.optional(S.array(pciShape, 1000)),
  smartSessions: S.optional(S.array(smartSessionRecord, 1000)),
})
export type AccountSessionsAnswer = S.Infer<typeof accountSessionsAnswer>

/**
 * `POST /v1/sessions/{address}/revoke` with a smart session's pci: the account's signature (never a session
 * key's) of `Siwx.revokeMessage(pci)` (bridge-protocol), the same text sign-in sessions are revoked with.
 * Answered `{ success: true }`; it records the revocation, which the chain's `revokeSession` makes real.
 */
export const revokeSessionBody = S.object({
  pci: S.string(194, 194, /^0x[0-9a-fA-F]{192}$/),
  signature: S.string(20_000, 4, /^0x[0-9a-fA-F]+$/),
})
export type RevokeSessionBody = S.Infer<typeof revokeSessionBody>

/**
 * `POST /v1/sessions/{address}/granted`: the page a session was granted to, signed by the account
 * ({@link grantedMessage}). Answered `{ success: true }`.
 */
export const grantedSessionBody = S.object({
  pci: S.string(256, 1),
  origin: S.string(2048, 1),
  signature: S.string(20_000, 4, /^0x[0-9a-fA-F]+$/),
})
export type GrantedSessionBody = S.Infer<typeof grantedSessionBody>
