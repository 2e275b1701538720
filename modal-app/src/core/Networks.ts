/**
 * The configured networks and the one the modal shows. Until the network registry has loaded, the
 * configured ids stand in for it, so the namespaces are known from the first render.
 */
import { Caip } from '@airlock/bridge-protocol'
import type { Network } from '../shared/Network.ts'
import type { Connection } from './Connection.ts'
import type { Storage } from './Storage.ts'

/** The network registry (`shared/networks.ts`), loaded on demand. */
export type Registry = {
  resolve(
    ids: readonly string[],
    options: { rpcUrls?: Readonly<Record<string, string>> | undefined },
  ): Network[]
}

export type Networks = ReturnType<typeof create>

export function create(options: {
  ids: readonly string[]
  storage: Storage
  connectionOf: (namespace: Caip.Namespace) => Connection | undefined
  changed: () => void
}) {
  const { storage, connectionOf } = options
  let list: Network[] = []
  let resolved = false
  let activeId: Caip.ChainId | undefined

  const configured = (id: string | undefined) => list.find((network) => network.id === id)
  const namespaceOf = (id: Caip.ChainId | undefined) => (id ? Caip.parseChainId(id).namespace : undefined)

  /** The namespace whose account and network the modal shows: the active network's if connected. */
  function activeNamespace(): Caip.Namespace | undefined {
    const preferred = namespaceOf(activeId)
    if (preferred && connectionOf(preferred)) return preferred
    return Caip.namespaces.find((namespace) => connectionOf(namespace)) ?? preferred ?? list[0]?.namespace
  }

  return {
    list: () => list,
    configured,
    /** The namespaces at least one configured network belongs to. */
    namespaces: () =>
      new Set<Caip.Namespace>(
        resolved
          ? list.map((network) => network.namespace)
          : options.ids.filter(Caip.isChainId).map((id) => Caip.parseChainId(id).namespace),
      ),
    /**
     * Networks the registry does not know are dropped, which may leave no namespace configured. The chosen
     * network is read from storage here.
     */
    resolve(networks: Network[]) {
      list = networks
      resolved = true
      // Read now, not at creation: a host that keeps the modal's state hands it over after the handshake.
      activeId ??= storage.getActiveNetwork()
      if (!configured(activeId)) activeId = undefined
    },
    activeId: () => activeId,
    activeNamespace,
    /** The network of the active account, else the chosen one, else the first configured. */
    current(): Caip.ChainId | undefined {
      const namespace = activeNamespace()
      const connection = namespace && connectionOf(namespace)
      if (connection) return connection.chainId
      return configured(activeId)?.id ?? list[0]?.id
    },
    /** The chain `eth_chainId` answers: the EVM account's, else the chosen or first EVM network. */
    evmChainId(): Caip.ChainId | undefined {
      const connection = connectionOf('eip155')
      if (connection) return connection.chainId
      const active = configured(activeId)
      if (active?.namespace === 'eip155') return active.id
      return list.find((network) => network.namespace === 'eip155')?.id
    },
    setActive(id: Caip.ChainId | undefined) {
      if (!id || id === activeId) return
      activeId = id
      storage.setActiveNetwork(id)
      options.changed()
    },
    /** Whether the chosen network is of the namespace. */
    isActiveIn: (namespace: Caip.Namespace) => activeId?.startsWith(`${namespace}:`) ?? false,
    namespaceOf,
  }
}
