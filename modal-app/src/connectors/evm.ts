/**
 * Switching an EVM wallet's chain, for every connector that reaches an EIP-1193 wallet: EIP-3326's
 * `wallet_switchEthereumChain`, and EIP-3085's `wallet_addEthereumChain` first when the wallet answers that
 * it does not know the chain (4902).
 */
import { Caip, Errors } from '@airlock/bridge-protocol'
import { addChainParameters, type Network } from '../shared/Network.ts'

/** Runs one EIP-1193 request on the wallet. */
export type Ask = (method: string, params: unknown[]) => Promise<unknown>

/**
 * @example
 * await Evm.switchChain((method, params) => wallet.request({ method, params }), network)
 */
export async function switchChain(ask: Ask, network: Network): Promise<void> {
  const chainId = Caip.toHexChainId(network.id)
  try {
    await ask('wallet_switchEthereumChain', [{ chainId }])
  } catch (error) {
    if (!isUnrecognizedChain(error)) throw error
    await ask('wallet_addEthereumChain', [addChainParameters(network)])
    await ask('wallet_switchEthereumChain', [{ chainId }])
  }
}

// MetaMask mobile wraps 4902 in an internal error's `data.originalError`.
function isUnrecognizedChain(error: unknown): boolean {
  if (Errors.codeOf(error) === Errors.UnrecognizedChainError.code) return true
  const data = (error as { data?: { originalError?: unknown } } | undefined)?.data
  return Errors.codeOf(data?.originalError) === Errors.UnrecognizedChainError.code
}
