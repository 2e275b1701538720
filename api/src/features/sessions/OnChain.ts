/**
 * An account's sessions as its chain holds them: the keys its `SessionGranted` logs name, each read back with
 * `sessionOf(key)` (what is left of it now: target, function, limit, spent, gas allowance, gas spent, expiry; all
 * zero once revoked).
 * The logs are read from block 0, which a local chain answers at once; a public chain's RPC would need a
 * start block (the account's deployment) or an index.
 */
import {
  type Address,
  BaseError,
  type Hex,
  HttpRequestError,
  parseAbi,
  parseAbiItem,
  TimeoutError,
} from 'viem'
import { evmClient, RpcError } from '../../internal/rpc.ts'

export const sessionKeysAbi = parseAbi([
  'struct Session { address target; bytes4 selector; uint48 validUntil; uint128 limit; uint128 spent; uint128 gasAllowance; uint128 gasSpent; }',
  'function sessionOf(address key) view returns (Session)',
  'function grantSession(address key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance)',
  'function revokeSession(address key)',
])

const granted = parseAbiItem(
  'event SessionGranted(address indexed key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance)',
)

const erc20Abi = parseAbi([
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
])

export type OnChainSession = {
  key: Address
  target: Address
  selector: Hex
  limit: bigint
  spent: bigint
  /** Wei the account may pay for the key's operations' gas, and what their maximum prefunds took of it. */
  gasAllowance: bigint
  gasSpent: bigint
  /** Unix seconds; 0 once revoked. */
  validUntil: number
  /** The block of the key's latest grant. */
  grantedIn: bigint
}

export type Chain = { id: string; rpcUrl: string }

/**
 * Every key the account ever granted, newest grant first, each with its session as it is now.
 * @throws {RpcError} when the chain cannot be read
 */
export async function sessionsOf(chain: Chain, account: Address): Promise<OnChainSession[]> {
  const client = evmClient(chain.rpcUrl)
  return read(chain, async () => {
    const logs = await client.getLogs({ address: account, event: granted, fromBlock: 0n, strict: true })
    const latest = new Map<Address, bigint>()
    for (const log of logs) latest.set(log.args.key, log.blockNumber)
    const keys = [...latest].sort(([, a], [, b]) => (b > a ? 1 : b < a ? -1 : 0))
    return Promise.all(
      keys.map(async ([key, grantedIn]) => {
        const session = await client.readContract({
          address: account,
          abi: sessionKeysAbi,
          functionName: 'sessionOf',
          args: [key],
        })
        return {
          key,
          target: session.target,
          selector: session.selector,
          limit: session.limit,
          spent: session.spent,
          gasAllowance: session.gasAllowance,
          gasSpent: session.gasSpent,
          validUntil: session.validUntil,
          grantedIn,
        }
      }),
    )
  })
}

/** The target's ERC-20 symbol and decimals, or undefined when it does not answer as one. */
export async function tokenOf(
  chain: Chain,
  target: Address,
): Promise<{ symbol: string; decimals: number } | undefined> {
  const client = evmClient(chain.rpcUrl)
  try {
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: target, abi: erc20Abi, functionName: 'symbol' }),
      client.readContract({ address: target, abi: erc20Abi, functionName: 'decimals' }),
    ])
    return symbol.length <= 64 ? { symbol, decimals } : undefined
  } catch {
    return undefined
  }
}

/** The chain's clock: the latest block's timestamp (what the EntryPoint compares a session's expiry with). */
export async function now(chain: Chain): Promise<number> {
  const client = evmClient(chain.rpcUrl)
  return read(chain, async () => Number((await client.getBlock({ blockTag: 'latest' })).timestamp))
}

async function read<T>(chain: Chain, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const unreachable = (cause: unknown) => cause instanceof HttpRequestError || cause instanceof TimeoutError
    if (unreachable(error) || (error instanceof BaseError && error.walk(unreachable)))
      throw new RpcError(chain.id, { cause: error })
    throw error
  }
}
