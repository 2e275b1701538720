/**
 * The accounts sign-in knows, by CAIP-2 namespace: whether an address can sign in, how it is spelled in
 * storage, and whether it signed a message. Each namespace is one {@link Verifier} in `verifiers/`.
 */
import { Caip, type Namespace } from '@airlock/bridge-protocol'
import { bip122 } from './verifiers/bip122.ts'
import { eip155 } from './verifiers/eip155.ts'
import { solana } from './verifiers/solana.ts'
import type { Verifier } from './verifiers/Verifier.ts'

const verifiers: Readonly<Record<Namespace, Verifier>> = { eip155, solana, bip122 }

/**
 * Whether sign-in can check accounts of the CAIP-2 chain: `needsRpc` when its verifier reads the chain
 * (then the chain must be configured), `false` for a chain it cannot check at all.
 * @example Siwx.supports('bip122:000000000019d6689c085ae165831e93') // 'offline'
 */
export function supports(chainId: string): 'offline' | 'needsRpc' | false {
  const { namespace, reference } = Caip.parseChainId(chainId)
  const verifier = verifiers[namespace]
  if (!verifier.supports(reference)) return false
  return verifier.rpc ? 'needsRpc' : 'offline'
}

/**
 * The spelling sessions are stored under: EVM and bech32 addresses are case-insensitive, so lower case.
 * @example Siwx.normalizeAccount('eip155:1:0xAb…') // 'eip155:1:0xab…'
 */
export function normalizeAccount(account: string): Caip.AccountId {
  const { namespace, chainId, address } = Caip.parseAccountId(account)
  return `${chainId}:${verifiers[namespace].caseless(address) ? address.toLowerCase() : address}`
}

/**
 * Whether the CAIP-10 account's address is one its chain can have: a checksummed (or one-case) EVM
 * address, a 32-byte base58 Solana key, or a Bitcoin address of the chain's network that sign-in can check.
 * @example Siwx.isAddress('bip122:000000000019d6689c085ae165831e93:bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l') // true
 */
export function isAddress(account: string): boolean {
  if (!Caip.isAccountId(account)) return false
  const { namespace, reference, address } = Caip.parseAccountId(account)
  return verifiers[namespace].isAddress(reference, address)
}

export type VerifyParameters = {
  /** CAIP-10 id of the signer. */
  account: string
  /** The exact text that was signed. */
  message: string
  /**
   * `eip155`: 0x-hex. `solana`: 64 bytes as base58, hex (0x optional) or base64. `bip122`: base64 (the
   * BIP-137 and BIP-322 encoding) or hex.
   */
  signature: string
  /** The chain's RPC URL; `eip155` needs it to check contract accounts. */
  rpcUrl?: string | undefined
}

/**
 * Checks `signature` over `message` by the account's namespace.
 * @throws {RpcError} when an `eip155` chain's RPC cannot be reached
 * @example
 * await Siwx.verify({ account: 'eip155:1:0xab…', message, signature, rpcUrl: 'https://rpc.example' })
 */
export async function verify(parameters: VerifyParameters): Promise<boolean> {
  const { message, signature, rpcUrl } = parameters
  const { namespace, reference, chainId, address } = Caip.parseAccountId(parameters.account)
  return verifiers[namespace].verify({ chainId, reference, address, message, signature, rpcUrl })
}
