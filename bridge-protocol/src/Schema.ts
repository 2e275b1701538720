/**
 * The contract between host and modal: every method each side exposes, with runtime schemas for its
 * argument and its result. Both sides parse what they receive through these, once, at the boundary.
 */
import * as v from 'valibot'
import { isAccountId, isChainId, namespaces } from './Caip.ts'

/** Bumped on any change a peer of the previous version would misread. Peers must agree on it. */
export const protocolVersion = 1

const bytes = v.instance(Uint8Array)
const text = (max: number) => v.pipe(v.string(), v.maxLength(max))
const chainId = v.pipe(v.string(), v.check<string, string>(isChainId, 'Invalid CAIP-2 network id'))
const accountId = v.pipe(v.string(), v.check<string, string>(isAccountId, 'Invalid CAIP-10 address'))
const address = v.pipe(v.string(), v.minLength(1), v.maxLength(128))
// An icon is shown with <img>, where scripts never run; still only data: images and http(s) are accepted.
const icon = v.pipe(v.string(), v.maxLength(200_000), v.regex(/^(data:image\/|https?:\/\/)/))

export const namespace = v.picklist(namespaces)

/** Views of SPEC §2 plus Networks, which lists the configured networks. */
export const views = [
  'Connect',
  'Account',
  'Networks',
  'UnsupportedChain',
  'AllWallets',
  'ConnectingExternal',
  'ConnectingWalletConnectBasic',
  'ConnectingSiwe',
  'SIWXSignMessage',
  'ApproveTransaction',
] as const
export const view = v.picklist(views)
export type View = (typeof views)[number]

export const status = v.picklist(['connecting', 'reconnecting', 'connected', 'disconnected'])
export type Status = v.InferOutput<typeof status>

const account = v.object({ address, publicKey: v.optional(bytes) })
const namespaceState = v.object({ chainId, accounts: v.pipe(v.array(account), v.maxLength(32)) })

/** What the modal tells the host about itself; the host mirrors it read-only. */
export const state = v.object({
  open: v.boolean(),
  view,
  status,
  caipAddress: v.optional(accountId),
  address: v.optional(address),
  caipNetworkId: v.optional(chainId),
  namespaces: v.object({
    eip155: v.optional(namespaceState),
    solana: v.optional(namespaceState),
    bip122: v.optional(namespaceState),
  }),
})
export type State = v.InferOutput<typeof state>
export type NamespaceState = v.InferOutput<typeof namespaceState>

// ---- Requests, one shape per namespace so nothing is EVM-shaped ----

const eip155Request = v.object({
  namespace: v.literal('eip155'),
  method: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  params: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
})

const connectParams = v.optional(v.object({ silent: v.optional(v.boolean()) }))
const signMessageParams = v.object({ address, message: v.pipe(bytes, v.maxLength(65_536)) })

const solanaRequest = v.variant('method', [
  v.object({ namespace: v.literal('solana'), method: v.literal('standard:connect'), params: connectParams }),
  v.object({ namespace: v.literal('solana'), method: v.literal('standard:disconnect') }),
  v.object({
    namespace: v.literal('solana'),
    method: v.literal('solana:signMessage'),
    params: signMessageParams,
  }),
  v.object({
    namespace: v.literal('solana'),
    method: v.literal('solana:signTransaction'),
    params: v.object({ address, transaction: bytes, chain: v.optional(text(64)) }),
  }),
  v.object({
    namespace: v.literal('solana'),
    method: v.literal('solana:signAndSendTransaction'),
    params: v.object({
      address,
      transaction: bytes,
      chain: text(64),
      options: v.optional(v.record(v.string(), v.unknown())),
    }),
  }),
])

const bip122Request = v.variant('method', [
  v.object({
    namespace: v.literal('bip122'),
    method: v.literal('bitcoin:connect'),
    params: v.optional(v.object({ purposes: v.optional(v.array(text(32))) })),
  }),
  v.object({ namespace: v.literal('bip122'), method: v.literal('standard:disconnect') }),
  v.object({
    namespace: v.literal('bip122'),
    method: v.literal('bitcoin:signMessage'),
    params: signMessageParams,
  }),
  v.object({
    namespace: v.literal('bip122'),
    method: v.literal('bitcoin:signTransaction'),
    params: v.object({
      psbt: bytes,
      inputsToSign: v.array(
        v.object({ address, signingIndexes: v.array(v.number()), sigHash: v.optional(v.number()) }),
      ),
      chain: v.optional(text(64)),
    }),
  }),
])

/** A request for a wallet, in the namespace's own terms (EIP-1193 or Wallet Standard features). */
export const request = v.variant('namespace', [eip155Request, solanaRequest, bip122Request])
export type Request = v.InferOutput<typeof request>
export type SolanaRequest = v.InferOutput<typeof solanaRequest>
export type Bip122Request = v.InferOutput<typeof bip122Request>
export type Eip155Request = v.InferOutput<typeof eip155Request>

/** Wallet Standard results, checked before the dApp sees them. */
export const connectResult = v.object({
  accounts: v.array(v.object({ address, publicKey: bytes, chains: v.optional(v.array(text(64))) })),
})
export const signMessageResult = v.object({ signedMessage: bytes, signature: bytes })
export const signTransactionResult = v.object({ signedTransaction: bytes })
export const signAndSendResult = v.object({ signature: bytes })
export const signPsbtResult = v.object({ signedPsbt: bytes })

/** The result schema for a request, so neither side passes on something its caller cannot use. */
export function resultOf(req: Request): v.GenericSchema {
  switch (req.method) {
    case 'standard:connect':
    case 'bitcoin:connect':
      return connectResult
    case 'solana:signMessage':
    case 'bitcoin:signMessage':
      return signMessageResult
    case 'solana:signTransaction':
      return signTransactionResult
    case 'solana:signAndSendTransaction':
      return signAndSendResult
    case 'bitcoin:signTransaction':
      return signPsbtResult
    case 'standard:disconnect':
      return v.undefined()
    default:
      return v.unknown()
  }
}

// Methods that show the user something (modal or wallet) and so have no time-out of their own.
const userMethods = new Set([
  'eth_requestAccounts',
  'wallet_requestPermissions',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_signTransaction',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_watchAsset',
  'standard:connect',
  'bitcoin:connect',
  'solana:signMessage',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
  'bitcoin:signMessage',
  'bitcoin:signTransaction',
])

/** True when a request waits for a person and must not time out on its own. */
export function needsUser(req: { method: string }): boolean {
  return userMethods.has(req.method)
}

// ---- Page wallets: the wallets that live on the host page ----

export const pageWallet = v.object({
  /** Chosen by the host per discovery (`eip6963:<uuid>`, `standard:<name>`); opaque to the modal. */
  id: text(200),
  namespace,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  icon,
  rdns: v.optional(text(128)),
  chains: v.pipe(v.array(text(64)), v.maxLength(64)),
})
export type PageWallet = v.InferOutput<typeof pageWallet>

export const walletEvent = v.variant('type', [
  v.object({ walletId: text(200), type: v.literal('accountsChanged'), accounts: v.array(address) }),
  v.object({ walletId: text(200), type: v.literal('chainChanged'), chainId: text(66) }),
  v.object({ walletId: text(200), type: v.literal('disconnect') }),
])
export type WalletEvent = v.InferOutput<typeof walletEvent>

// ---- The two APIs ----

type Method<I extends v.GenericSchema, O extends v.GenericSchema> = { input: I; output: O }
const method = <I extends v.GenericSchema, O extends v.GenericSchema>(input: I, output: O): Method<I, O> => ({
  input,
  output,
})
const nothing = v.optional(v.undefined())

/** What the modal exposes to the host. */
export const modalApi = {
  open: method(v.optional(v.object({ view: v.optional(view) })), nothing),
  close: method(nothing, nothing),
  request: method(request, v.unknown()),
  getState: method(nothing, state),
  disconnect: method(nothing, nothing),
  switchNetwork: method(v.object({ caipNetworkId: chainId }), nothing),
  walletsChanged: method(v.pipe(v.array(pageWallet), v.maxLength(64)), nothing),
  walletEvent: method(walletEvent, nothing),
  ping: method(nothing, v.literal('pong')),
}

/** What the host exposes to the modal. The host acts on a page wallet only when the modal asks. */
export const hostApi = {
  listWallets: method(nothing, v.pipe(v.array(pageWallet), v.maxLength(64))),
  walletRequest: method(v.object({ walletId: text(200), request }), v.unknown()),
  setState: method(state, nothing),
  resize: method(v.object({ height: v.pipe(v.number(), v.minValue(0), v.maxValue(10_000)) }), nothing),
  ping: method(nothing, v.literal('pong')),
}

export type Contract = Record<string, Method<v.GenericSchema, v.GenericSchema>>
export type ModalApiContract = typeof modalApi
export type HostApiContract = typeof hostApi

/** The implementation type for a contract: each method takes the parsed input and returns the output. */
export type Implementation<C extends Contract> = {
  [K in keyof C]: (
    input: v.InferOutput<C[K]['input']>,
  ) => v.InferInput<C[K]['output']> | Promise<v.InferInput<C[K]['output']>>
}

/** The caller's view of a contract: typed async functions. */
export type Remote<C extends Contract> = {
  [K in keyof C]: undefined extends v.InferInput<C[K]['input']>
    ? (input?: v.InferInput<C[K]['input']>) => Promise<v.InferOutput<C[K]['output']>>
    : (input: v.InferInput<C[K]['input']>) => Promise<v.InferOutput<C[K]['output']>>
}

export type ModalApi = Implementation<ModalApiContract>
export type HostApi = Implementation<HostApiContract>

// ---- Handshake messages (the only traffic outside the private port) ----

export const hello = v.object({
  type: v.literal('airlock:hello'),
  version: v.number(),
  projectId: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
})
export type Hello = v.InferOutput<typeof hello>

export const handshakeReply = v.variant('type', [
  v.object({ type: v.literal('airlock:welcome'), version: v.number() }),
  v.object({ type: v.literal('airlock:refused'), code: v.number(), message: text(500) }),
])
export type HandshakeReply = v.InferOutput<typeof handshakeReply>
