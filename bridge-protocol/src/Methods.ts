/**
 * Which wallet methods Airlock lets through, and on what terms. One list per kind:
 * - `safe`: reads (accounts, balances, blocks, calls, gas, receipts, capabilities) and sending an already
 *   signed transaction; they proceed without asking anyone.
 * - `unsafe`: anything that signs, spends or grants; it needs the person's approval in the modal or in
 *   their wallet.
 * - `connection`: managing the connection itself (connect, read the accounts and chain, switch or add a
 *   chain, disconnect). The modal may run these on a page wallet on its own; anything else reaches a page
 *   wallet only while the page itself has that very request in flight.
 * - anything else is disallowed: the modal shows {@link notAllowed} and logs {@link notAllowedLog}.
 *
 * Names are those of the request's namespace: EIP-1193 / EIP-1474 methods for `eip155`, Wallet Standard
 * features for `solana` and `bip122`.
 */

/** Shown to the person when a dApp asks for a method Airlock does not let through. */
export const notAllowed = 'Action not allowed'
/** Logged for the developer in the same case. */
export const notAllowedLog = 'Requested RPC call is not allowed'

/** Reads and raw sends: they proceed without asking anyone. */
export const safe = [
  'eth_blockNumber',
  'eth_blobBaseFee',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_uninstallFilter',
  'eth_sendRawTransaction',
  'eth_syncing',
  'net_version',
  'web3_clientVersion',
  // EIP-4337 bundler reads.
  'eth_estimateUserOperationGas',
  'eth_getUserOperationByHash',
  'eth_getUserOperationReceipt',
  'eth_supportedEntryPoints',
  // Capability and status queries: EIP-5792 and EIP-2255.
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  // Shows a batch's status; it asks nothing of the person.
  'wallet_showCallsStatus',
  'wallet_getPermissions',
] as const

/** Methods that sign, spend or grant: the person approves each one. */
export const unsafe = [
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_signTransaction',
  // EIP-5792 batches, ERC-7715 permissions, EIP-4337 user operations.
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_revokePermissions',
  'eth_sendUserOperation',
  // EIP-2255 grants a permission; EIP-747 adds a token to the wallet. Both ask the person.
  'wallet_requestPermissions',
  'wallet_watchAsset',
  'solana:signMessage',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
  'bitcoin:signMessage',
  'bitcoin:signTransaction',
] as const

/**
 * The unsafe methods that spend: a transaction for the wallet to sign (and, for EVM, send). The modal's own
 * Send asks for these, never for a message signature (nor Solana's signAndSend, which it does not use).
 */
const transactions = ['eth_sendTransaction', 'solana:signTransaction', 'bitcoin:signTransaction'] as const

/** True for a transaction the wallet signs (not a message, not a permission). */
export function isTransaction(method: string): boolean {
  return has(transactions, method)
}

// The connection methods that put a prompt in front of the person (connect, switch or add a chain).
const connecting = [
  'eth_requestAccounts',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'standard:connect',
  'bitcoin:connect',
] as const

/**
 * Managing the connection: the modal may run these on a page wallet without the page asking, since it
 * owns the connection. Reading the accounts and chain counts here, not under `safe`.
 */
export const connection = [...connecting, 'eth_accounts', 'eth_chainId', 'standard:disconnect'] as const

export type Kind = 'safe' | 'unsafe' | 'connection' | 'disallowed'

const has = (list: readonly string[], method: string) => list.includes(method)

/**
 * The kind of a method.
 * @example
 * Methods.classify('eth_getBalance') // 'safe'
 * Methods.classify('personal_sign') // 'unsafe'
 * Methods.classify('debug_traceCall') // 'disallowed'
 */
export function classify(method: string): Kind {
  if (has(connection, method)) return 'connection'
  if (has(unsafe, method)) return 'unsafe'
  if (has(safe, method)) return 'safe'
  return 'disallowed'
}

/** True unless the method is disallowed. */
export function isAllowed(method: string): boolean {
  return classify(method) !== 'disallowed'
}

/** True for connection methods the modal may run on a page wallet on its own. */
export function managesConnection(method: string): boolean {
  return has(connection, method)
}

/**
 * True when a request waits for a person (an approval, or a connect or switch prompt) and so must not time
 * out on its own; it ends when the person answers or closes the modal.
 * @example
 * const ms = Methods.needsUser(request) ? undefined : 30_000
 */
export function needsUser(request: { method: string }): boolean {
  return has(unsafe, request.method) || has(connecting, request.method)
}
