/**
 * The `next` cursor of a history page: where the page ended (the last item's time, chain, block and
 * position), so the next page starts right after it however many rows arrive meanwhile (keyset paging: no
 * item is skipped or shown twice, and no page costs more than the first).
 *
 * Opaque and tamper-evident: base64url of a checksum and the position, the checksum taken over the position
 * and the listing it belongs to (account and chain filter). An edited, truncated or borrowed cursor is a 400,
 * never a query. Not a secret MAC: a cursor only names a place in data anyone may list, so forging one gains
 * nothing, and a key shared by every replica would be one more secret to run.
 *
 * Other listings of the index (an account's NFTs) seal their own positions the same way ({@link seal}), each
 * under its own name, so a cursor of one listing never continues another.
 */
import { createHash } from 'node:crypto'
import { Caip } from '@airlock/bridge-protocol'

export type Position = { minedAt: number; chainId: string; block: number; index: number }

/** The listing a cursor was made for. */
export type Scope = { account: string; chainId?: string | undefined }

const checksumBytes = 8

/** The listings that hand out cursors; a cursor is sealed for one. */
export type Listing = 'history' | 'nfts'

/** @example Cursor.encode({ minedAt, chainId: 'eip155:1', block: 9, index: 0 }, { account }) */
export function encode(position: Position, scope: Scope): string {
  return seal('history', [position.minedAt, position.chainId, position.block, position.index], scope)
}

/** The position of a cursor made for `scope`, or undefined when it is not one. */
export function decode(cursor: string, scope: Scope): Position | undefined {
  const parsed = open('history', cursor, scope)
  if (parsed?.length !== 4) return undefined
  const [minedAt, chainId, block, index] = parsed
  if (!whole(minedAt) || !whole(block) || !whole(index) || !Caip.isChainId(chainId)) return undefined
  return { minedAt, chainId, block, index }
}

/**
 * A listing's position (JSON values) as a cursor for `scope`.
 * @example Cursor.seal('nfts', ['0xabc…', '7'], { account, chainId })
 */
export function seal(listing: Listing, values: readonly (string | number)[], scope: Scope): string {
  const payload = Buffer.from(JSON.stringify(values), 'utf8')
  return Buffer.concat([checksum(listing, payload, scope), payload]).toString('base64url')
}

/** The values {@link seal} put in a cursor of `listing` for `scope`, or undefined when it is not one. */
export function open(listing: Listing, cursor: string, scope: Scope): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined
  const bytes = Buffer.from(cursor, 'base64url')
  const payload = bytes.subarray(checksumBytes)
  if (payload.length === 0 || !checksum(listing, payload, scope).equals(bytes.subarray(0, checksumBytes)))
    return undefined
  try {
    const parsed: unknown = JSON.parse(payload.toString('utf8'))
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

function checksum(listing: Listing, payload: Buffer, scope: Scope): Buffer {
  return createHash('sha256')
    .update(`airlock-${listing}-cursor\n${scope.account}\n${scope.chainId ?? ''}\n`)
    .update(payload)
    .digest()
    .subarray(0, checksumBytes)
}

function whole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}
