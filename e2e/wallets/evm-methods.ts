/** The EIP-1193 request handlers of the EVM test wallet. */
import { type Address, type Hex, isAddress, isHex, numberToHex, type PrivateKeyAccount } from 'viem'
import {
  ErrorCode,
  invalidParams,
  isRecord,
  ProviderRpcError,
  unauthorized,
  unsupportedMethod,
} from './errors.ts'
import { parseTransactionRequest, prepareTransaction, rpcRequest } from './evm-rpc.ts'
import type { EvmChainOption, EvmWalletOptions } from './options.ts'
import { confirmWithUser, type Emitter, sitePermission, type WalletRuntime } from './runtime.ts'

export interface EvmProviderEvents extends Record<string, unknown> {
  accountsChanged: Address[]
  chainChanged: Hex
  connect: { chainId: Hex }
  disconnect: ProviderRpcError
  message: { type: string; data: unknown }
}

interface EvmState {
  /** Whether the dApp's origin is authorised (eth_accounts non-empty). */
  connected: boolean
  chainId: number
  readonly knownChainIds: Set<number>
  /** False after a simulated loss of connection: every request then fails with 4900. */
  reachable: boolean
  /** Methods the wallet takes and never answers. */
  readonly stalled: Set<string>
  /**
   * Once set, the wallet discovers assets (EIP-7811): it says so in `wallet_getCapabilities` (EIP-5792) and
   * answers `wallet_getAssets` with this, whatever its shape. Unset, it knows neither method.
   */
  assets?: unknown
}

export interface EvmContext {
  readonly account: PrivateKeyAccount
  readonly options: EvmWalletOptions
  readonly runtime: WalletRuntime
  readonly state: EvmState
  readonly events: Emitter<EvmProviderEvents>
}

type Handler = (ctx: EvmContext, params: readonly unknown[]) => unknown

/** Wallets answer these in lowercase (as MetaMask does), which catches dApps that compare addresses naively. */
function walletAddress(ctx: EvmContext): Address {
  return `0x${ctx.account.address.slice(2).toLowerCase()}`
}

function currentChain(ctx: EvmContext): EvmChainOption {
  const chain = ctx.options.chains.find((candidate) => candidate.chainId === ctx.state.chainId)
  if (!chain)
    throw new ProviderRpcError(ErrorCode.internal, `No RPC configured for chain ${ctx.state.chainId}`)
  return chain
}

function connectSite(ctx: EvmContext): void {
  if (ctx.state.connected) return
  ctx.state.connected = true
  sitePermission.set('evm', true)
  ctx.events.emit('accountsChanged', [walletAddress(ctx)])
}

export function disconnectSite(ctx: EvmContext): void {
  if (!ctx.state.connected) return
  ctx.state.connected = false
  sitePermission.set('evm', false)
  ctx.events.emit('accountsChanged', [])
}

export function setChain(ctx: EvmContext, chainId: number): void {
  if (ctx.state.chainId === chainId) return
  ctx.state.chainId = chainId
  ctx.events.emit('chainChanged', numberToHex(chainId))
}

function accounts(ctx: EvmContext): Address[] {
  return ctx.state.connected ? [walletAddress(ctx)] : []
}

function requireConnected(ctx: EvmContext, claimed?: unknown): void {
  if (!ctx.state.connected) throw unauthorized('call eth_requestAccounts first')
  if (
    claimed !== undefined &&
    (typeof claimed !== 'string' || claimed.toLowerCase() !== walletAddress(ctx))
  ) {
    throw unauthorized(`account ${String(claimed)} is not connected`)
  }
}

function requestAccounts(ctx: EvmContext): Address[] {
  // Already-authorised sites get their accounts without a popup, as in real wallets.
  if (!ctx.state.connected) {
    confirmWithUser(ctx.runtime)
    connectSite(ctx)
  }
  return accounts(ctx)
}

/** personal_sign is [message, address]; some old dApps swap them, which MetaMask tolerates. */
function splitPersonalSignParams(params: readonly unknown[]): { message: unknown; address: unknown } {
  const [first, second] = params
  const looksSwapped =
    typeof first === 'string' && isAddress(first, { strict: false }) && !isAddressLike(second)
  return looksSwapped ? { message: second, address: first } : { message: first, address: second }
}

function isAddressLike(value: unknown): boolean {
  return typeof value === 'string' && isAddress(value, { strict: false })
}

async function personalSign(ctx: EvmContext, params: readonly unknown[]): Promise<Hex> {
  const { message, address } = splitPersonalSignParams(params)
  if (typeof message !== 'string') throw invalidParams('personal_sign expects a message string')
  requireConnected(ctx, address)
  confirmWithUser(ctx.runtime)
  // Hex input is raw bytes (how viem/ethers send it); anything else is signed as UTF-8 text.
  return ctx.account.signMessage({ message: isHex(message) ? { raw: message } : message })
}

type TypedDataInput = Parameters<PrivateKeyAccount['signTypedData']>[0]

function parseTypedData(raw: unknown, chainId: number): TypedDataInput {
  const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw
  if (!isRecord(value) || !isRecord(value.types) || typeof value.primaryType !== 'string') {
    throw invalidParams('eth_signTypedData_v4 expects { types, primaryType, domain, message }')
  }
  const domain = isRecord(value.domain) ? value.domain : {}
  const domainChainId = domain.chainId === undefined ? undefined : Number(domain.chainId)
  if (domainChainId !== undefined && domainChainId !== chainId) {
    throw invalidParams(`domain chainId ${domainChainId} does not match the active chain ${chainId}`)
  }
  const normalised = {
    ...value,
    domain: domainChainId === undefined ? domain : { ...domain, chainId: domainChainId },
  }
  // The shape was checked above; viem's generic typed-data types cannot be inferred from runtime JSON.
  return normalised as unknown as TypedDataInput
}

async function signTypedDataV4(ctx: EvmContext, params: readonly unknown[]): Promise<Hex> {
  const [address, data] = params
  requireConnected(ctx, address)
  const typedData = parseTypedData(data, ctx.state.chainId)
  confirmWithUser(ctx.runtime)
  return ctx.account.signTypedData(typedData)
}

async function sendTransaction(ctx: EvmContext, params: readonly unknown[]): Promise<unknown> {
  const request = parseTransactionRequest(params[0])
  requireConnected(ctx, request.from)
  confirmWithUser(ctx.runtime)
  const chain = currentChain(ctx)
  const prepared = await prepareTransaction(
    { rpcUrl: chain.rpcUrl, chainId: chain.chainId, from: ctx.account.address },
    request,
  )
  const signed = await ctx.account.signTransaction(prepared)
  return rpcRequest(chain.rpcUrl, 'eth_sendRawTransaction', [signed])
}

function parseChainIdParam(raw: unknown, method: string): number {
  if (!isRecord(raw) || typeof raw.chainId !== 'string' || !isHex(raw.chainId)) {
    throw invalidParams(`${method} expects [{ chainId: <hex> }]`)
  }
  return Number(BigInt(raw.chainId))
}

function switchChain(ctx: EvmContext, params: readonly unknown[]): null {
  const chainId = parseChainIdParam(params[0], 'wallet_switchEthereumChain')
  if (!ctx.state.knownChainIds.has(chainId)) {
    throw new ProviderRpcError(
      ErrorCode.unrecognizedChain,
      `Unrecognized chain ID "${numberToHex(chainId)}". Try adding the chain using wallet_addEthereumChain first.`,
    )
  }
  if (chainId !== ctx.state.chainId) {
    confirmWithUser(ctx.runtime)
    setChain(ctx, chainId)
  }
  return null
}

/**
 * Adding also switches to the chain, as MetaMask does once the user approves both prompts; wagmi relies
 * on this and treats "still on the old chain after add" as a rejection.
 */
function addChain(ctx: EvmContext, params: readonly unknown[]): null {
  const chainId = parseChainIdParam(params[0], 'wallet_addEthereumChain')
  if (!ctx.options.chains.some((chain) => chain.chainId === chainId)) {
    throw invalidParams(`chain ${numberToHex(chainId)} is not among the test wallet's configured chains`)
  }
  if (ctx.state.knownChainIds.has(chainId) && chainId === ctx.state.chainId) return null
  confirmWithUser(ctx.runtime)
  ctx.state.knownChainIds.add(chainId)
  setChain(ctx, chainId)
  return null
}

function accountsPermission(ctx: EvmContext): Record<string, unknown> {
  return {
    parentCapability: 'eth_accounts',
    invoker: window.location.origin,
    caveats: [{ type: 'restrictReturnedAccounts', value: [walletAddress(ctx)] }],
  }
}

function requireEthAccountsPermission(raw: unknown, method: string): void {
  if (!isRecord(raw) || !('eth_accounts' in raw)) throw invalidParams(`${method} supports only eth_accounts`)
}

function requestPermissions(ctx: EvmContext, params: readonly unknown[]): Record<string, unknown>[] {
  requireEthAccountsPermission(params[0], 'wallet_requestPermissions')
  // Unlike eth_requestAccounts this always prompts, even when already connected.
  confirmWithUser(ctx.runtime)
  connectSite(ctx)
  return [accountsPermission(ctx)]
}

function revokePermissions(ctx: EvmContext, params: readonly unknown[]): null {
  requireEthAccountsPermission(params[0], 'wallet_revokePermissions')
  disconnectSite(ctx)
  return null
}

const handlers: Readonly<Record<string, Handler>> = {
  eth_requestAccounts: requestAccounts,
  eth_accounts: accounts,
  eth_coinbase: (ctx) => accounts(ctx)[0] ?? null,
  eth_chainId: (ctx) => numberToHex(ctx.state.chainId),
  net_version: (ctx) => String(ctx.state.chainId),
  personal_sign: personalSign,
  eth_signTypedData_v4: signTypedDataV4,
  eth_sendTransaction: sendTransaction,
  wallet_switchEthereumChain: switchChain,
  wallet_addEthereumChain: addChain,
  wallet_requestPermissions: requestPermissions,
  wallet_getPermissions: (ctx) => (ctx.state.connected ? [accountsPermission(ctx)] : []),
  wallet_revokePermissions: revokePermissions,
  wallet_getCapabilities: (ctx) => {
    if (ctx.state.assets === undefined) throw unsupportedMethod('wallet_getCapabilities')
    return { [numberToHex(ctx.state.chainId)]: { assetDiscovery: { supported: true } } }
  },
  wallet_getAssets: (ctx) => {
    if (ctx.state.assets === undefined) throw unsupportedMethod('wallet_getAssets')
    return ctx.state.assets
  },
}

/** Signing methods this wallet does not implement; passing them to anvil would sign with its dev keys. */
const refusedEthMethods = new Set([
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v3',
])

export async function handleRequest(
  ctx: EvmContext,
  method: string,
  params: readonly unknown[],
): Promise<unknown> {
  if (!ctx.state.reachable)
    throw new ProviderRpcError(ErrorCode.disconnected, 'The provider is disconnected.')
  if (ctx.state.stalled.has(method)) return new Promise(() => {})
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
  if (handler) return handler(ctx, params)
  if (refusedEthMethods.has(method) || !method.startsWith('eth_')) throw unsupportedMethod(method)
  return rpcRequest(currentChain(ctx).rpcUrl, method, params)
}
