/**
 * The modal's view router as a pure machine: a view stack, opened and closed by rules.
 *
 * While closed the stack already holds the view that opening would show, so the card is rendered behind the
 * hidden iframe and `OPEN` only flips `open`. Effects are named actions (`closed`), implemented by the
 * runtime with `machine.provide`, so tests can read them from `transition()`.
 */
import { assign, type SnapshotFrom, setup } from 'xstate'

/** A view's name: the public ones of the bridge, and the modal's own screens. */
export type View = string

export type RouterInput = {
  /** Inline in a host element: never hidden, closing returns to Account or Connect. */
  embedded: boolean
  mobile: boolean
  /** At least one chain namespace is configured. */
  adapters: boolean
  /** A connected address exists. */
  connected: boolean
  /** The connected EVM account is on a chain that is not configured. @default false */
  unsupported?: boolean | undefined
  /** Sign-in is required and the account has no session: its views cannot be closed. @default false */
  locked?: boolean | undefined
}

export type RouterContext = RouterInput & {
  /** The view stack, current view last. Never empty. */
  history: View[]
}

export type RouterEvent =
  /** Opens on the requested view, else by the opening rule. */
  | { type: 'OPEN'; view?: View | undefined }
  | { type: 'PUSH'; view: View }
  | { type: 'REPLACE'; view: View }
  | { type: 'BACK' }
  /** Closes unless blocked; `force` closes even on ApproveTransaction. */
  | { type: 'CLOSE'; force?: boolean | undefined }
  /** The connection changed; `unsupported` says whether the EVM account sits on an unconfigured chain. */
  | { type: 'CONNECTED'; connected: boolean; unsupported?: boolean | undefined }
  /** The network registry loaded: whether any chain namespace is configured after all. */
  | { type: 'ADAPTERS'; adapters: boolean }
  /** Whether a required sign-in is outstanding (its views then cannot be closed). */
  | { type: 'LOCK'; locked: boolean }

/** The view the modal opens on when none is requested. */
function defaultView(context: RouterInput): View {
  // A wallet on a network the dApp does not serve would fail every request: say so first.
  if (context.connected && context.unsupported) return 'UnsupportedChain'
  if (context.connected) return 'Account'
  if (!context.adapters) return context.mobile ? 'AllWallets' : 'ConnectingWalletConnectBasic'
  return 'Connect'
}

/**
 * The view closing returns to. Embedded, the card never leaves the page, so it rests on a view that can be
 * used there (Account if connected, else Connect), never on a flow the modal cannot start itself.
 */
function restingView(context: RouterInput): View {
  if (!context.embedded) return defaultView(context)
  return context.connected ? 'Account' : 'Connect'
}

/** The current view. */
export function currentView(context: RouterContext): View {
  return context.history[context.history.length - 1] ?? defaultView(context)
}

const closesOnBack = (context: RouterContext) =>
  context.history.length <= 1 || context.history.includes('UnsupportedChain')
/** The sign-in views: EIP-4361's own (`siweConfig`) and the chain-agnostic one (`siwx`). */
const signInViews: readonly View[] = ['ConnectingSiwe', 'SIWXSignMessage']

/** Closing is blocked on ApproveTransaction, and on a sign-in view while a required sign-in is open. */
export function closeBlocked(context: RouterContext): boolean {
  const view = currentView(context)
  return view === 'ApproveTransaction' || (Boolean(context.locked) && signInViews.includes(view))
}
const blocked = (context: RouterContext, force: boolean | undefined) => !force && closeBlocked(context)
// Views that only make sense with a connected account.
const needsAccount: readonly View[] = ['Account', 'UnsupportedChain', 'ApproveTransaction']

export const machine = setup({
  types: {} as { context: RouterContext; events: RouterEvent; input: RouterInput },
  actions: {
    /** The modal closed (or, embedded, returned to its resting view): pending connect requests end. */
    closed: () => {},
    /** Back to the resting view, the one opening without a request would show. */
    reset: assign(({ context }) => ({ history: [restingView(context)] })),
  },
  guards: {
    embedded: ({ context }) => context.embedded,
    blocked: ({ context, event }) => event.type === 'CLOSE' && blocked(context, event.force),
    backBlocked: ({ context }) => closesOnBack(context) && blocked(context, false),
    closesOnBack: ({ context }) => closesOnBack(context),
    approving: ({ context }) => currentView(context) === 'ApproveTransaction',
  },
}).createMachine({
  id: 'router',
  context: ({ input }) => ({ ...input, history: [defaultView(input)] }),
  initial: 'boot',
  states: {
    // Embedded, the card is always on the page, so the modal counts as open from the start.
    boot: { always: [{ guard: 'embedded', target: 'open' }, { target: 'closed' }] },
    closed: {
      on: {
        OPEN: {
          target: 'open',
          actions: assign(({ context, event }) => ({ history: [event.view ?? defaultView(context)] })),
        },
        // Keep the resting view in step with the connection, so the next open only flips visibility.
        CONNECTED: {
          actions: [
            assign({
              connected: ({ event }) => event.connected,
              unsupported: ({ event }) => event.unsupported ?? false,
            }),
            'reset',
          ],
        },
        ADAPTERS: { actions: [assign({ adapters: ({ event }) => event.adapters }), 'reset'] },
        LOCK: { actions: assign({ locked: ({ event }) => event.locked }) },
      },
    },
    open: {
      on: {
        // A request waiting in ApproveTransaction stays in front: a host opening another view would hide it.
        OPEN: [
          { guard: 'approving' },
          {
            actions: assign(({ context, event }) => ({
              history: event.view ? [event.view] : context.history,
            })),
          },
        ],
        PUSH: { actions: assign(({ context, event }) => ({ history: [...context.history, event.view] })) },
        REPLACE: {
          actions: assign(({ context, event }) => ({
            history: [...context.history.slice(0, -1), event.view],
          })),
        },
        BACK: [
          { guard: 'backBlocked' },
          { guard: 'closesOnBack', target: 'closing' },
          { actions: assign(({ context }) => ({ history: context.history.slice(0, -1) })) },
        ],
        CLOSE: [{ guard: 'blocked' }, { target: 'closing' }],
        CONNECTED: {
          actions: assign(({ context, event }) => {
            const lost = !event.connected && context.history.some((view) => needsAccount.includes(view))
            const next = { connected: event.connected, unsupported: event.unsupported ?? false }
            return lost ? { ...next, history: [defaultView({ ...context, ...next })] } : next
          }),
        },
        LOCK: { actions: assign({ locked: ({ event }) => event.locked }) },
        // Only a resting view that was picked for the old value follows; a view the user is on stays.
        ADAPTERS: {
          actions: assign(({ context, event }) => {
            const resting = context.history.length === 1 && context.history[0] === defaultView(context)
            const next = { ...context, adapters: event.adapters }
            return resting
              ? { adapters: event.adapters, history: [defaultView(next)] }
              : { adapters: event.adapters }
          }),
        },
      },
    },
    // Transient: closing resets the stack to the resting view; embedded, the modal stays on the page.
    closing: {
      entry: ['reset', 'closed'],
      always: [{ guard: 'embedded', target: 'open' }, { target: 'closed' }],
    },
  },
})

export type RouterSnapshot = SnapshotFrom<typeof machine>

/** Whether the modal is showing. */
export function isOpen(snapshot: { value: unknown }): boolean {
  return snapshot.value === 'open'
}
