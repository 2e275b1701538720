/**
 * The contract between host and modal: every method each side exposes, with runtime schemas for its
 * argument and its result. Both sides parse what they receive through these, once, at the boundary.
 */
import { invalidAccountId, invalidChainId, isAccountId, isChainId, namespaces } from './Caip.ts'
import { payment, transactionHash } from './Payment.ts'
import * as S from './Shape.ts'
import type { PublicView } from './Views.ts'

export { type Payment, payment, payTexts, transactionHash } from './Payment.ts'

/** A protocol version. Peers of one major always understand each other, whatever their minors. */
export type Version = { major: number; minor: number }
/** The versions a build speaks, oldest to newest. */
export type VersionRange = { min: Version; max: Version }

/**
 * The versions this build speaks. Bump `max.minor` for anything an older peer of the same major would
 * ignore or answer with a typed error (a new view name, an optional field, a new method); bump the major,
 * and so refuse every older peer, only for a change an older peer would misread. A build that still speaks
 * the previous major keeps `min` there.
 * - 1.0: the first protocol.
 * - 1.1: views travel as names (an unknown one gets `Errors.unknownView`), and peers announce their range.
 * - 1.2: the host keeps the modal's remembered state (`storageRead`, `storageWrite`) for a modal whose
 *   browser denies it storage of its own, as browsers that block third-party storage do.
 * - 1.3: `pay`, a payment the dApp asks the visitor for (an older modal answers it with a typed error).
 * - 1.4: the state names the connected wallet, the network, the account's profile and native balance
 *   (optional fields an older host skips).
 * - 1.5: a Telegram mini-app's social login leaves the page and comes back (`leaveFor`, `socialResult`).
 */
export const protocolVersions: VersionRange = { min: { major: 1, minor: 0 }, max: { major: 1, minor: 5 } }

/** The oldest major this build speaks: hellos carry it in `version`, as every build has since 1.0. */
export const protocolVersion = protocolVersions.min.major

const text = (max: number) => S.string(max)
const chainId = S.check(S.string(80), isChainId, invalidChainId)
const accountId = S.check(S.string(220), isAccountId, invalidAccountId)
const address = S.string(128, 1)
// Only inline images: an http(s) icon would make the modal fetch a URL the page chose before the visitor
// did anything, and nothing may leave the modal before the visitor interacts with it. EIP-6963 and the
// Wallet Standard both require data URIs anyway.
const icon = S.string(200_000, 1, /^data:image\//)
const nothing = S.optional(S.literal(undefined))

export const namespace = S.picklist(namespaces)

/**
 * A view's name as it crosses the bridge: a short name, not a closed list, so that a peer newer than this
 * build may name a view this build has never heard of and get an answer (the modal's
 * `Errors.unknownView`) instead of a failed parse. Hosts may ask for and see only `Views.publicViews`.
 */
export const view: S.Shape<PublicView | (string & {})> = S.string(64, 1, /^[A-Za-z]+$/)

export const status = S.picklist(['connecting', 'reconnecting', 'connected', 'disconnected'])
export type Status = S.Infer<typeof status>

const account = S.object({ address, publicKey: S.optional(S.bytes(128)) })
const namespaceState = S.object({ chainId, accounts: S.array(account, 32) })

/** The longest signed sign-in message and signature a session may carry (the API refuses longer ones). */
export const signedMessageMax = 8192
export const signatureMax = 4096

/** A sign-in session as the host sees it: the signed message, and who signed it when. */
export const session = S.object({
  id: text(64),
  /** CAIP-10 account that signed in. */
  address: accountId,
  chainId,
  message: S.string(signedMessageMax, 1),
  signature: S.string(signatureMax, 1),
  /** RFC 3339 times, as in the message. */
  issuedAt: text(64),
  expiresAt: S.optional(text(64)),
  /**
   * The session's bearer token, issued once by the API: the dApp's backend checks it with
   * `POST /v1/sessions/verify`. The message and signature alone prove nothing: anyone may read them back.
   */
  token: S.string(128, 16),
})
export type Session = S.Infer<typeof session>

/** What the modal tells the host about itself; the host mirrors it read-only. */
/**
 * Who logged in to the embedded wallet (the product's embedded user, docs/behaviour.md §3): the email, the provider's handle, and how they
 * logged in. Present only while that wallet is connected.
 */
const user = S.object({
  email: S.optional(S.string(254, 3)),
  username: S.optional(S.string(256, 1)),
  authProvider: S.picklist(['email', 'google', 'github', 'apple', 'facebook', 'x', 'discord', 'farcaster']),
  /**
   * The social provider of a social login (docs/behaviour.md §3's `socialProvider`); absent for email and Farcaster. Optional,
   * so a host built before it still reads a newer modal's state, and a newer host an older modal's.
   */
  socialProvider: S.optional(S.picklist(['google', 'github', 'apple', 'facebook', 'x', 'discord'])),
  /** The account kind the wallet connects with: a smart account (ERC-4337 or EIP-7702) or the plain key. */
  preferredAccountType: S.picklist(['eoa', 'smartAccount']),
  /** Whether the smart account's code is on chain (docs/behaviour.md §3's smartAccountDeployed); absent for a plain key. */
  smartAccountDeployed: S.optional(S.boolean),
})

export const state = S.object({
  open: S.boolean,
  view,
  status,
  caipAddress: S.optional(accountId),
  address: S.optional(address),
  caipNetworkId: S.optional(chainId),
  namespaces: S.object({
    eip155: S.optional(namespaceState),
    solana: S.optional(namespaceState),
    bip122: S.optional(namespaceState),
  }),
  /** The active account's sign-in session, when sign-in is on and it signed in. */
  session: S.optional(session),
  user: S.optional(user),
  /** The active account's wallet (docs/behaviour.md §3's connectedWalletInfo), a page wallet's rdns too; old peers skip it. */
  wallet: S.optional(
    S.object({ name: S.string(64, 1), icon: S.optional(icon), rdns: S.optional(text(128)) }),
  ),
  /** The active network's name, as the modal lists it. */
  networkName: S.optional(S.string(100, 1)),
  /** The active account's name and avatar (docs/behaviour.md §3's profileName, profileImage), where it has them. */
  profile: S.optional(
    S.object({
      name: S.string(255, 1),
      image: S.optional(S.string(200_000, 1, /^(data:image\/|https:\/\/)/)),
    }),
  ),
  /** The active account's native balance (docs/behaviour.md §8's balance, balanceSymbol): base units, exact. */
  balance: S.optional(
    S.object({ value: S.string(80, 1, /^\d+$/), decimals: S.number(0, 255), symbol: S.string(20, 1) }),
  ),
})
export type State = S.Infer<typeof state>
export type NamespaceState = S.Infer<typeof namespaceState>

// ---- Requests, one shape per namespace so nothing is EVM-shaped ----

const eip155Request = S.object({
  namespace: S.literal('eip155'),
  method: S.string(128, 1),
  params: S.optional(S.union(S.array(S.unknown), S.record(S.unknown))),
})

const signMessage = S.object({ address, message: S.bytes(65_536) })
const connect = S.optional(S.object({ silent: S.optional(S.boolean) }))
const call = <N extends string, M extends string, P extends S.Shape<unknown>>(
  namespace: N,
  method: M,
  params: P,
) => S.object({ namespace: S.literal(namespace), method: S.literal(method), params })

const solanaRequest = S.variant('method', {
  'standard:connect': call('solana', 'standard:connect', connect),
  'standard:disconnect': call('solana', 'standard:disconnect', nothing),
  'solana:signMessage': call('solana', 'solana:signMessage', signMessage),
  'solana:signTransaction': call(
    'solana',
    'solana:signTransaction',
    S.object({ address, transaction: S.bytes(), chain: S.optional(text(64)) }),
  ),
  'solana:signAndSendTransaction': call(
    'solana',
    'solana:signAndSendTransaction',
    S.object({ address, transaction: S.bytes(), chain: text(64), options: S.optional(S.record(S.unknown)) }),
  ),
})

const bip122Request = S.variant('method', {
  'bitcoin:connect': call(
    'bip122',
    'bitcoin:connect',
    S.optional(S.object({ purposes: S.optional(S.array(text(32))), silent: S.optional(S.boolean) })),
  ),
  'standard:disconnect': call('bip122', 'standard:disconnect', nothing),
  'bitcoin:signMessage': call('bip122', 'bitcoin:signMessage', signMessage),
  'bitcoin:signTransaction': call(
    'bip122',
    'bitcoin:signTransaction',
    S.object({
      psbt: S.bytes(),
      inputsToSign: S.array(
        S.object({
          address,
          signingIndexes: S.array(S.number(0, 1e6)),
          sigHash: S.optional(S.number(0, 255)),
        }),
      ),
      chain: S.optional(text(64)),
    }),
  ),
})

/** A request for a wallet, in the namespace's own terms (EIP-1193 or Wallet Standard features). */
export const request = S.variant('namespace', {
  eip155: eip155Request,
  solana: solanaRequest,
  bip122: bip122Request,
})
export type Request = S.Infer<typeof request>
export type Eip155Request = S.Infer<typeof eip155Request>
export type SolanaRequest = S.Infer<typeof solanaRequest>
export type Bip122Request = S.Infer<typeof bip122Request>

/** Wallet Standard results, checked before the dApp sees them. */
export const connectResult = S.object({
  accounts: S.array(
    S.object({ address, publicKey: S.bytes(128), chains: S.optional(S.array(text(64))) }),
    32,
  ),
})
const signatureResults = {
  'solana:signMessage': S.object({ signedMessage: S.bytes(), signature: S.bytes(128) }),
  'solana:signTransaction': S.object({ signedTransaction: S.bytes() }),
  'solana:signAndSendTransaction': S.object({ signature: S.bytes(128) }),
  'bitcoin:signTransaction': S.object({ signedPsbt: S.bytes() }),
} as const

/** The result shape of a request, so neither side passes on something its caller cannot use. */
export function resultOf(req: { method: string; namespace: string }): S.Shape<unknown> {
  if (req.namespace === 'eip155') return S.unknown
  if (req.method === 'standard:disconnect') return nothing
  if (req.method.endsWith(':connect')) return connectResult
  if (req.method === 'bitcoin:signMessage') return signatureResults['solana:signMessage']
  return signatureResults[req.method as keyof typeof signatureResults] ?? S.unknown
}

// ---- Page wallets: the wallets that live on the host page ----

export const pageWallet = S.object({
  /** Chosen by the host per discovery (`eip6963:<uuid>`, `standard:<n>`); opaque to the modal. */
  id: text(200),
  namespace,
  name: S.string(64, 1),
  icon,
  rdns: S.optional(text(128)),
  chains: S.array(text(64), 64),
  /** Handed to the host SDK by the dApp (`externalWallets`) rather than found on the page: Connect's `external` group. */
  external: S.optional(S.literal(true)),
})
export type PageWallet = S.Infer<typeof pageWallet>

const walletId = text(200)
export const walletEvent = S.variant('type', {
  accountsChanged: S.object({ walletId, type: S.literal('accountsChanged'), accounts: S.array(address, 32) }),
  chainChanged: S.object({ walletId, type: S.literal('chainChanged'), chainId: text(66) }),
  disconnect: S.object({ walletId, type: S.literal('disconnect') }),
})
export type WalletEvent = S.Infer<typeof walletEvent>

// ---- The two APIs ----

type Method<I, O> = { input: S.Shape<I>; output: S.Shape<O> }
const method = <I, O>(input: S.Shape<I>, output: S.Shape<O>): Method<I, O> => ({ input, output })

/** What the modal exposes to the host. */
export const modalApi = {
  open: method(S.optional(S.object({ view: S.optional(view) })), nothing),
  close: method(nothing, nothing),
  request: method(request, S.unknown),
  getState: method(nothing, state),
  disconnect: method(nothing, nothing),
  switchNetwork: method(S.object({ caipNetworkId: chainId }), nothing),
  walletsChanged: method(S.array(pageWallet, 64), nothing),
  walletEvent: method(walletEvent, nothing),
  /** Forgets the sign-in sessions of the connected accounts in this browser. */
  signOut: method(nothing, nothing),
  ping: method(nothing, S.literal('pong')),
  /**
   * Since 1.3: shows the payment; resolves with the transaction's hash once it is confirmed on chain. Off
   * unless the host switched `features.pay` on; closing the modal rejects with 4001.
   */
  pay: method(payment, transactionHash),
}

/** A key of the modal's remembered state; never `__proto__`, which a plain object would not keep. */
const storageKey = S.string(64, 1, /^(?!__proto__$)[\w-]+$/)
/** At most this much of the modal's state is kept on the host page, so a modal cannot fill its storage. */
export const hostStorageMax = 65_536
/** At most this many keys, so what the host keeps always reads back. */
export const hostStorageKeys = 32

/** What the host exposes to the modal. The host acts on a page wallet only when the modal asks. */
export const hostApi = {
  listWallets: method(nothing, S.array(pageWallet, 64)),
  walletRequest: method(S.object({ walletId, request }), S.unknown),
  setState: method(state, nothing),
  resize: method(S.object({ height: S.number(0, 10_000) }), nothing),
  ping: method(nothing, S.literal('pong')),
  /**
   * Since 1.2: the modal's remembered state kept in the host page's storage (the page can read it, so the
   * modal keeps nothing secret there). What the page wrote is the page's word: the modal parses it as such.
   */
  storageRead: method(nothing, S.record(S.string(hostStorageMax), hostStorageKeys)),
  storageWrite: method(S.object({ key: storageKey, value: S.nullable(S.string(hostStorageMax)) }), nothing),
  /**
   * Since 1.5: a social login in a Telegram mini-app, where no window opens beside the page, leaves the page
   * for `url` (the API's start). The host goes there only in a mini-app, within the visitor's click, to an
   * http(s) URL, and names the page to come back to itself (`return`, its own address).
   */
  leaveFor: method(S.object({ url: S.string(4096, 1) }), nothing),
  /**
   * Since 1.5: the `result_uri` the page came back with, once (taken out of the address as the bridge starts).
   * The page's word: the modal trades it only with the binding it kept for its own login.
   */
  socialResult: method(nothing, S.optional(S.string(64, 1))),
}

// biome-ignore lint/suspicious/noExplicitAny: a contract is any record of methods; each keeps its own types.
export type Contract = Record<string, Method<any, any>>
export type ModalApiContract = typeof modalApi
export type HostApiContract = typeof hostApi

type In<M> = M extends Method<infer I, unknown> ? I : never
type Out<M> = M extends Method<unknown, infer O> ? O : never
type Awaitable<T> = T | Promise<T>
// biome-ignore lint/suspicious/noConfusingVoidType: a method whose result may be undefined may return nothing.
type Returns<T> = undefined extends T ? T | void : T

/** The implementation type for a contract: each method takes the parsed input and returns the output. */
export type Implementation<C extends Contract> = {
  [K in keyof C]: (input: In<C[K]>) => Awaitable<Returns<Out<C[K]>>>
}

/** The caller's view of a contract: typed async functions. */
export type Remote<C extends Contract> = {
  [K in keyof C]: undefined extends In<C[K]>
    ? (input?: In<C[K]>) => Promise<Out<C[K]>>
    : (input: In<C[K]>) => Promise<Out<C[K]>>
}

export type ModalApi = Implementation<ModalApiContract>
export type HostApi = Implementation<HostApiContract>

// ---- Handshake messages (the only traffic outside the private port) ----

const integer = (max: number) =>
  S.check(S.number(0, max), Number.isInteger, `expected an integer in 0..${max}`)
const version = S.object({ major: integer(1000), minor: integer(1_000_000) })
/** A range as announced: `min` no newer than `max`. */
export const versionRange = S.check(
  S.object({ min: version, max: version }),
  ({ min, max }) => min.major < max.major || (min.major === max.major && min.minor <= max.minor),
  'expected min <= max',
)

// Never fails: a range this build cannot read counts as absent, so a hello still gets an answer naming
// both sides' versions rather than silence.
const announced: S.Shape<VersionRange | undefined> = (value) => {
  const parsed = S.parse(versionRange, value)
  return parsed.ok ? parsed.value : undefined
}

/**
 * The host's hello. Builds up to 1.0 send only `version` (then 1), and 1.0 modals check only `version`
 * and drop other keys; so `version` stays, and the range is an optional `versions` beside it.
 * - `version`: the oldest major the host speaks (`versions.min.major`), so a modal of that major accepts it
 *   even if it predates ranges.
 * - `versions`: the host's whole range. Without it the host speaks `version`.0 only.
 */
export const hello = S.object({
  type: S.literal('airlock:hello'),
  version: S.number(),
  projectId: S.string(128, 1),
  versions: announced,
})
export type Hello = S.Infer<typeof hello>

/**
 * The modal's answer on the port. Hosts up to 1.0 check only `type` in a welcome and drop other keys.
 * - welcome `version`: the major both sides now speak; `versions`: the modal's range, from which the host
 *   derives the same negotiated version the modal did (`Handshake.negotiate`). Only a host that announced
 *   its own range gets `versions`: a 1.0 host gets the 1.0 welcome word for word. A welcome without
 *   `versions` comes from a modal that speaks `version`.0 only.
 * - refused: an EIP-1193 code, a message for the developer naming the cause (both sides' ranges, the
 *   project, the page's origin) and, where there is one, how to fix it.
 */
export const handshakeReply = S.variant('type', {
  'airlock:welcome': S.object({
    type: S.literal('airlock:welcome'),
    version: S.number(),
    versions: announced,
  }),
  'airlock:refused': S.object({
    type: S.literal('airlock:refused'),
    code: S.number(),
    message: text(500),
    fix: S.optional(text(500)),
  }),
})
export type HandshakeReply = S.Infer<typeof handshakeReply>

/**
 * After a refusal the port stays open for this one message: the visitor closed the modal's alert, so the
 * host hides the frame (a refused page has no bridge to be told otherwise).
 */
export const dismissed = S.object({ type: S.literal('airlock:dismissed') })
