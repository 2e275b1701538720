/**
 * The WalletConnect connector: a `@walletconnect/sign-client` inside the modal (its keys and sessions live
 * in the modal origin's storage, never on the host page). One session can carry eip155, solana and bip122
 * accounts at once. Requests arrive in the host providers' terms (EIP-1193, Wallet Standard); `Requests.ts`
 * translates them to WalletConnect's namespace methods, and the answers back.
 *
 * Loaded on demand: sign-client is large, and nothing in the first chunk needs it.
 */
import { Caip, Errors, Methods, type Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { SignClient } from '@walletconnect/sign-client'
import type { Account, Connection } from '../../core/Connection.ts'
import * as base58 from '../../shared/encoding/base58.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import * as Requests from './Requests.ts'
import * as SignClientStorage from './SignClientStorage.ts'
import * as WcWallet from './wallet.ts'

export type Options = {
  projectId: string
  relayUrl: string
  /** What the phone wallet shows about the site: the host page, as the modal saw it in the handshake. */
  metadata: { name: string; description: string; url: string; icons: string[] }
  /** Told about wallet-side changes to a session. */
  onEvent: (event: Event) => void
  /**
   * Keeps this client's keys and sessions apart from others in the modal origin's storage: one per host
   * page, so a session paired on one site is never restored on another that shares the storage.
   */
  storagePrefix: string
}

/** The part of a session the modal uses. */
export type Session = {
  topic: string
  peer: { name: string; icons: string[]; url: string }
  /** CAIP-10 accounts, as the wallet approved them. */
  accounts: string[]
  /** The EVM methods the wallet approved (`wallet_sendCalls`, …); none when unknown. */
  methods?: string[]
  /** Epoch seconds. */
  expiry: number
}

export type Event =
  | { type: 'deleted'; topic: string }
  | { type: 'accountsChanged'; topic: string; namespace: Caip.Namespace; accounts: string[] }
  | { type: 'chainChanged'; topic: string; chainId: Caip.ChainId }
  | { type: 'updated'; session: Session }

export type Pairing = { uri: string; approval: Promise<Session> }

export type Client = {
  /** Proposes a session for the configured networks; `approval` settles when the wallet answers. */
  pair(networks: readonly Network[]): Promise<Pairing>
  /** The newest live session, restored from storage after a reload. */
  restore(): Session | undefined
  request(session: Session, request: Schema.Request, chainId: Caip.ChainId): Promise<unknown>
  disconnect(session: Session): Promise<void>
}

/**
 * What the modal asks wallets for, per namespace, in WalletConnect's names. EVM wallets take the EIP-1193
 * names: every method that needs the person's approval, and switching chains. Solana's and Bitcoin's are
 * WalletConnect's own translations of the Wallet Standard features.
 */
export const methods: Record<Caip.Namespace, string[]> = {
  eip155: [
    ...Methods.unsafe.filter((method) => !method.includes(':')),
    'wallet_switchEthereumChain',
    'wallet_addEthereumChain',
    // EIP-5792's reads: a wallet that batches answers them, and the modal passes its batches on.
    'wallet_getCapabilities',
    'wallet_getCallsStatus',
    'wallet_showCallsStatus',
    // EIP-7811: a wallet that discovers assets names them; the modal shows them beside the API's.
    'wallet_getAssets',
  ],
  solana: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'],
  bip122: ['signMessage', 'signPsbt', 'getAccountAddresses'],
}
const events: Record<Caip.Namespace, string[]> = {
  eip155: ['accountsChanged', 'chainChanged'],
  solana: ['accountsChanged'],
  bip122: ['accountsChanged', 'bip122_addressesChanged'],
}

/**
 * Starts a sign-client against the relay.
 * @example
 * const wc = await WalletConnect.create({ projectId, relayUrl, metadata, onEvent })
 * const { uri, approval } = await wc.pair(networks)
 */
export async function create(options: Options): Promise<Client> {
  const local = isLocal(options.relayUrl)
  const client = await SignClient.init({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    metadata: options.metadata,
    customStoragePrefix: options.storagePrefix,
    // Where the browser denies this frame storage, pairing still works; the session lasts the page load.
    ...((await indexedDbAllowed()) ? {} : { storage: SignClientStorage.memory() }),
    // No usage reports to a vendor: Airlock runs without anyone's cloud.
    telemetryEnabled: false,
  })
  // Verify attests the page's origin through WalletConnect's server; offline (a local relay) each call
  // would wait 5 s for it. With the public relay it stays on.
  if (local) (client.core.verify as unknown as { isDevEnv: boolean }).isDevEnv = true

  client.on('session_delete', ({ topic }) => options.onEvent({ type: 'deleted', topic }))
  client.on('session_expire', ({ topic }) => options.onEvent({ type: 'deleted', topic }))
  client.on('session_update', ({ topic }) => {
    const session = client.session.getAll().find((item) => item.topic === topic)
    if (session) options.onEvent({ type: 'updated', session: toSession(session) })
  })
  client.on('session_event', ({ topic, params }) => {
    const { name, data } = params.event as { name: string; data: unknown }
    const chainId = params.chainId
    if (name === 'chainChanged') {
      const id = toChainId(chainId, data)
      if (id) options.onEvent({ type: 'chainChanged', topic, chainId: id })
      return
    }
    if (name === 'accountsChanged' || name === 'bip122_addressesChanged') {
      const namespace = chainId.split(':')[0]
      if (!Caip.isNamespace(namespace)) return
      const accounts = S.parse(S.array(S.string(200), 64), data)
      if (accounts.ok)
        options.onEvent({
          type: 'accountsChanged',
          topic,
          namespace,
          accounts: accounts.value.map((account) => account.split(':').at(-1) ?? account),
        })
    }
  })

  return {
    async pair(networks) {
      const optionalNamespaces = Object.fromEntries(
        Caip.namespaces.flatMap((namespace) => {
          const chains = networks.filter((network) => network.namespace === namespace).map((n) => n.id)
          if (chains.length === 0) return []
          return [[namespace, { chains, methods: methods[namespace], events: events[namespace] }]]
        }),
      )
      // WalletConnect recommends optional namespaces only: a wallet approves what it supports.
      const { uri, approval } = await client.connect({ optionalNamespaces })
      if (!uri) throw new Errors.InternalError(texts.walletConnect.noUri)
      return { uri, approval: approval().then(toSession) }
    },
    restore() {
      const now = Date.now() / 1000
      const live = client.session.getAll().filter((session) => session.expiry > now)
      const newest = live.sort((a, b) => b.expiry - a.expiry)[0]
      return newest && toSession(newest)
    },
    async request(session, request, chainId) {
      const call = Requests.toWalletConnect(request, chainId)
      const result = await client
        .request({ topic: session.topic, chainId, request: { method: call.method, params: call.params } })
        .catch((error: unknown) => {
          throw toBaseError(error)
        })
      return call.result(result)
    },
    async disconnect(session) {
      await client.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
  }
}

/**
 * The connection a session gives a namespace: its accounts there (first is active) on the first configured
 * chain the wallet approved, else on `fallback`. Undefined when the wallet approved nothing there.
 */
export function connectionOf(
  session: Session,
  namespace: Caip.Namespace,
  networks: readonly Network[],
  fallback?: Caip.ChainId,
): Connection | undefined {
  const entries = session.accounts.flatMap((id) => {
    if (!Caip.isAccountId(id)) return []
    const { namespace: ns, reference, address } = Caip.parseAccountId(id)
    return ns === namespace ? [{ chainId: `${ns}:${reference}` as Caip.ChainId, address }] : []
  })
  if (entries.length === 0) return undefined
  const configured = (id: string) => networks.some((network) => network.id === id)
  const chainId =
    (fallback && entries.some((entry) => entry.chainId === fallback) ? fallback : undefined) ??
    entries.find((entry) => configured(entry.chainId))?.chainId ??
    (entries[0] as { chainId: Caip.ChainId }).chainId
  const addresses = [...new Set(entries.map((entry) => entry.address))]
  const accounts: Account[] = addresses.map((address) => ({
    address,
    // Wallet Standard accounts carry a public key; a Solana address is one.
    ...(namespace === 'solana' ? { publicKey: safeBase58(address) } : {}),
  }))
  return {
    wallet: WcWallet.of(namespace, session.peer.name || undefined),
    accounts,
    chainId,
  }
}

/** A sign-client session as the modal keeps it. */
function toSession(struct: {
  topic: string
  expiry: number
  peer: { metadata: { name: string; icons: string[]; url: string } }
  namespaces: Record<string, { accounts: string[]; methods?: string[] }>
}): Session {
  return {
    topic: struct.topic,
    expiry: struct.expiry,
    peer: {
      name: struct.peer.metadata.name,
      icons: struct.peer.metadata.icons,
      url: struct.peer.metadata.url,
    },
    accounts: Object.values(struct.namespaces).flatMap((namespace) => namespace.accounts),
    methods: struct.namespaces.eip155?.methods ?? [],
  }
}

function toChainId(eventChain: string, data: unknown): Caip.ChainId | undefined {
  const namespace = eventChain.split(':')[0]
  if (namespace === 'eip155' && (typeof data === 'number' || typeof data === 'string')) {
    const id = `eip155:${BigInt(data).toString()}`
    return Caip.isChainId(id) ? id : undefined
  }
  if (typeof data === 'string' && Caip.isChainId(data)) return data
  return Caip.isChainId(eventChain) ? eventChain : undefined
}

/** Wallet errors keep their code (4001 stays 4001); sign-client's own become internal errors. */
function toBaseError(error: unknown): Errors.BaseError {
  const code = Errors.codeOf(error)
  const text = Errors.messageOf(error, texts.errors.fallback)
  // 5000 is WalletConnect's own 'user rejected'.
  if (code === 4001 || code === 5000) return new Errors.UserRejectedRequestError(text)
  if (code !== undefined) return Errors.fromWire({ code, message: text })
  return new Errors.InternalError(text)
}

/** Whether this frame may open IndexedDB, where sign-client keeps its keys and sessions by default. */
function indexedDbAllowed(): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open('airlock-probe')
      request.onsuccess = () => {
        request.result.close()
        resolve(true)
      }
      request.onerror = () => resolve(false)
    } catch {
      resolve(false)
    }
  })
}

function isLocal(relayUrl: string): boolean {
  try {
    const { hostname } = new URL(relayUrl)
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
  } catch {
    return false
  }
}

function safeBase58(text: string): Uint8Array | undefined {
  try {
    return base58.decode(text)
  } catch {
    return undefined
  }
}
