/**
 * The devnet's Farcaster IdRegistry (`IdRegistry.sol`): who owns which fid, as Sign In With Farcaster checks
 * it (`idOf(custody) == fid`). `Devnet.start` deploys it empty at {@link idRegistryAddress} on both chains;
 * {@link register} gives a key a fid, from one of anvil's unlocked accounts.
 */
import { type Address, createWalletClient, http, publicActions } from 'viem'
import * as Accounts from '../Accounts.ts'
import { idRegistryAddress } from '../Chains.ts'
import { idRegistryAbi, idRegistryBytecode } from './IdRegistryContract.ts'

/** A registry on a running chain: the devnet's own address unless told otherwise. */
export type Target = {
  rpcUrl: string
  /** @default idRegistryAddress */
  address?: Address
}

export type SendOptions = {
  /** The anvil account that sends the transaction (unlocked: anvil signs it). @default account 0 */
  from?: Address
}

/**
 * Deploys a registry of its own (tests on a bare anvil); `Devnet.start` deploys the devnet's.
 * @example const address = await IdRegistry.deploy(anvil.rpcUrl)
 */
export async function deploy(rpcUrl: string, options: SendOptions = {}): Promise<Address> {
  const client = clientOf(rpcUrl, options)
  const hash = await client.deployContract({ abi: idRegistryAbi, bytecode: idRegistryBytecode, chain: null })
  const { status, contractAddress } = await client.waitForTransactionReceipt({ hash })
  if (status !== 'success' || !contractAddress) throw new Error(`the IdRegistry was not deployed (${hash})`)
  return contractAddress
}

/**
 * Gives `custody` the fid `fid`; fails (with the contract's error: `FidTaken`, `HasId`, `InvalidFid`) when
 * the fid has a custody address already or the address a fid.
 * @example await IdRegistry.register({ rpcUrl: devnet.chains[0].rpcUrl }, account.address, 4242n)
 */
export async function register(
  target: Target,
  custody: Address,
  fid: bigint,
  options: SendOptions = {},
): Promise<void> {
  const client = clientOf(target.rpcUrl, options)
  // Simulated first: anvil would mine a reverting transaction, and only the call names the contract's error.
  const { request } = await client.simulateContract({
    address: target.address ?? idRegistryAddress,
    abi: idRegistryAbi,
    functionName: 'register',
    args: [custody, fid],
  })
  const hash = await client.writeContract({ ...request, chain: null })
  const { status } = await client.waitForTransactionReceipt({ hash })
  if (status !== 'success') throw new Error(`registering fid ${fid} for ${custody} failed (${hash})`)
}

/**
 * The fid `custody` owns, 0n for none.
 * @example await IdRegistry.idOf({ rpcUrl }, account.address) // 4242n
 */
export function idOf(target: Target, custody: Address): Promise<bigint> {
  return clientOf(target.rpcUrl, {}).readContract({
    address: target.address ?? idRegistryAddress,
    abi: idRegistryAbi,
    functionName: 'idOf',
    args: [custody],
  })
}

function clientOf(rpcUrl: string, options: SendOptions) {
  const from = options.from ?? Accounts.all()[0]?.address
  if (!from) throw new Error('no default accounts')
  // Fast polling: anvil mines each transaction at once.
  return createWalletClient({ account: from, transport: http(rpcUrl), pollingInterval: 50 }).extend(
    publicActions,
  )
}
