/**
 * The EVM test wallet: an EIP-1193 provider announced through EIP-6963. The provider is a plain object
 * built from closures (no `this`, no #private fields) so dApps may destructure `request` or wrap the
 * provider in a Proxy without breaking it.
 */
import { type Address, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { announceProvider, type Eip6963ProviderInfo, uuidV4 } from './eip6963.ts'
import { ErrorCode, invalidParams, isRecord, ProviderRpcError } from './errors.ts'
import {
  disconnectSite,
  type EvmContext,
  type EvmProviderEvents,
  handleRequest,
  setChain,
} from './evm-methods.ts'
import { evmIcon } from './icons.ts'
import { EVM_WALLET_NAME, EVM_WALLET_RDNS } from './names.ts'
import { type EvmWalletOptions, initialKnownChainIds } from './options.ts'
import { Emitter, recordCall, sitePermission, type WalletRuntime } from './runtime.ts'

type EvmEventName = keyof EvmProviderEvents

export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>
  on<K extends EvmEventName>(event: K, listener: (payload: EvmProviderEvents[K]) => void): Eip1193Provider
  removeListener<K extends EvmEventName>(
    event: K,
    listener: (payload: EvmProviderEvents[K]) => void,
  ): Eip1193Provider
  off<K extends EvmEventName>(event: K, listener: (payload: EvmProviderEvents[K]) => void): Eip1193Provider
  /** Whether the provider can serve requests (EIP-1193 "connected"), not whether the site is authorised. */
  isConnected(): boolean
}

/** What tests reach through `window.__airlockTestWallets.evm` to act as the wallet's user. */
export interface EvmWalletControl {
  readonly provider: Eip1193Provider
  readonly info: Eip6963ProviderInfo
  /** Checksummed address of the wallet's only account. */
  readonly address: Address
  chainId(): number
  /** Whether the page's origin is authorised (eth_accounts non-empty). */
  isSiteConnected(): boolean
  /** Re-dispatches eip6963:announceProvider. */
  announce(): void
  /** The user disconnects the site in the wallet UI: accountsChanged([]). */
  disconnect(): void
  /** The user switches network in the wallet UI; the chain must be known. */
  switchChain(chainId: number): void
  /** The wallet loses every chain: emits `disconnect` (4900) and rejects requests until restored. */
  loseConnection(): void
  /** Ends loseConnection(): emits `connect`. */
  restoreConnection(): void
  /** From now on the wallet takes `method` and never answers, as an extension whose background stalled. */
  stall(method: string): void
  /** From now on the wallet discovers assets (EIP-7811) and answers `wallet_getAssets` with `answer`. */
  discoverAssets(answer: unknown): void
}

function normaliseParams(params: unknown): readonly unknown[] {
  if (params === undefined) return []
  if (Array.isArray(params)) return params
  throw invalidParams('params must be an array')
}

function createProvider(ctx: EvmContext): Eip1193Provider {
  const provider: Eip1193Provider = {
    async request(args) {
      if (!isRecord(args) || typeof args.method !== 'string')
        throw invalidParams('request expects { method, params }')
      recordCall(ctx.runtime, 'evm', args.method)
      return handleRequest(ctx, args.method, normaliseParams(args.params))
    },
    on(event, listener) {
      ctx.events.on(event, listener)
      return provider
    },
    removeListener(event, listener) {
      ctx.events.off(event, listener)
      return provider
    },
    off(event, listener) {
      ctx.events.off(event, listener)
      return provider
    },
    isConnected: () => ctx.state.reachable,
  }
  return Object.freeze(provider)
}

function createContext(options: EvmWalletOptions, runtime: WalletRuntime): EvmContext {
  return {
    account: privateKeyToAccount(options.privateKey),
    options,
    runtime,
    state: {
      connected: sitePermission.get('evm'),
      chainId: options.initialChainId,
      knownChainIds: new Set(initialKnownChainIds(options)),
      reachable: true,
      stalled: new Set(),
    },
    events: new Emitter<EvmProviderEvents>(),
  }
}

function createControl(
  ctx: EvmContext,
  provider: Eip1193Provider,
  info: Eip6963ProviderInfo,
): EvmWalletControl {
  const announce = announceProvider(info, provider)
  const control: EvmWalletControl = {
    provider,
    info,
    address: ctx.account.address,
    chainId: () => ctx.state.chainId,
    isSiteConnected: () => ctx.state.connected,
    announce,
    disconnect: () => disconnectSite(ctx),
    switchChain(chainId) {
      if (!ctx.state.knownChainIds.has(chainId))
        throw new Error(`chain ${chainId} is not known to the wallet`)
      setChain(ctx, chainId)
    },
    loseConnection() {
      ctx.state.reachable = false
      ctx.events.emit(
        'disconnect',
        new ProviderRpcError(ErrorCode.disconnected, 'The provider is disconnected.'),
      )
    },
    restoreConnection() {
      ctx.state.reachable = true
      ctx.events.emit('connect', { chainId: numberToHex(ctx.state.chainId) })
    },
    stall(method) {
      ctx.state.stalled.add(method)
    },
    discoverAssets(answer) {
      ctx.state.assets = answer
    },
  }
  return Object.freeze(control)
}

export function installEvmWallet(options: EvmWalletOptions, runtime: WalletRuntime): EvmWalletControl {
  const ctx = createContext(options, runtime)
  const provider = createProvider(ctx)
  const info: Eip6963ProviderInfo = {
    uuid: uuidV4(),
    name: EVM_WALLET_NAME,
    icon: evmIcon,
    rdns: EVM_WALLET_RDNS,
  }
  const control = createControl(ctx, provider, info)
  // EIP-1193 `connect` fires once the provider can serve a chain; deferred so same-tick listeners see it.
  queueMicrotask(() => ctx.events.emit('connect', { chainId: numberToHex(ctx.state.chainId) }))
  return control
}
