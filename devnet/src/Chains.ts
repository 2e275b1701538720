/**
 * The devnet's chains as plain data (viem `Chain` shape), safe to import in the browser: the modal and the
 * example dApp list them without pulling in anything that spawns processes.
 */
import type { Address, Chain } from 'viem'

/**
 * Where the test token lives on every devnet chain: the first contract anvil account 0 deploys
 * (CREATE address of sender 0xf39F…2266, nonce 0). `Devnet.start` checks the deployment lands here.
 */
export const testTokenAddress: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/**
 * The ERC-721 "Airlock Test Collectible" (ALTNFT) on every devnet chain: account 0's second contract
 * (nonce 1). Accounts 0–3 hold two tokens each: #1 and #2 account 0, #3 and #4 account 1, and so on.
 */
export const testCollectibleAddress: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'

/**
 * The ERC-1155 "Airlock Test Items" (ALTITEM) on every devnet chain: account 0's third contract (nonce 2).
 * Accounts 0–3 hold 10 of id 1 (Brass Key), 3 of id 2 (Star Map) and 1 of id 3 (Lantern) each.
 */
export const testItemsAddress: Address = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'

/**
 * The devnet's stand-in for Farcaster's IdRegistry (`farcaster/IdRegistry.sol`: `idOf`, `custodyOf` and an open
 * `register`) on every devnet chain: account 0's fourth contract (nonce 3). Sign In With Farcaster on the
 * dev stack reads it on chain A.
 */
export const idRegistryAddress: Address = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'

/** The devnet's "Airlock Test USD" (tUSD, 6 decimals, worth $1 like USDC): account 0's fifth contract (nonce 4). */
export const testUsdAddress: Address = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'

/**
 * Uniswap v2 on every devnet chain, deployed by account 0 from Uniswap's own npm artifacts after the
 * contracts above: WETH9 (nonce 5), the factory (nonce 6) and Router02 (nonce 7). Pools WETH/ALT, WETH/tUSD
 * and ALT/tUSD hold liquidity at the devnet's prices (`dex/Pools.ts`).
 */
export const uniswapV2 = {
  weth: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  factory: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
  router: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
} as const satisfies Record<string, Address>

/**
 * Uniswap v3 on every devnet chain (`dex/V3Pools.ts`), deployed by account 0 from Uniswap's npm artifacts
 * after everything else, ERC-4337 included (nonces 67 to 70): the factory, the NonfungiblePositionManager, QuoterV2 and
 * SwapRouter02 (which also routes through the v2 factory above). WETH is v2's WETH9. Pools: ETH/tUSD at
 * 0.05 % and 0.3 %, ETH/ALT at 1 %, ALT/tUSD at 0.3 %, full range, at the devnet's prices.
 */
export const uniswapV3 = {
  factory: '0xdbC43Ba45381e02825b14322cDdd15eC4B3164E6',
  positionManager: '0x04C89607413713Ec9775E14b954286519d836FEf',
  quoter: '0x4C4a2f8c81640e47606d3fd77B353E87Ba015584',
  router: '0x21dF544947ba3E8b3c32561399E88B52Dc8b2823',
} as const satisfies Record<string, Address>

/**
 * ENS on every devnet chain (`ens/Ens.ts`), deployed by account 0 after everything above and the pools'
 * seeding (nonces 35 to 39): the registry, the public resolver (also the reverse records' resolver), the
 * universal resolver viem calls (`chain.contracts.ensUniversalResolver`), the offchain resolver of the
 * project's name suffix (`airlock.id`; its gateway is the API's) and the reverse registrar.
 */
export const ens = {
  registry: '0x1613beB3B2C4f22Ee086B2b38C1476A3cE7f78E8',
  publicResolver: '0x851356ae760d987E095750cCeb3bC6014560891C',
  universalResolver: '0xf5059a5D33d5853360D16C683c16e67980206f36',
  offchainResolver: '0x95401dc811bb5740090279Ba06cfA8fcF6113778',
  reverseRegistrar: '0x998abeb3E57409262aE5b751f60747921B33613E',
} as const satisfies Record<string, Address>

/**
 * ERC-4337 and EIP-7702 on every devnet chain (`aa/AccountAbstraction.ts`), deployed after everything above
 * through the deterministic deployment proxy (CREATE2: the addresses depend on the code, not on a nonce).
 * The EntryPoints v0.8 and v0.7 are eth-infinitism's, at their canonical addresses; the rest is ours
 * (`devnet/contracts/`): the factory of `AirlockAccount` (SimpleAccount's ABI, with session keys), the
 * `Airlock7702Account` an EOA delegates to (Simple7702Account's ABI, with session keys), and the verifying
 * paymaster the API signs sponsorships for, with 100 ETH deposited at EntryPoint v0.8.
 */
export const accountAbstraction = {
  entryPoint08: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  entryPoint07: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  accountFactory: '0xe19fF6dDFD5B330F94e0bd4d6AfcE8dCCede1022',
  account7702: '0x01495ee2087684f808ecA9E5e32DAB77c3A24786',
  paymaster: '0x21cd908275fb782867481Ee8cDbd699ed1492AAE',
} as const satisfies Record<string, Address>

/** The devnet's ERC-20s, as the API's configuration lists a chain's `tokens`. */
export const devnetTokens = {
  ALT: { address: testTokenAddress, name: 'Airlock Test Token', symbol: 'ALT', decimals: 18 },
  tUSD: { address: testUsdAddress, name: 'Airlock Test USD', symbol: 'tUSD', decimals: 6 },
} as const

const contracts = {
  testToken: { address: testTokenAddress },
  testCollectible: { address: testCollectibleAddress },
  testItems: { address: testItemsAddress },
  testUsd: { address: testUsdAddress },
  weth: { address: uniswapV2.weth },
  uniswapV2Factory: { address: uniswapV2.factory },
  uniswapV2Router: { address: uniswapV2.router },
  uniswapV3Factory: { address: uniswapV3.factory },
  uniswapV3Quoter: { address: uniswapV3.quoter },
  swapRouter02: { address: uniswapV3.router },
  ensRegistry: { address: ens.registry },
  ensUniversalResolver: { address: ens.universalResolver },
} as const

const nativeCurrency = { name: 'Ether', symbol: 'ETH', decimals: 18 } as const

export const devnetA = {
  id: 31337,
  name: 'Airlock Devnet A',
  nativeCurrency,
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  contracts,
  testnet: true,
} as const satisfies Chain

export const devnetB = {
  id: 31338,
  name: 'Airlock Devnet B',
  nativeCurrency,
  rpcUrls: { default: { http: ['http://127.0.0.1:8546'] } },
  contracts,
  testnet: true,
} as const satisfies Chain

export type DevnetChain = typeof devnetA | typeof devnetB

/**
 * CAIP-2 id of the devnet's Solana chain (its genesis hash is fixed: `solana/Solana.test.ts` checks they
 * agree), which the test wallet lists as one of its chains.
 */
export const solanaDevnetId = 'solana:5Rqo9UxdHy9JBtqyVvuwV4Sv7wuDnKNh'

/** Both devnet chains, A first; `Devnet.start` runs them in this order. */
export const chains = [devnetA, devnetB] as const

/** Default port of a chain, taken from its default RPC URL. */
export function defaultPort(chain: DevnetChain): number {
  return Number(new URL(chain.rpcUrls.default.http[0]).port)
}

/**
 * CAIP-2 id of an EVM chain.
 * @example
 * caipNetworkId(31337) // 'eip155:31337'
 */
export function caipNetworkId(chainId: number): `eip155:${number}` {
  return `eip155:${chainId}`
}
