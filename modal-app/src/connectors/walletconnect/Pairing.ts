/**
 * The WalletConnect pairing as a pure machine. A pairing (its URI, shown as a QR code and
 * as deep links) lasts 4 minutes; when fewer than 10 s remain it counts as expired: the URI is dropped and
 * the visitor is offered Retry, which proposes a fresh one (a pairing nobody looks at is not renewed
 * forever). A failed pairing may be retried 1 s after it failed. One state at a time: the view never
 * shows a QR code, a spinner and an error together. Approval finalizes the connection: the
 * runtime stores the wallet's deep link and the recent wallet, and records a connect-success event.
 *
 * Effects are named actions (`propose`, `finalize`, `reset`); answers come back as events tagged with the
 * `attempt` they belong to, so a late answer to a replaced pairing is ignored.
 */
import { assign, setup } from 'xstate'

/** A pairing URI lives 4 minutes; under 10 s left it counts as expired, so a scan never races the expiry; a retry waits 1 s so a double click makes one pairing. */
export const pairingLifetimeMs = 4 * 60_000
export const expiryMarginMs = 10_000
export const retryAfterMs = 1_000

/** The registry wallet the visitor picked, for its deep links; none for the plain QR code. */
export type Target = {
  id: string
  name: string
  mobileLink?: string | null | undefined
  desktopLink?: string | null | undefined
  webappLink?: string | null | undefined
}

export type Failure = { code: number; message: string }

export type PairingContext = {
  attempt: number
  target?: Target | undefined
  uri?: string | undefined
  /** Epoch ms at which the pairing is replaced (its 4 minutes less the 10 s margin). */
  expiresAt?: number | undefined
  /** A deep link was opened for this pairing (the visitor went to the wallet app). */
  linking: boolean
  failure?: Failure | undefined
  failedAt?: number | undefined
}

export type PairingEvent =
  | { type: 'START'; target?: Target | undefined }
  | { type: 'PROPOSED'; attempt: number; uri: string; now: number }
  | { type: 'APPROVED'; attempt: number; method: 'mobile' | 'qrcode' }
  | { type: 'FAILED'; attempt: number; failure: Failure; now: number }
  /** The clock reached `expiresAt`. */
  | { type: 'EXPIRING'; attempt: number }
  | { type: 'LINKED' }
  | { type: 'RETRY'; now: number }
  | { type: 'RESET' }

const current = ({ context, event }: { context: PairingContext; event: PairingEvent }) =>
  'attempt' in event && event.attempt === context.attempt

export const machine = setup({
  types: {} as { context: PairingContext; events: PairingEvent },
  actions: {
    /** Start a pairing (sign-client `connect`); answer with PROPOSED, then APPROVED or FAILED. */
    propose: (_, _params: { attempt: number }) => {},
    /** Store the deep link and the recent wallet, record connect-success with `method`. */
    finalize: (_, _params: { target: Target | undefined; method: 'mobile' | 'qrcode' }) => {},
    /** Drop the stored deep link (the reset clears it). */
    reset: () => {},
    next: assign(({ context }) => ({
      attempt: context.attempt + 1,
      uri: undefined,
      expiresAt: undefined,
      failure: undefined,
      failedAt: undefined,
    })),
    fail: assign(({ event }) =>
      event.type === 'FAILED' ? { failure: event.failure, failedAt: event.now } : {},
    ),
    expire: assign({ uri: undefined, linking: false }),
    clear: assign({
      uri: undefined,
      expiresAt: undefined,
      linking: false,
      target: undefined,
      failure: undefined,
      failedAt: undefined,
    }),
  },
  guards: {
    current,
    retryAllowed: ({ context, event }) =>
      event.type === 'RETRY' && event.now - (context.failedAt ?? 0) >= retryAfterMs,
  },
}).createMachine({
  id: 'pairing',
  context: { attempt: 0, linking: false },
  initial: 'idle',
  on: {
    START: {
      target: '.proposing',
      actions: assign(({ event }) => ({ target: event.target, linking: false })),
    },
    RESET: { target: '.idle', actions: ['clear', 'reset'] },
  },
  states: {
    idle: {},
    proposing: {
      entry: ['next', { type: 'propose', params: ({ context }) => ({ attempt: context.attempt }) }],
      on: {
        PROPOSED: {
          guard: 'current',
          target: 'waiting',
          actions: assign(({ event }) => ({
            uri: event.uri,
            expiresAt: event.now + pairingLifetimeMs - expiryMarginMs,
          })),
        },
        FAILED: { guard: 'current', target: 'failed', actions: 'fail' },
      },
    },
    waiting: {
      on: {
        APPROVED: {
          guard: 'current',
          target: 'approved',
          actions: {
            type: 'finalize',
            params: ({ context, event }) => ({
              target: context.target,
              method: (event as { method: 'mobile' | 'qrcode' }).method,
            }),
          },
        },
        // Under 10 s left: a wallet scanning now could not finish, so the URI goes and Retry makes another.
        EXPIRING: { guard: 'current', target: 'expired', actions: 'expire' },
        FAILED: { guard: 'current', target: 'failed', actions: 'fail' },
        LINKED: { actions: assign({ linking: true }) },
      },
    },
    expired: {
      on: { RETRY: { target: 'proposing' } },
    },
    failed: {
      on: { RETRY: { guard: 'retryAllowed', target: 'proposing' } },
    },
    approved: {},
  },
})
