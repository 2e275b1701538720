/**
 * The `next` cursor of a history page: where the page ended (the last item's time, chain, block and
 * position), so the next page starts right after it however many rows arrive meanwhile (keyset paging: no
 * item is skipped or shown twice, and no page costs more than the first).
 *
 * Opaque and tamper-evident: base64url of a checksum and the position, the checksum taken over the position
 * and the listing it belongs to (account and chain filter). An edited, truncated or borrowed cursor is a 400,
 * never a query. Not a secret MAC: a cursor only names a place in data anyone may list, so forging one gains
 * nothing, and a key shared by every replica would be one more secret to run.
 */
import { createHash } from 'node:crypto'
import { Caip } from '@airlock/bridge-protocol'

export type Position = { minedAt: number; chainId: string; block: number; index: number }

/** The listing a cursor was made for. */
export type Scope = { account: string; chainId?: string | undefined }

const checksumBytes = 8

/** @example Cursor.encode({ minedAt, chainId: 'eip155:1', block: 9, index: 0 }, { account }) */
export function encode(position: Position, scope: Scope): string {
  const payload = Buffer.from(
    JSON.stringify([position.minedAt, position.chainId, position.block, position.index]),
    'utf8',
  )
  return Buffer.concat([checksum(payload, scope), payload]).toString('base64url')
}

/** The position of a cursor made for `scope`, or undefined when it is not one. */
export function decode(cursor: string, scope: Scope): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined
  const bytes = Buffer.from(cursor, 'base64url')
  const payload = bytes.subarray(checksumBytes)
  if (payload.length === 0 || !checksum(payload, scope).equals(bytes.subarray(0, checksumBytes)))
    return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(payload.toString('utf8'))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return undefined
  const [minedAt, chainId, block, index] = parsed as unknown[]
  if (!whole(minedAt) || !whole(block) || !whole(index) || !Caip.isChainId(chainId)) return undefined
  return { minedAt, chainId, block, index }
}

function checksum(payload: Buffer, scope: Scope): Buffer {
  return createHash('sha256')
    .update(`airlock-history-cursor\n${scope.account}\n${scope.chainId ?? ''}\n`)
    .update(payload)
    .digest()
    .subarray(0, checksumBytes)
}

function whole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}
