/**
 * Input parsing: every input becomes a typed value once, here, through a shape; a bad one is a 400 with the
 * shape's text, which names the field.
 */
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Context } from 'hono'
import { HttpError, messages } from './errors.ts'

/** Parses `value` with `shape`, or throws a 400 naming what was wrong. */
export function parse<T>(shape: S.Shape<T>, value: unknown): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw new HttpError(400, parsed.message)
  return parsed.value
}

/** The request's JSON body, unparsed; a 400 when it is not JSON. */
export async function json(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new HttpError(400, messages.invalidJson)
  }
}

// Strict: a mixed-case address with a wrong EIP-55 checksum is a typo, not an address.
export const evmAddress = S.check(
  S.string(42),
  (value) => isEvmAddress(value, { strict: true }),
  messages.invalidEvmAddress,
)
