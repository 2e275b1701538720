/**
 * What the relay passes to a chain's node, per family: reads, simulations, and the broadcast of a
 * transaction the visitor's wallet has already signed. Nothing that has the node sign (`eth_sendTransaction`,
 * `eth_sign`), changes its state by decree (`anvil_*`, `evm_*`, `requestAirdrop`) or keeps state for a caller
 * (filters, subscriptions) gets through: the API's nodes serve every visitor of every project, and a method
 * missing here costs a line, one too many costs the node. What an allowed method may be asked is bounded by
 * `Params.ts`.
 */

const relayed = {
  eip155: new Set([
    'eth_chainId',
    'eth_blockNumber',
    'eth_getBalance',
    'eth_getCode',
    'eth_getTransactionCount',
    'eth_call',
    'eth_estimateGas',
    'eth_gasPrice',
    'eth_maxPriorityFeePerGas',
    'eth_feeHistory',
    'eth_getBlockByNumber',
    'eth_getTransactionByHash',
    'eth_getTransactionReceipt',
    'eth_simulateV1',
    'eth_sendRawTransaction',
    'net_version',
  ]),
  // All of them served by the devnet's Solana facade too (`devnet/src/solana/methods/`).
  solana: new Set([
    'getLatestBlockhash',
    'getBalance',
    'getAccountInfo',
    'getMultipleAccounts',
    'getTokenAccountBalance',
    'getTokenAccountsByOwner',
    'getFeeForMessage',
    'getMinimumBalanceForRentExemption',
    'simulateTransaction',
    'sendTransaction',
    'getSignatureStatuses',
    'getSlot',
    'getBlockHeight',
    'isBlockhashValid',
  ]),
} as const satisfies Record<string, ReadonlySet<string>>

/** A chain family the relay serves; `bip122` chains have their Esplora routes instead. */
type Family = keyof typeof relayed

/**
 * The methods relayed to a chain, by the namespace of its CAIP-2 id; undefined for a family the relay does
 * not serve.
 * @example
 * methodsOf('eip155:1')?.has('eth_sendRawTransaction') // true
 * methodsOf('bip122:000000000019d6689c085ae165831e93') // undefined
 */
export function methodsOf(chainId: string): ReadonlySet<string> | undefined {
  const namespace = chainId.slice(0, chainId.indexOf(':'))
  return Object.hasOwn(relayed, namespace) ? relayed[namespace as Family] : undefined
}
