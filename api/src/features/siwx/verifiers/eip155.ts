/**
 * EVM sign-in: EIP-191 `personal_sign` messages. An EOA's signature is recovered offline; anything else
 * goes through viem's `verifyMessage` on the chain's RPC, which checks EIP-1271 contract accounts and
 * EIP-6492 signatures of accounts not deployed yet. The signature is 0x-hex.
 */

import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import {
  BaseError,
  HttpRequestError,
  isAddressEqual,
  recoverMessageAddress,
  TimeoutError,
  WebSocketRequestError,
} from 'viem'
import { evmClient, RpcError } from '../../../internal/rpc.ts'
import type { Verifier } from './Verifier.ts'

export const eip155: Verifier = {
  rpc: true,
  supports: () => true,
  // Strict: a mixed-case address with a wrong EIP-55 checksum is a typo, not an address.
  isAddress: (_, address) => isEvmAddress(address, { strict: true }),
  caseless: () => true,
  /** @throws {RpcError} when a contract account needs the chain's RPC and it cannot be reached */
  verify: async ({ chainId, address, message, signature, rpcUrl }) => {
    if (!rpcUrl) throw new RpcError(chainId)
    return verifyEvm(chainId, rpcUrl, address, message, signature)
  },
}

async function verifyEvm(
  chainId: string,
  rpcUrl: string,
  address: string,
  message: string,
  signature: string,
): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address) || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) return false
  const hex = signature as `0x${string}`
  // An EOA's signature needs no chain: plain EIP-191 recovery.
  try {
    if (isAddressEqual(await recoverMessageAddress({ message, signature: hex }), address as `0x${string}`))
      return true
  } catch {}
  const client = evmClient(rpcUrl)
  // viem reads any failed call as an invalid signature, so an unreachable RPC, or one of another chain
  // (EIP-4361: contract accounts MUST be resolved on the message's chain), is told apart first.
  let reachable: boolean
  try {
    reachable = `eip155:${await client.getChainId()}` === chainId
  } catch {
    reachable = false
  }
  if (!reachable) throw new RpcError(chainId)
  try {
    // EIP-6492's universal validator covers EIP-1271 accounts and those not deployed yet.
    return await client.verifyMessage({ address: address as `0x${string}`, message, signature: hex })
  } catch (error) {
    const unreachable =
      error instanceof BaseError &&
      error.walk(
        (cause) =>
          cause instanceof HttpRequestError ||
          cause instanceof TimeoutError ||
          cause instanceof WebSocketRequestError,
      )
    if (unreachable) throw new RpcError(chainId, { cause: error })
    return false
  }
}
