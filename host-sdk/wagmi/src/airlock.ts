import { type Airlock, type AirlockOptions, createAirlock, type Eip1193Provider } from '@airlock/host-sdk'
import { ChainNotConfiguredError, createConnector } from '@wagmi/core'
import {
  type Address,
  getAddress,
  numberToHex,
  type ProviderConnectInfo,
  SwitchChainError,
  UserRejectedRequestError,
} from 'viem'

/**
 * Parameters of {@link airlock}: Airlock's options (one instance is created on the page), or an instance
 * created elsewhere, to share one modal with `<AirlockProvider airlock={…}>`.
 */
export type AirlockParameters = AirlockOptions | { airlock: Airlock }

/**
 * The same reverse-DNS name Airlock announces through EIP-6963: wagmi's multi-injected discovery skips an
 * announced provider whose `rdns` a configured connector already has, so Airlock is listed once.
 */
const rdns = 'dev.airlock'

type Listeners = {
  connect?: (info: ProviderConnectInfo) => void
  accountsChanged?: (accounts: string[]) => void
  chainChanged?: (chainId: string) => void
  disconnect?: () => void
}

/**
 * Airlock as a wagmi connector: `connect` opens the modal and resolves once the visitor connected a wallet
 * there (an extension, WalletConnect, email); requests go through Airlock's EIP-1193 provider; after a
 * reload wagmi reconnects to Airlock, whatever wallet the modal connected underneath.
 * @example
 * const config = createConfig({
 *   chains: [mainnet],
 *   connectors: [airlock({ projectId: 'demo', modalUrl: 'https://modal.example', networks: ['eip155:1'] })],
 *   transports: { [mainnet.id]: http() },
 * })
 */
export function airlock(parameters: AirlockParameters) {
  let instance: Airlock | undefined
  const listeners: Listeners = {}

  return createConnector<Eip1193Provider>((config) => {
    const listen = (
      provider: Eip1193Provider,
      event: keyof Listeners,
      listener: (...args: never[]) => void,
    ) => {
      if (listeners[event]) return
      Object.assign(listeners, { [event]: listener })
      provider.on(event, listener)
    }
    const unlisten = (provider: Eip1193Provider, event: keyof Listeners) => {
      const listener = listeners[event]
      if (!listener) return
      provider.removeListener(event, listener as (...args: never[]) => void)
      delete listeners[event]
    }

    return {
      id: rdns,
      name: 'Airlock',
      rdns,
      type: 'airlock',
      icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzFmNGVkOCIvPjxjaXJjbGUgY3g9IjE2IiBjeT0iMTYiIHI9IjciIGZpbGw9Im5vbmUiIHN0cm9rZT0iI2ZmZiIgc3Ryb2tlLXdpZHRoPSIzIi8+PC9zdmc+',

      async setup() {
        // A visitor may connect through the modal opened some other way (a <ConnectButton/>): wagmi hears it.
        listen(await this.getProvider(), 'connect', (info: ProviderConnectInfo) => this.onConnect?.(info))
      },

      async connect({ chainId, isReconnecting, withCapabilities } = {}) {
        const provider = await this.getProvider()
        try {
          const accounts = isReconnecting
            ? await this.getAccounts()
            : ((await provider.request({ method: 'eth_requestAccounts' })) as string[]).map((a) =>
                getAddress(a),
              )
          unlisten(provider, 'connect')
          listen(provider, 'accountsChanged', this.onAccountsChanged.bind(this))
          listen(provider, 'chainChanged', this.onChainChanged.bind(this))
          listen(provider, 'disconnect', this.onDisconnect.bind(this))

          let current = await this.getChainId()
          if (chainId && chainId !== current) {
            const chain = await this.switchChain?.({ chainId }).catch((error) => {
              if (error.code === UserRejectedRequestError.code) throw error
              return { id: current }
            })
            current = chain?.id ?? current
          }
          return {
            accounts: (withCapabilities
              ? accounts.map((address) => ({ address, capabilities: {} }))
              : accounts) as never,
            chainId: current,
          }
        } catch (error) {
          if ((error as { code?: number }).code === UserRejectedRequestError.code)
            throw new UserRejectedRequestError(error as Error)
          throw error
        }
      },

      async disconnect() {
        const provider = await this.getProvider()
        unlisten(provider, 'accountsChanged')
        unlisten(provider, 'chainChanged')
        unlisten(provider, 'disconnect')
        listen(provider, 'connect', (info: ProviderConnectInfo) => this.onConnect?.(info))
        await instance?.disconnect()
      },

      async getAccounts() {
        const provider = await this.getProvider()
        const accounts = (await provider.request({ method: 'eth_accounts' })) as string[]
        return accounts.map((a) => getAddress(a))
      },

      async getChainId() {
        const provider = await this.getProvider()
        return Number(await provider.request({ method: 'eth_chainId' }))
      },

      async getProvider() {
        if (!instance) {
          instance = 'airlock' in parameters ? parameters.airlock : createAirlock(parameters)
          // The page wallet the modal connected answers eth_accounts through its own EIP-6963 entry too, so
          // wagmi would reconnect it beside Airlock after a reload, and a dApp that disconnects Airlock would
          // land on it. Marked as disconnected in wagmi's storage (its injected connectors' own flag), it
          // stays behind Airlock; connecting it directly in wagmi clears the flag.
          const keepBehind = (state: ReturnType<Airlock['getState']>) => {
            const underneath = state.wallet?.rdns
            if (underneath && underneath !== rdns) config.storage?.setItem(`${underneath}.disconnected`, true)
          }
          keepBehind(instance.getState())
          instance.subscribeState(keepBehind)
        }
        return instance.providers.eip155
      },

      // eth_accounts waits for the modal's own reconnect, so a returning visitor is found whichever wallet
      // the modal connected underneath; that wallet's own connector is not what wagmi reconnects.
      async isAuthorized() {
        try {
          return (await this.getAccounts()).length > 0
        } catch {
          return false
        }
      },

      async switchChain({ chainId }) {
        const chain = config.chains.find((c) => c.id === chainId)
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
        const provider = await this.getProvider()
        if ((await this.getChainId()) === chainId) return chain
        // The mirror changes a moment after the modal answers: resolve once wagmi will see the new chain.
        const switched = new Promise<void>((resolve) => {
          const onChanged = (id: string) => {
            if (Number(id) !== chainId) return
            provider.removeListener('chainChanged', onChanged)
            resolve()
          }
          provider.on('chainChanged', onChanged)
        })
        try {
          await provider.request({
            method: 'wallet_switchEthereumChain',
            params: [{ chainId: numberToHex(chainId) }],
          })
          if ((await this.getChainId()) !== chainId) await switched
          return chain
        } catch (error) {
          if ((error as { code?: number }).code === UserRejectedRequestError.code)
            throw new UserRejectedRequestError(error as Error)
          throw new SwitchChainError(error as Error)
        }
      },

      async onAccountsChanged(accounts) {
        if (accounts.length === 0) return this.onDisconnect()
        // Connected outside wagmi while it was disconnected: it is listening for `connect`.
        if (config.emitter.listenerCount('connect'))
          return this.onConnect?.({ chainId: numberToHex(await this.getChainId()) })
        config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a as Address)) })
      },

      onChainChanged(chainId) {
        config.emitter.emit('change', { chainId: Number(chainId) })
      },

      async onConnect(info) {
        const accounts = await this.getAccounts()
        if (accounts.length === 0) return
        const provider = await this.getProvider()
        unlisten(provider, 'connect')
        listen(provider, 'accountsChanged', this.onAccountsChanged.bind(this))
        listen(provider, 'chainChanged', this.onChainChanged.bind(this))
        listen(provider, 'disconnect', this.onDisconnect.bind(this))
        config.emitter.emit('connect', { accounts, chainId: Number(info.chainId) })
      },

      async onDisconnect() {
        const provider = await this.getProvider()
        config.emitter.emit('disconnect')
        unlisten(provider, 'accountsChanged')
        unlisten(provider, 'chainChanged')
        unlisten(provider, 'disconnect')
        listen(provider, 'connect', (info: ProviderConnectInfo) => this.onConnect?.(info))
      },
    }
  })
}
