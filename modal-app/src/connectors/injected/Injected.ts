/**
 * The host-injected connector: a wallet that lives on the host page (EIP-6963 provider or Wallet Standard
 * wallet), driven through the bridge with `host.walletRequest`. One connect and one disconnect for every
 * namespace; everything else is forwarded unchanged by the modal.
 */
import { Caip, Errors, type PageWallet, Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Account, Connection } from '../../core/Connection.ts'
import { type Network, toCaip } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'

/** The host's API as the modal calls it. */
export type Host = Schema.Remote<Schema.HostApiContract>

/** Options of {@link connect}. */
export type ConnectOptions = {
  /** Reconnect: ask without a prompt (`eth_accounts`, `standard:connect { silent: true }`). */
  silent: boolean
  /** The configured networks, to pick the chain a Wallet Standard account is on. */
  networks: readonly Network[]
  /** The network to report when the wallet names none that is configured. */
  fallback?: Caip.ChainId | undefined
}

const evmAccounts = S.array(S.string(42, 42, /^0x[0-9a-fA-F]{40}$/), 32)
const hexChainId = S.string(18, 3, /^0x[0-9a-fA-F]{1,16}$/)

/**
 * Connects a page wallet and reads its accounts and chain. Fails when the wallet returns no account.
 * @example
 * const connection = await Injected.connect(host, wallet, { silent: true, networks })
 */
export async function connect(host: Host, wallet: PageWallet, options: ConnectOptions): Promise<Connection> {
  const ask = (request: Schema.Request) => host.walletRequest({ walletId: wallet.id, request })
  if (wallet.namespace === 'eip155') {
    const method = options.silent ? 'eth_accounts' : 'eth_requestAccounts'
    const addresses = parse(evmAccounts, await ask({ namespace: 'eip155', method }), method)
    if (addresses.length === 0) throw new Errors.UnauthorizedError()
    const chain = parse(hexChainId, await ask({ namespace: 'eip155', method: 'eth_chainId' }), 'eth_chainId')
    return {
      wallet,
      accounts: (await checksummed(addresses)).map((address) => ({ address })),
      chainId: `eip155:${BigInt(chain).toString()}`,
    }
  }
  // A reconnect must not pop up the wallet: both Wallet Standard connects take `silent`.
  const params = options.silent ? { params: { silent: true } } : {}
  const request: Schema.Request =
    wallet.namespace === 'solana'
      ? { namespace: 'solana', method: 'standard:connect', ...params }
      : { namespace: 'bip122', method: 'bitcoin:connect', ...params }
  const result = parse(Schema.connectResult, await ask(request), request.method)
  if (result.accounts.length === 0) throw new Errors.UnauthorizedError()
  const accounts: Account[] = result.accounts.map(({ address, publicKey, chains }) => ({
    address,
    publicKey,
    ...(chains ? { chains } : {}),
  }))
  const named = [...(result.accounts[0]?.chains ?? []), ...wallet.chains]
  return { wallet, accounts, chainId: pickChain(wallet.namespace, named, options) }
}

/**
 * EIP-55 checksummed addresses. Wallets may answer in lowercase (MetaMask does); dApps compare against the
 * checksummed form. The checksum needs keccak-256, so it loads on first use, off the first chunk.
 */
export async function checksummed(addresses: readonly string[]): Promise<string[]> {
  const { checksumEvmAddress, isEvmAddress } = await import('@airlock/bridge-protocol/Address')
  return addresses.map((address) => (isEvmAddress(address) ? checksumEvmAddress(address) : address))
}

/**
 * The addresses of a wallet's `accountsChanged`, checked as strictly as a connect's answer (EVM: 40 hex
 * digits, then checksummed; Solana: base58). Undefined when any address is malformed.
 */
export async function changedAccounts(
  namespace: Caip.Namespace,
  accounts: readonly string[],
): Promise<string[] | undefined> {
  if (namespace === 'eip155') {
    const parsed = S.parse(evmAccounts, accounts)
    return parsed.ok ? checksummed(parsed.value) : undefined
  }
  if (namespace === 'solana') {
    const { isSolanaAddress } = await import('@airlock/bridge-protocol/Address')
    return accounts.every((address) => isSolanaAddress(address)) ? [...accounts] : undefined
  }
  return [...accounts]
}

/** Ends a connection on the wallet's side. EIP-1193 wallets have no disconnect, so only the modal forgets. */
export async function disconnect(host: Host, connection: Connection): Promise<void> {
  const { namespace, id } = connection.wallet
  if (namespace === 'eip155') return
  await host.walletRequest({ walletId: id, request: { namespace, method: 'standard:disconnect' } })
}

// A namespace's mainnet, as wallets name it; `toCaip` reads each.
const mainnets: Record<Caip.Namespace, string> = {
  eip155: 'eip155:1',
  solana: 'solana:mainnet',
  bip122: 'bitcoin:mainnet',
}

/** The chain to report for a Wallet Standard account: the first configured chain the wallet names. */
function pickChain(
  namespace: Caip.Namespace,
  chains: readonly string[],
  options: Pick<ConnectOptions, 'networks' | 'fallback'>,
): Caip.ChainId {
  const ids = chains.map(toCaip).filter((id): id is Caip.ChainId => id?.startsWith(`${namespace}:`) ?? false)
  const configured = ids.find((id) => options.networks.some((network) => network.id === id))
  if (configured) return configured
  if (options.fallback?.startsWith(`${namespace}:`)) return options.fallback
  const first = options.networks.find((network) => network.namespace === namespace)
  if (first) return first.id
  return ids[0] ?? (toCaip(mainnets[namespace]) as Caip.ChainId)
}

/** The Wallet Standard name of a chain (`solana:devnet`), or its CAIP-2 id when it has none. */
export function standardName(chainId: Caip.ChainId): string {
  return Caip.standardNameOf(chainId) ?? chainId
}

function parse<T>(shape: S.Shape<T>, value: unknown, method: string): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw new Errors.InternalError(texts.errors.unexpectedAnswer(method))
  return parsed.value
}
