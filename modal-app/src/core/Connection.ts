/**
 * The connection of one chain namespace as a pure machine. At startup it is `connecting`; given
 * the stored connectors that are on the page it goes `reconnecting` and tries them one at a time, most
 * recent first, ending `connected` if one succeeds, else `disconnected` with no connections. The user
 * connects from `disconnected` through `prompting` (the wallet asks) and `failed` (declined, may retry).
 * A wallet picked while still (re)connecting, or while connected, is prompted at once; a connection that
 * exists stays in the context until the new one succeeds, and comes back if the user gives up.
 *
 * Effects are named actions the runtime implements: `reconnect` and `prompt` start wallet calls whose
 * outcome comes back as events tagged with `attempt`, so a late answer to an abandoned call is ignored.
 */
import type { Caip, PageWallet, Status } from '@airlock/bridge-protocol'
import { assign, type SnapshotFrom, setup } from 'xstate'

export type Account = {
  address: string
  /** Wallet Standard accounts carry their public key; EIP-1193 ones do not. */
  publicKey?: Uint8Array | undefined
  /** Wallet Standard chain names the wallet gave for the account. */
  chains?: string[] | undefined
}

/** A live connection: the page wallet, its accounts (first is active) and the chain it is on. */
export type Connection = { wallet: PageWallet; accounts: Account[]; chainId: Caip.ChainId }

/** Why the last prompt failed, as the wallet said it. */
export type Failure = { code: number; message: string }

export type ConnectionContext = {
  namespace: Caip.Namespace
  /** Stored wallets still to try while reconnecting, most recent first. */
  candidates: PageWallet[]
  /** Increases with every wallet call, so answers to older calls are told apart. */
  attempt: number
  connection?: Connection | undefined
  /** The wallet being (or last) prompted, and why it failed. */
  prompt?: { wallet: PageWallet; failure?: Failure | undefined } | undefined
}

export type ConnectionEvent =
  /** Startup: the stored connectors found on the page, most recent first. */
  | { type: 'RECONNECT'; candidates: PageWallet[] }
  | { type: 'CONNECT'; wallet: PageWallet }
  | { type: 'RETRY' }
  /** The user left the prompt (closed the modal or went back). */
  | { type: 'CANCEL' }
  | { type: 'SUCCEEDED'; attempt: number; connection: Connection }
  | { type: 'FAILED'; attempt: number; failure: Failure }
  | { type: 'ACCOUNTS_CHANGED'; accounts: Account[] }
  | { type: 'CHAIN_CHANGED'; chainId: Caip.ChainId }
  /** The user or the dApp disconnected, or the wallet did. */
  | { type: 'DISCONNECT' }

export type ConnectionInput = { namespace: Caip.Namespace }

const current = ({ context, event }: { context: ConnectionContext; event: ConnectionEvent }) =>
  (event.type === 'SUCCEEDED' || event.type === 'FAILED') && event.attempt === context.attempt

/** A wallet call's parameters: the wallet, and the attempt its answer must match. */
const ask =
  (walletOf: (context: ConnectionContext) => PageWallet) =>
  ({ context }: { context: ConnectionContext }) => ({ wallet: walletOf(context), attempt: context.attempt })

export const machine = setup({
  types: {} as { context: ConnectionContext; events: ConnectionEvent; input: ConnectionInput },
  actions: {
    /** Ask a stored wallet, without a prompt, for its accounts. */
    reconnect: (_, _params: { wallet: PageWallet; attempt: number }) => {},
    /** Ask a wallet to connect; the wallet may prompt the user. */
    prompt: (_, _params: { wallet: PageWallet; attempt: number }) => {},
    /** Store the wallet as this namespace's connection and as a recent wallet. */
    remember: (_, _params: { wallet: PageWallet }) => {},
    /** Drop this namespace's stored connections. */
    forget: () => {},
    /**
     * The user picked a wallet. Entering `prompting` bumps the attempt, so a reconnect still under way is
     * abandoned: its late answer no longer matches and is ignored.
     */
    choose: assign(({ event }) =>
      event.type === 'CONNECT' ? { prompt: { wallet: event.wallet }, candidates: [] } : {},
    ),
    /** The user gave up: back to the connection there was, if any. */
    giveUp: assign({ prompt: undefined }),
    /** Every wallet call gets a new attempt number. */
    next: assign(({ context }) => ({ attempt: context.attempt + 1 })),
  },
  guards: {
    current,
    moreCandidates: ({ context, event }) => current({ context, event }) && context.candidates.length > 1,
    noAccounts: ({ event }) => event.type === 'ACCOUNTS_CHANGED' && event.accounts.length === 0,
    hasConnection: ({ context }) => context.connection !== undefined,
  },
}).createMachine({
  id: 'connection',
  context: ({ input }) => ({ namespace: input.namespace, candidates: [], attempt: 0 }),
  initial: 'connecting',
  states: {
    connecting: {
      on: {
        RECONNECT: [
          {
            guard: ({ event }) => event.candidates.length > 0,
            target: 'reconnecting',
            actions: assign({ candidates: ({ event }) => event.candidates }),
          },
          { target: 'disconnected' },
        ],
        CONNECT: { target: 'prompting', actions: 'choose' },
      },
    },
    reconnecting: {
      entry: ['next', { type: 'reconnect', params: ask((context) => context.candidates[0] as PageWallet) }],
      on: {
        SUCCEEDED: {
          guard: 'current',
          target: 'connected',
          actions: [
            assign({ connection: ({ event }) => event.connection, candidates: [] }),
            { type: 'remember', params: ({ event }) => ({ wallet: event.connection.wallet }) },
          ],
        },
        FAILED: [
          {
            guard: 'moreCandidates',
            target: 'reconnecting',
            reenter: true,
            actions: assign({ candidates: ({ context }) => context.candidates.slice(1) }),
          },
          { guard: 'current', target: 'disconnected', actions: [assign({ candidates: [] }), 'forget'] },
        ],
        CONNECT: { target: 'prompting', actions: 'choose' },
      },
    },
    disconnected: {
      entry: assign({ connection: undefined }),
      on: {
        CONNECT: { target: 'prompting', actions: 'choose' },
      },
    },
    prompting: {
      entry: [
        'next',
        { type: 'prompt', params: ask((context) => (context.prompt as { wallet: PageWallet }).wallet) },
      ],
      on: {
        SUCCEEDED: {
          guard: 'current',
          target: 'connected',
          actions: [
            assign({ connection: ({ event }) => event.connection, prompt: undefined }),
            // The new connection replaces whatever was stored for the namespace.
            'forget',
            { type: 'remember', params: ({ event }) => ({ wallet: event.connection.wallet }) },
          ],
        },
        FAILED: {
          guard: 'current',
          target: 'failed',
          actions: assign({
            prompt: ({ context, event }) => context.prompt && { ...context.prompt, failure: event.failure },
          }),
        },
        CONNECT: { target: 'prompting', reenter: true, actions: 'choose' },
        CANCEL: [
          { guard: 'hasConnection', target: 'connected', actions: 'giveUp' },
          { target: 'disconnected', actions: 'giveUp' },
        ],
      },
    },
    failed: {
      on: {
        RETRY: {
          target: 'prompting',
          actions: assign({ prompt: ({ context }) => context.prompt && { wallet: context.prompt.wallet } }),
        },
        CONNECT: { target: 'prompting', actions: 'choose' },
        CANCEL: [
          { guard: 'hasConnection', target: 'connected', actions: 'giveUp' },
          { target: 'disconnected', actions: 'giveUp' },
        ],
      },
    },
    connected: {
      on: {
        ACCOUNTS_CHANGED: [
          { guard: 'noAccounts', target: 'disconnected', actions: 'forget' },
          {
            actions: assign({
              connection: ({ context, event }) =>
                context.connection && {
                  ...context.connection,
                  accounts: withKnownKeys(event.accounts, context.connection),
                },
            }),
          },
        ],
        CHAIN_CHANGED: {
          actions: assign({
            connection: ({ context, event }) =>
              context.connection && { ...context.connection, chainId: event.chainId },
          }),
        },
        DISCONNECT: { target: 'disconnected', actions: 'forget' },
        CONNECT: { target: 'prompting', actions: 'choose' },
      },
    },
  },
})

export type ConnectionSnapshot = SnapshotFrom<typeof machine>

// Wallet events carry addresses only; keep the public keys learnt at connect for accounts still present.
function withKnownKeys(accounts: Account[], connection: Connection): Account[] {
  return accounts.map((account) => {
    if (account.publicKey) return account
    const known = connection.accounts.find((item) => item.address === account.address)
    return known?.publicKey ? { ...account, publicKey: known.publicKey } : account
  })
}

/**
 * The live connection: also while another wallet is being prompted to replace it, since it stays in use
 * until the new one succeeds. Every state without one clears it (`disconnected`'s entry).
 */
export function connectionOf(snapshot: ConnectionSnapshot): Connection | undefined {
  return snapshot.context.connection
}

/** The status the host mirrors; a prompt in progress counts as disconnected unless it replaces a connection. */
export function statusOf(snapshot: { value: unknown; context?: { connection?: unknown } }): Status {
  switch (snapshot.value) {
    case 'connecting':
      return 'connecting'
    case 'reconnecting':
      return 'reconnecting'
    case 'connected':
      return 'connected'
    default:
      return snapshot.context?.connection ? 'connected' : 'disconnected'
  }
}
