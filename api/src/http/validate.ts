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

/**
 * The request's body as text, only when it says it is JSON (`Content-Type: application/json`, with any
 * parameters); else a 415. A page of another site may POST `text/plain`, a form or no type at all without the
 * browser asking CORS first (a "simple" request), but never `application/json`: routes that act on a body read
 * here are out of its reach.
 */
export async function jsonText(c: Context): Promise<string> {
  const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') throw new HttpError(415, messages.notJson)
  return c.req.text()
}

/** The request's JSON body ({@link jsonText}), unparsed; a 400 when it is not JSON. */
export async function json(c: Context): Promise<unknown> {
  const text = await jsonText(c)
  try {
    return JSON.parse(text)
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
