/**
 * The local two-chain devnet used by `npm start` and the tests: chain A (31337) and chain B (31338), each
 * with the same contracts at the same addresses: the ALT test token and tUSD (a USDC-like test dollar), with
 * 1,000,000 of each in every default account; a test NFT collection (an ERC-721 and an ERC-1155) held by
 * accounts 0–3; a stand-in for Farcaster's IdRegistry (empty: `farcaster/IdRegistry.ts` registers fids);
 * Uniswap v2 with pools of ETH, ALT and tUSD at the devnet's prices (`dex/Pools.ts`) and v3 with pools at several
 * fee tiers (`dex/V3Pools.ts`); ENS with CCIP-read,
 * `alice.eth` and `bob.eth`, and the project's name suffix answered by the API's gateway (`ens/Ens.ts`); and
 * ERC-4337/EIP-7702: the EntryPoints, smart accounts and a sponsoring paymaster (`aa/AccountAbstraction.ts`).
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
  type TransactionReceipt,
} from 'viem'
import * as Accounts from './Accounts.ts'
import * as Anvil from './Anvil.ts'
import * as AccountAbstraction from './aa/AccountAbstraction.ts'
import {
  caipNetworkId,
  type DevnetChain,
  defaultPort,
  devnetA,
  devnetB,
  devnetTokens,
  idRegistryAddress,
  testCollectibleAddress,
  testItemsAddress,
  testTokenAddress,
  testUsdAddress,
  uniswapV2,
} from './Chains.ts'
import * as Pools from './dex/Pools.ts'
import * as UniswapV2 from './dex/UniswapV2.ts'
import * as V3Pools from './dex/V3Pools.ts'
import * as Ens from './ens/Ens.ts'
import { idRegistryAbi, idRegistryBytecode } from './farcaster/IdRegistryContract.ts'
import { testCollectibleAbi, testCollectibleBytecode } from './TestCollectible.ts'
import { testItemsAbi, testItemsBytecode } from './TestItems.ts'
import { testTokenAbi, testTokenBytecode } from './TestToken.ts'

export type StartOptions = {
  /** Ports of chain A and chain B; defaults to 8545 and 8546. Tests pass others to run beside `npm start`. */
  ports?: readonly [number, number]
  /** Interface anvil binds; loopback by default. */
  host?: string
  /** ENS's gateway, its signers and the project's name suffix; a test's own API passes its URL here. */
  ens?: Ens.Options
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

/** Amount of tUSD minted to each default account: 1,000,000 tUSD (6 decimals). */
export const usdMintAmount = parseUnits('1000000', 6)

/** How many of the default accounts, from account 0, hold the test NFTs. */
export const nftHolders = 4

/** Test Collectible tokens (ERC-721) per holder: ids 1 and 2 go to account 0, 3 and 4 to account 1… */
export const collectiblesPerHolder = 2n

/** Test Items (ERC-1155) every holder has: 10 Brass Keys (id 1), 3 Star Maps (id 2), 1 Lantern (id 3). */
export const itemHoldings = { ids: [1n, 2n, 3n], values: [10n, 3n, 1n] } as const

/**
 * Starts both chains, deploys the test tokens, the test NFTs and Uniswap v2 on each, funds the default
 * accounts and seeds the pools.
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
    const chains = await Promise.all([setUp(devnetA, a, options.ens), setUp(devnetB, b, options.ens)])
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

async function setUp(
  description: DevnetChain,
  node: Anvil.Instance,
  ens: Ens.Options | undefined,
): Promise<RunningChain> {
  const chain: Chain = { ...description, rpcUrls: { default: { http: [node.rpcUrl] } } }
  const client = wallet(chain, node.rpcUrl)
  await deployContracts(client)
  await settle(client, [...mints(), ...Pools.funding()])
  await settle(client, Pools.deposits())
  // Last, so that no earlier contract's address moves. Each ENS step names its gas, so all go in one batch.
  const ensDeployments = Ens.deployments(ens)
  expectAt(ensDeployments, await settle(client, [...ensDeployments, ...Ens.records(ens)]))
  // After ENS, so the nonces these use move no CREATE address above; theirs are CREATE2's, nonce-free.
  for (const batch of AccountAbstraction.deployments()) await settle(client, batch)
  // Last again: Uniswap v3's CREATE addresses follow every nonce above.
  const v3 = V3Pools.deployments()
  expectAt(v3, await settle(client, [...v3, ...V3Pools.funding()]))
  await settle(client, V3Pools.creations())
  await settle(client, V3Pools.positions())
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
  // anvil answers in milliseconds, but a machine busy with other work has kept a deployment past viem's 10 s.
  return createWalletClient({
    account: deployer(),
    chain,
    transport: http(rpcUrl, { timeout: 120_000 }),
    pollingInterval: 50,
  }).extend(publicActions)
}

function deployer(): Address {
  const first = Accounts.all()[0]
  if (!first) throw new Error('no default accounts')
  return first.address
}

/** A deployment of account 0's, checked to land at the address `Chains.ts` names. */
type Deployment = Pools.Step & { expected: Address }

/**
 * Deploys ALT, the NFTs, the Farcaster IdRegistry, tUSD and Uniswap v2 (WETH9, the factory, Router02) from
 * account 0, in this order, so each lands at the CREATE address of its nonce (0 to 7) that `Chains.ts`
 * names. The NFTs are minted by their constructors: no transaction more.
 */
async function deployContracts(client: Client): Promise<void> {
  const holders = Accounts.all()
    .slice(0, nftHolders)
    .map((account) => account.address)
  const uniswap = UniswapV2.bytecodes()
  const { ALT, tUSD } = devnetTokens
  const deployments: Deployment[] = [
    {
      what: 'test token',
      expected: testTokenAddress,
      send: () =>
        client.deployContract({
          abi: testTokenAbi,
          bytecode: testTokenBytecode,
          args: [ALT.name, ALT.symbol, ALT.decimals],
        }),
    },
    {
      what: 'test collectible',
      expected: testCollectibleAddress,
      send: () =>
        client.deployContract({
          abi: testCollectibleAbi,
          bytecode: testCollectibleBytecode,
          args: [holders, collectiblesPerHolder],
        }),
    },
    {
      what: 'test items',
      expected: testItemsAddress,
      send: () =>
        client.deployContract({
          abi: testItemsAbi,
          bytecode: testItemsBytecode,
          args: [holders, [...itemHoldings.ids], [...itemHoldings.values]],
        }),
    },
    {
      what: 'Farcaster IdRegistry',
      expected: idRegistryAddress,
      send: () => client.deployContract({ abi: idRegistryAbi, bytecode: idRegistryBytecode }),
    },
    {
      what: 'test USD',
      expected: testUsdAddress,
      send: () =>
        client.deployContract({
          abi: testTokenAbi,
          bytecode: testTokenBytecode,
          args: [tUSD.name, tUSD.symbol, tUSD.decimals],
        }),
    },
    {
      what: 'WETH9',
      expected: uniswapV2.weth,
      send: () => client.deployContract({ abi: [], bytecode: uniswap.weth }),
    },
    {
      what: 'Uniswap v2 factory',
      expected: uniswapV2.factory,
      // Account 0 may set where the protocol fee goes; it stays off (no feeTo), as on a fresh mainnet factory.
      send: () =>
        client.deployContract({ abi: UniswapV2.factoryAbi, bytecode: uniswap.factory, args: [deployer()] }),
    },
    {
      what: 'Uniswap v2 router',
      expected: uniswapV2.router,
      send: () =>
        client.deployContract({
          abi: UniswapV2.routerAbi,
          bytecode: uniswap.router,
          args: [uniswapV2.factory, uniswapV2.weth],
        }),
    },
  ]
  expectAt(deployments, await settle(client, deployments))
}

/** Checks that each deployment landed where `Chains.ts` says; `receipts` start with theirs. */
function expectAt(deployments: readonly Deployment[], receipts: readonly TransactionReceipt[]): void {
  for (const [index, { what, expected }] of deployments.entries()) {
    const contractAddress = receipts[index]?.contractAddress
    if (!contractAddress || !isAddressEqual(contractAddress, expected))
      throw new Error(
        `${what} deployed at ${contractAddress} instead of ${expected}; account 0 must send no transaction first`,
      )
  }
}

/** Every default account gets {@link mintAmount} ALT and {@link usdMintAmount} tUSD. */
function mints(): Pools.Step[] {
  const amounts = [
    [devnetTokens.ALT, mintAmount],
    [devnetTokens.tUSD, usdMintAmount],
  ] as const
  return amounts.flatMap(([token, amount]) =>
    Accounts.all().map(
      ({ address }): Pools.Step => ({
        what: `minting ${token.symbol}`,
        send: (sender) =>
          sender.writeContract({
            address: token.address,
            abi: testTokenAbi,
            functionName: 'mint',
            args: [address, amount],
          }),
      }),
    ),
  )
}

/**
 * Sends the steps one after another, so anvil numbers them in order, then awaits their receipts together:
 * a step may rely on an earlier batch, never on a step of its own batch.
 */
async function settle(client: Client, steps: readonly Pools.Step[]): Promise<TransactionReceipt[]> {
  const hashes: Hash[] = []
  for (const step of steps) hashes.push(await step.send(client))
  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })))
  const failed = receipts.findIndex((receipt) => receipt.status !== 'success')
  if (failed !== -1)
    throw new Error(`${steps[failed]?.what} failed in transaction ${receipts[failed]?.transactionHash}`)
  return receipts
}
