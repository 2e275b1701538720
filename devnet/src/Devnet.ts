/**
 * The local two-chain devnet used by `npm start` and the tests: chain A (31337) and chain B (31338), each
 * with the ALT test token deployed at the same address and 1,000,000 ALT in every default account, a
 * test NFT collection (an ERC-721 and an ERC-1155, at the same addresses too) held by accounts 0–3, and a
 * stand-in for Farcaster's IdRegistry (empty: `farcaster/IdRegistry.ts` registers fids).
 */
import {
  type Address,
  type Chain,
  createWalletClient,
  type Hash,
  http,
  isAddressEqual,
  parseUnits,
  publicActions,
} from 'viem'
import * as Accounts from './Accounts.ts'
import * as Anvil from './Anvil.ts'
import {
  caipNetworkId,
  type DevnetChain,
  defaultPort,
  devnetA,
  devnetB,
  idRegistryAddress,
  testCollectibleAddress,
  testItemsAddress,
  testTokenAddress,
} from './Chains.ts'
import { idRegistryAbi, idRegistryBytecode } from './farcaster/IdRegistryContract.ts'
import { testCollectibleAbi, testCollectibleBytecode } from './TestCollectible.ts'
import { testItemsAbi, testItemsBytecode } from './TestItems.ts'
import { testTokenAbi, testTokenBytecode } from './TestToken.ts'

export type StartOptions = {
  /** Ports of chain A and chain B; defaults to 8545 and 8546. Tests pass others to run beside `npm start`. */
  ports?: readonly [number, number]
  /** Interface anvil binds; loopback by default. */
  host?: string
}

export type RunningChain = {
  chainId: number
  caipNetworkId: `eip155:${number}`
  rpcUrl: string
  tokenAddress: Address
  /** The chain description with `rpcUrls` pointing at this running node, ready for viem clients. */
  chain: Chain
}

export type Instance = {
  chains: readonly [RunningChain, RunningChain]
  /** Stops both nodes; safe to call more than once. */
  stop(): Promise<void>
}

/** Amount minted to each default account: 1,000,000 ALT (18 decimals). */
export const mintAmount = parseUnits('1000000', 18)

/** How many of the default accounts, from account 0, hold the test NFTs. */
export const nftHolders = 4

/** Test Collectible tokens (ERC-721) per holder: ids 1 and 2 go to account 0, 3 and 4 to account 1… */
export const collectiblesPerHolder = 2n

/** Test Items (ERC-1155) every holder has: 10 Brass Keys (id 1), 3 Star Maps (id 2), 1 Lantern (id 3). */
export const itemHoldings = { ids: [1n, 2n, 3n], values: [10n, 3n, 1n] } as const

/**
 * Starts both chains, deploys the test token and the test NFTs on each and funds the default accounts.
 * @example
 * const devnet = await Devnet.start({ ports: [18545, 18546] })
 * await devnet.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const [portA, portB] = options.ports ?? [defaultPort(devnetA), defaultPort(devnetB)]
  const results = await Promise.allSettled([
    Anvil.start({ port: portA, chainId: devnetA.id, host: options.host }),
    Anvil.start({ port: portB, chainId: devnetB.id, host: options.host }),
  ])
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  const stop = async () => {
    await Promise.all(started.map((node) => node.stop()))
  }
  try {
    const [a, b] = [valueOrThrow(results[0]), valueOrThrow(results[1])]
    const chains = await Promise.all([setUp(devnetA, a), setUp(devnetB, b)])
    return { chains, stop }
  } catch (error) {
    // Never leave a half-started devnet holding ports.
    await stop()
    throw error
  }
}

function valueOrThrow<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason
  return result.value
}

async function setUp(description: DevnetChain, node: Anvil.Instance): Promise<RunningChain> {
  const chain: Chain = { ...description, rpcUrls: { default: { http: [node.rpcUrl] } } }
  const client = wallet(chain, node.rpcUrl)
  await deployContracts(client)
  await fundAccounts(client)
  return {
    chainId: node.chainId,
    caipNetworkId: caipNetworkId(node.chainId),
    rpcUrl: node.rpcUrl,
    tokenAddress: testTokenAddress,
    chain,
  }
}

type Client = ReturnType<typeof wallet>

function wallet(chain: Chain, rpcUrl: string) {
  // Account 0 is unlocked in anvil, so it signs server-side; the fast polling suits a chain that mines instantly.
  return createWalletClient({
    account: deployer(),
    chain,
    transport: http(rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions)
}

function deployer(): Address {
  const first = Accounts.all()[0]
  if (!first) throw new Error('no default accounts')
  return first.address
}

/**
 * Deploys the token, the NFTs and the Farcaster IdRegistry from account 0, in this order, so each lands at
 * the CREATE address of its nonce (0 to 3) that `Chains.ts` names. The NFTs are minted by their
 * constructors: no transaction more.
 */
async function deployContracts(client: Client): Promise<void> {
  const holders = Accounts.all()
    .slice(0, nftHolders)
    .map((account) => account.address)
  // Sent one after another so anvil assigns nonces in order; receipts are then awaited together.
  const sent: [Hash, Address, string][] = [
    [
      await client.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode }),
      testTokenAddress,
      'test token',
    ],
    [
      await client.deployContract({
        abi: testCollectibleAbi,
        bytecode: testCollectibleBytecode,
        args: [holders, collectiblesPerHolder],
      }),
      testCollectibleAddress,
      'test collectible',
    ],
    [
      await client.deployContract({
        abi: testItemsAbi,
        bytecode: testItemsBytecode,
        args: [holders, [...itemHoldings.ids], [...itemHoldings.values]],
      }),
      testItemsAddress,
      'test items',
    ],
    [
      await client.deployContract({ abi: idRegistryAbi, bytecode: idRegistryBytecode }),
      idRegistryAddress,
      'Farcaster IdRegistry',
    ],
  ]
  await Promise.all(
    sent.map(async ([hash, expected, what]) => {
      const { status, contractAddress } = await client.waitForTransactionReceipt({ hash })
      if (status !== 'success' || !contractAddress || !isAddressEqual(contractAddress, expected))
        throw new Error(
          `${what} deployed at ${contractAddress} instead of ${expected}; account 0 must send no transaction first`,
        )
    }),
  )
}

async function fundAccounts(client: Client): Promise<void> {
  const hashes: Hash[] = []
  // Sent one after another so anvil assigns nonces in order; receipts are then awaited together.
  for (const { address } of Accounts.all()) {
    hashes.push(
      await client.writeContract({
        address: testTokenAddress,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [address, mintAmount],
      }),
    )
  }
  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })))
  const failed = receipts.find((receipt) => receipt.status !== 'success')
  if (failed) throw new Error(`minting ALT failed in transaction ${failed.transactionHash}`)
}
