/**
 * What an embedded-wallet request asks the visitor to sign, in words: ApproveTransaction shows it before
 * anything is signed. Pure: no chain, no network, nothing the page could not already see. Whatever the page
 * sends, the answer is a description; a request it cannot read says so, with its raw params, instead of
 * throwing (an approval screen that crashes is one the visitor cannot reject).
 */
import type { Request } from '@airlock/bridge-protocol'
import type { Network } from '../../shared/Network.ts'
import { approveTexts } from './approveTexts.ts'
import * as Evm from './internal/describeEvm.ts'
import * as Solana from './internal/describeSolana.ts'
import * as Readable from './internal/readable.ts'

/** One line of the preview: a label and its value (`mono` for addresses, hashes and other code). */
export type Row = { label: string; value: string; mono?: boolean }

/** The preview of a request. */
export type Description = {
  /** What is asked, as a short phrase: 'Sign a message', 'Send a transaction'. */
  title: string
  rows: Row[]
  /** Text signed as it is (a message, unreadable data, raw params), shown whole in a scrolling region. */
  message?: { label: string; text: string }
  /** What the visitor should know before approving, most serious first. */
  warnings: string[]
}

/** The approval ApproveTransaction shows: the page that asks, what it asks, and how far it got. */
export type Approval = {
  /** The page's origin, as the browser reported it at the handshake. */
  origin: string
  description: Description
  /** Approved, and being signed or sent. */
  busy: boolean
  /** Why the last approval failed, in the visitor's words. */
  error?: string | undefined
  /** Requests waiting, this one included. @default 1 */
  pending?: number | undefined
}

/**
 * The embedded wallet's slice of the snapshot, as far as ApproveTransaction reads it: `embeddedWallet`, as the core's
 * snapshot has an `embedded` flag of its own (the card is inline on the page), which a slice of that name
 * replaces.
 */
export type ApprovalSlice = { embeddedWallet?: { approval?: Approval | undefined } | undefined }

/** The embedded wallet's actions on the approval. */
export type ApprovalUi = { approveRequest(): void; rejectRequest(): void }

export type DescribeOptions = {
  /** How numbers are written. @default the visitor's locale */
  locale?: string | undefined
}

/**
 * The preview of `request` for an account on `network` (the network the wallet is on, when it is a
 * configured one).
 * @example
 * describe({ namespace: 'eip155', method: 'personal_sign', params: ['0x6869', address] }, network)
 * // { title: 'Sign a message', rows: [{ label: 'Account', … }], message: { label: 'Message', text: 'hi' }, warnings: [] }
 */
export function describe(
  request: Request,
  network: Network | undefined,
  options: DescribeOptions = {},
): Description {
  const context: Readable.Context = { network, locale: options.locale }
  try {
    return describeKnown(request, context) ?? generic(request)
  } catch {
    return unreadable(request)
  }
}

function describeKnown(request: Request, context: Readable.Context): Description | undefined {
  if (request.namespace === 'solana') return Solana.describe(request, context)
  if (request.namespace !== 'eip155') return undefined
  return Evm.describe(request.method, request.params, context)
}

/** A request Airlock has no preview for: its method and params as they came, and a word of caution. */
function generic(request: Request): Description {
  return {
    title: approveTexts.titles.other,
    rows: [{ label: approveTexts.labels.method, value: request.method, mono: true }],
    message: {
      label: approveTexts.labels.parameters,
      text: Readable.cut(Readable.json(request.params), Readable.limits.message),
    },
    warnings: [approveTexts.warnings.generic],
  }
}

function unreadable(request: Request): Description {
  return {
    title: Readable.titleOf(request.method),
    rows: [{ label: approveTexts.labels.method, value: request.method, mono: true }],
    message: {
      label: approveTexts.labels.request,
      text: Readable.cut(Readable.json(request.params), Readable.limits.raw),
    },
    warnings: [approveTexts.warnings.unreadable],
  }
}
