/**
 * Sign-In With X messages: EIP-4361 (Sign-In with Ethereum) for `eip155` accounts and its chain-agnostic
 * form CAIP-122 for `solana` and `bip122`, which differ only in the account line's wording, the address
 * and the `Chain ID` (EIP-155's number for Ethereum, the CAIP-2 reference elsewhere).
 *
 * {@link parse} accepts exactly the texts of EIP-4361's ABNF, each field to its own grammar (RFC 3986
 * authority and URIs, RFC 3339 date-times, EIP-55 checksummed addresses, …); {@link format} writes them,
 * and the two are exact inverses: the text a wallet signs is the text the API parses, byte for byte. No
 * dependencies, no Node APIs: the modal, the host SDK's request gate and the API share it.
 *
 * Where the ABNF allows what can name no page (an empty host, a port above 65535, a leap second), the
 * message is refused: a sign-in is bound to an origin and a time, and such a message could bind to none.
 *
 * @see https://eips.ethereum.org/EIPS/eip-4361
 * @see https://chainagnostic.org/CAIPs/caip-122
 */
import type { ChainId } from './Caip.ts'
import * as DateTime from './siwx/DateTime.ts'
import { InvalidMessageError, type Message } from './siwx/Fields.ts'

export { checksumAddress } from './siwx/Accounts.ts'
export {
  accountNames,
  InvalidMessageError,
  isDomain,
  isNonce,
  isTimestamp,
  isUri,
  type Message,
  validate,
} from './siwx/Fields.ts'
export { format, parse } from './siwx/Text.ts'

/**
 * Epoch milliseconds of an RFC 3339 timestamp.
 * @example Siwx.toTime('2021-09-30T16:25:24Z') // 1633019124000
 */
export function toTime(timestamp: string): number {
  const time = DateTime.toTime(timestamp)
  if (time === undefined) throw new InvalidMessageError(0, `"${timestamp}" is not an RFC 3339 date-time`)
  return time
}

/**
 * The CAIP-10 account id the message signs in, `eip155:1:0xab…`.
 * @example Siwx.accountId(message) // 'eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
 */
export function accountId(message: Pick<Message, 'chainId' | 'accountAddress'>): `${ChainId}:${string}` {
  return `${message.chainId}:${message.accountAddress}`
}

/**
 * The exact text an account signs to revoke one of its sessions (`POST /v1/sessions/{address}/revoke`).
 * @example Siwx.revokeMessage('0d6a…') // 'Revoke Airlock session 0d6a…'
 */
export function revokeMessage(sessionId: string): string {
  return `Revoke Airlock session ${sessionId}`
}
