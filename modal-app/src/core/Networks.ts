/**
 * The configured networks and the one the modal shows. Until the network registry has loaded, the
 * configured ids stand in for it, so the namespaces are known from the first render. Ids that neither the
 * registry nor the host's own networks know wait for the API to name them, which it is asked only once the
 * visitor opens the modal: nothing leaves the modal before that.
 */
import { Caip } from '@airlock/bridge-protocol'
import type { NamedChain, Network, Sources } from '../shared/Network.ts'
import type { Connection } from './Connection.ts'
import type { Storage } from './Storage.ts'

/** The network registry (`shared/networks.ts`), loaded on demand. */
export type Registry = {
  resolve(ids: readonly string[], options: Sources & { warn?: (message: string) => void }): Network[]
  find(id: string, sources: Sources): Network | undefined
}

export type Networks = ReturnType<typeof create>

export function create(options: {
  ids: readonly string[]
  storage: Storage
  connectionOf: (namespace: Caip.Namespace) => Connection | undefined
  changed: () => void
  /** The host's RPC overrides and its own networks. */
  sources?: Omit<Sources, 'chains'>
  /** The API's chains; without it, an id the registry does not know is skipped at once. */
  chains?: (() => Promise<readonly NamedChain[]>) | undefined
}) {
  const { storage, connectionOf } = options
  let registry: Registry | undefined
  let sources: Sources = { ...options.sources }
  let list: Network[] = []
  /** Configured ids still to be named by the API. */
  let pending: Caip.ChainId[] = []
  let naming: Promise<boolean> | undefined
  let activeId: Caip.ChainId | undefined
  /** The network chosen per namespace (the active one is the last chosen); not kept across reloads. */
  const chosen = new Map<Caip.Namespace, Caip.ChainId>()

  const configured = (id: string | undefined) => list.find((network) => network.id === id)
  const namespaceOf = (id: Caip.ChainId | undefined) => (id ? Caip.parseChainId(id).namespace : undefined)
  const firstIn = (namespace: Caip.Namespace) => list.find((network) => network.namespace === namespace)

  /** The namespace whose account and network the modal shows: the active network's if connected. */
  function activeNamespace(): Caip.Namespace | undefined {
    const preferred = namespaceOf(activeId)
    if (preferred && connectionOf(preferred)) return preferred
    return Caip.namespaces.find((namespace) => connectionOf(namespace)) ?? preferred ?? list[0]?.namespace
  }

  /** The namespace's network: its account's, else the one chosen there, else its first configured. */
  function currentIn(namespace: Caip.Namespace): Caip.ChainId | undefined {
    const connection = connectionOf(namespace)
    if (connection) return connection.chainId
    return configured(chosen.get(namespace))?.id ?? firstIn(namespace)?.id
  }

  function resolve(networks: Network[], unnamed: Caip.ChainId[]) {
    list = networks
    pending = unnamed
    // Read now, not at creation: a host that keeps the modal's state hands it over after the handshake.
    activeId ??= storage.getActiveNetwork()
    if (!configured(activeId) && !pending.includes(activeId as Caip.ChainId)) activeId = undefined
    const namespace = namespaceOf(activeId)
    if (activeId && namespace) chosen.set(namespace, activeId)
  }

  /** Asks the API for its chains and names the pending ids; answers whether it could. */
  async function nameWithApi(load: () => Promise<readonly NamedChain[]>): Promise<boolean> {
    try {
      sources = { ...sources, chains: await load() }
    } catch (error) {
      // Asked again at the next open: the API may have been down a moment.
      console.warn('[airlock] Could not ask the API which chains it serves.', error)
      return false
    }
    if (registry) resolve(registry.resolve(options.ids, sources), [])
    options.changed()
    return true
  }

  return {
    list: () => list,
    configured,
    /** A network any source knows, configured or not (to name the chain a wallet sits on). */
    known: (id: string) => configured(id) ?? registry?.find(id, sources),
    /** The namespaces at least one configured network belongs to (or may, once the API has named it). */
    namespaces: () =>
      new Set<Caip.Namespace>(
        registry
          ? [
              ...list.map((network) => network.namespace),
              ...pending.map((id) => Caip.parseChainId(id).namespace),
            ]
          : options.ids.filter(Caip.isChainId).map((id) => Caip.parseChainId(id).namespace),
      ),
    /**
     * Resolves the configured ids with the loaded registry and the host's networks. Networks no source knows
     * are dropped, which may leave no namespace configured; with an API to ask, they wait for {@link name}.
     * The chosen network is read from storage here.
     */
    load(loaded: Registry) {
      registry = loaded
      const networks = loaded.resolve(options.ids, {
        ...sources,
        // The API may still name them: warned about only once it could not.
        ...(options.chains ? { warn: () => {} } : {}),
      })
      const unnamed = options.ids.filter(
        (id): id is Caip.ChainId => Caip.isChainId(id) && !networks.some((network) => network.id === id),
      )
      resolve(networks, options.chains ? unnamed : [])
    },
    /**
     * Names the ids waiting for the API, asking it once (again after a failure). Called when the visitor
     * opens the modal; answers whether the configured networks changed.
     */
    name(): Promise<boolean> {
      const { chains } = options
      if (!chains || !registry || pending.length === 0) return Promise.resolve(false)
      naming ??= nameWithApi(chains).finally(() => {
        naming = undefined
      })
      return naming
    },
    activeId: () => activeId,
    activeNamespace,
    /** The namespace the dApp is on, connected or not: the chosen network's, else the first configured one's. */
    chosenNamespace: () => namespaceOf(activeId) ?? list[0]?.namespace,
    /** The network of the active account, else the chosen one, else the first configured. */
    current(): Caip.ChainId | undefined {
      const namespace = activeNamespace()
      const connection = namespace && connectionOf(namespace)
      if (connection) return connection.chainId
      return configured(activeId)?.id ?? list[0]?.id
    },
    currentIn,
    /** The chain `eth_chainId` answers: the EVM account's, else the chosen or first EVM network. */
    evmChainId: () => currentIn('eip155'),
    setActive(id: Caip.ChainId | undefined) {
      if (!id || id === activeId) return
      activeId = id
      chosen.set(Caip.parseChainId(id).namespace, id)
      storage.setActiveNetwork(id)
      options.changed()
    },
    /** Whether the chosen network is of the namespace. */
    isActiveIn: (namespace: Caip.Namespace) => activeId?.startsWith(`${namespace}:`) ?? false,
    namespaceOf,
  }
}
