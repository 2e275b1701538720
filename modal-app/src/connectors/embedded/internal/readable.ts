/**
 * The pieces every preview is made of: text that is safe to show as text, amounts with every digit, caps on
 * what the page can make the view render, and JSON for what has no better form.
 */
import { bytesToHex, formatUnits } from 'viem'
import { formatQuantity } from '../../../shared/format.ts'
import type { Network } from '../../../shared/Network.ts'
import { approveTexts } from '../approveTexts.ts'

/** What every preview reads: the wallet's network, and how to write numbers. */
export type Context = { network: Network | undefined; locale: string | undefined }

/** The request could not be read as its method says it should be. `describe` turns it into a warning. */
class Unreadable extends Error {
  override name = 'Unreadable'
}

export function fail(message: string): never {
  throw new Unreadable(message)
}

/** Caps on what a page can put in front of the visitor: the view stays short enough to read. */
export const limits = {
  /** Characters of a message or data shown; the rest is counted, not shown. */
  message: 16_384,
  /** Characters of raw params shown for a request that could not be read. */
  raw: 2_000,
  /** Characters of one typed-data field's value. */
  field: 120,
  /** Typed-data fields shown. */
  fields: 24,
  /** Solana instructions shown. */
  instructions: 16,
}

/** `text` cut to `max` characters, saying how many more there were. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + approveTexts.values.cut(text.length - max)
}

// Tab and line breaks are text; the zero-width joiner holds emoji together. Every other control or format
// character (bidi overrides, zero-width spaces) could make the text read otherwise than it is signed.
const allowed = /[\t\n\r\u200d]/g
const hidden = /[\p{Cc}\p{Cf}\p{Co}]/u

/** The bytes as UTF-8 text, when they are that and nothing in them can hide or reorder what is shown. */
export function textOf(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
  return hidden.test(text.replace(allowed, '')) ? undefined : text
}

/** A message to sign, as text when it reads as text, else as hex. */
export function messageOf(bytes: Uint8Array): { label: string; text: string } {
  const { labels, values } = approveTexts
  if (bytes.length === 0) return { label: labels.message, text: values.empty }
  const text = textOf(bytes)
  if (text !== undefined) return { label: labels.message, text: cut(text, limits.message) }
  return { label: labels.hexMessage, text: cut(bytesToHex(bytes), limits.message) }
}

/** Base units in a currency, every digit kept (what is signed must read exactly as it is). */
export function amount(
  value: bigint,
  currency: { symbol: string; decimals: number },
  locale?: string,
): string {
  return `${decimal(value, currency.decimals, locale)} ${currency.symbol}`
}

/** Base units as a decimal number with the locale's separators, every digit kept. */
export function decimal(value: bigint, decimals: number, locale?: string): string {
  const exact = formatUnits(value, decimals)
  return formatQuantity(exact, locale, exact.split('.')[1]?.length ?? 0)
}

/** A whole number with the locale's grouping: token amounts whose decimals are unknown, ids, gas. */
export function whole(value: bigint, locale?: string): string {
  return formatQuantity(value.toString(), locale, 0)
}

/** JSON on one line; bigints as decimals and bytes as hex, so anything a request carries can be shown. */
export function json(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_, item: unknown) => {
        if (typeof item === 'bigint') return item.toString()
        if (item instanceof Uint8Array) return bytesToHex(item)
        return item
      }) ?? String(value)
    )
  } catch {
    return String(value)
  }
}

/** A title for a method, also for a request of it that could not be read. */
export function titleOf(method: string): string {
  const { titles } = approveTexts
  const known: Record<string, string> = {
    personal_sign: titles.signMessage,
    'solana:signMessage': titles.signMessage,
    eth_sign: titles.signHash,
    eth_signTypedData_v4: titles.signTypedData,
    eth_sendTransaction: titles.sendTransaction,
    'solana:signTransaction': titles.signTransaction,
    'solana:signAndSendTransaction': titles.sendTransaction,
  }
  return Object.hasOwn(known, method) ? (known[method] as string) : titles.other
}
