/**
 * The embedded wallet as a connector: one wallet per namespace (EVM and Solana, the product's auth connector, docs/behaviour.md §6), whose
 * key the runtime opens after a login. Reads go to the chain, unsafe requests through the visitor's approval,
 * anything else is refused as docs/behaviour.md §4 says ('Action not allowed').
 */
import { Caip, Errors, Methods, type PageWallet, type Request } from '@airlock/bridge-protocol'
import type * as Calls from '@airlock/bridge-protocol/Calls'
import type { Connection } from '../../core/Connection.ts'
import type { Connector, ConnectorContext } from '../Connector.ts'
import type { Wallet } from './Vault.ts'
import { viewTexts } from './viewTexts.ts'

export const id = 'embedded'
const rdns = 'dev.airlock.embedded'
/** The namespaces the embedded wallet has keys for (docs/behaviour.md §6: the auth connector supports eip155 and solana). */
const namespaces: readonly Caip.Namespace[] = ['eip155', 'solana']

const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%231f4ed8"/%3E%3Cpath d="M8 11h16v10H8z" fill="none" stroke="%23fff" stroke-width="2"/%3E%3Cpath d="m8 11 8 6 8-6" fill="none" stroke="%23fff" stroke-width="2"/%3E%3C/svg%3E'

/** The methods this wallet signs; others it refuses with 4200 (EIP-1193). */
const signs = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_sendCalls',
  'solana:signMessage',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
] as const

function canSign(method: string): boolean {
  return (signs as readonly string[]).includes(method)
}

/** The embedded wallet of a namespace, as the core lists and stores wallets. */
function walletOf(namespace: Caip.Namespace): PageWallet {
  return { id, namespace, name: viewTexts.walletName, icon, rdns, chains: [] }
}

/** What the runtime lends the connector. */
export type Hooks = {
  /** The wallet opened by a login in this page load, if any. */
  wallet(): Wallet | undefined
  /** Opens the wallet of a session kept from an earlier load; undefined when there is none to open. */
  restore(): Promise<Wallet | undefined>
  signOut(): Promise<void>
  read(chainId: Caip.ChainId, request: Request): Promise<unknown>
  /** Resolves with the request's result once the visitor approved and it was signed. */
  approve(request: Request, chainId: Caip.ChainId): Promise<unknown>
  notAllowed(): Promise<never>
  /** The EVM address dApps see on the chain: the smart account's, or the key's own. */
  address(chainId: Caip.ChainId): Promise<string | undefined>
  /** EIP-5792's capabilities on these chains; a chain left out gets the core's call-by-call batches. */
  capabilities(chainIds: readonly Caip.ChainId[]): Promise<Calls.Capabilities>
  callsStatus(request: Request): Promise<unknown>
  /** The product's refusal (docs/behaviour.md §8) of a method the account cannot serve (a smart account asked for a raw signature). */
  refuses(method: string, chainId: Caip.ChainId): Promise<Error | undefined>
}

export type Embedded = Connector & {
  /** A login opened the wallet: connects it in every configured namespace it has a key for. */
  approve(): void
  /** The EVM account changed (another account type): dApps are told its address. */
  accountChanged(): void
}

export function connector(context: ConnectorContext, hooks: Hooks): Embedded {
  let restoring: Promise<Wallet | undefined> | undefined
  const opened = async () => {
    const now = hooks.wallet()
    if (now) return now
    restoring ??= hooks.restore().finally(() => {
      restoring = undefined
    })
    return restoring
  }

  async function connectIn(wallet: PageWallet, fallback: Caip.ChainId | undefined): Promise<Connection> {
    const open = await opened()
    if (!open) throw new Errors.UnauthorizedError()
    const { namespace } = wallet
    const chainId = fallback ?? context.networks().find((network) => network.namespace === namespace)?.id
    if (!chainId || !namespaces.includes(namespace)) throw new Errors.UnsupportedChainError()
    const account =
      namespace === 'solana'
        ? { address: open.addresses.solana, publicKey: open.solanaKey }
        : { address: (await hooks.address(chainId as Caip.ChainId)) ?? open.addresses.eip155 }
    return { wallet, accounts: [account], chainId: chainId as Caip.ChainId }
  }

  /**
   * The EVM connection last begun. The host counts the wallet connected once any namespace is, and answers
   * a dApp's eth_accounts from that state: so the other namespaces, quick to connect, wait for it, whose
   * address may take chain reads (a smart account's). Connections begin EVM first, as `namespaces` lists.
   */
  let evm: Promise<Connection> | undefined

  return {
    id,
    type: 'AUTH',
    owns: (wallet) => wallet.id === id,
    announced: false,
    restore: (key, namespace) =>
      key.connector === id && namespaces.includes(namespace) ? walletOf(namespace) : undefined,
    connect(wallet, { fallback }) {
      const connect = () => connectIn(wallet, fallback)
      if (wallet.namespace === 'eip155') {
        evm = connect()
        return evm
      }
      // Begun once the EVM connection settled and the core took it (its reactions run first), so the core
      // never holds this namespace's connection without the EVM one begun before it.
      return evm ? evm.then(connect, connect) : connect()
    },
    async disconnect(_connection, others) {
      // One namespace let go keeps the login for the other; the last one ends the session.
      if (others.length === 0) await hooks.signOut()
    },
    async request(connection, request) {
      const { method } = request
      const kind = Methods.classify(method)
      if (kind === 'disallowed') return hooks.notAllowed()
      if (method === 'wallet_getCallsStatus') return hooks.callsStatus(request)
      if (request.namespace === 'eip155' && (kind === 'safe' || method === 'eth_estimateGas'))
        return hooks.read(connection.chainId, request)
      if (method === 'eth_accounts') return connection.accounts.map((account) => account.address)
      if (method === 'eth_chainId') return Caip.toHexChainId(connection.chainId)
      if (!canSign(method))
        throw (await hooks.refuses(method, connection.chainId)) ?? new Errors.UnsupportedMethodError()
      return hooks.approve(request, connection.chainId)
    },
    batches: {
      capabilities: (connection, address, chainIds) =>
        connection.accounts.some((account) => account.address.toLowerCase() === address.toLowerCase())
          ? hooks.capabilities(chainIds)
          : Promise.resolve({}),
      // The modal's calls view shows a batch's status.
      showsStatus: false,
    },
    accountChanged() {
      context.update('eip155', id, async () => {
        const chainId = context.connectionOf('eip155')?.chainId
        const address = chainId && (await hooks.address(chainId))
        return address ? { type: 'accountsChanged', accounts: [{ address }] } : undefined
      })
    },
    approve() {
      const approvedIn = new Set(context.namespaces())
      for (const namespace of namespaces) if (approvedIn.has(namespace)) context.approved(walletOf(namespace))
    },
  }
}
