import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  http,
  maxUint256,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import { testTokenAddress, testUsdAddress, uniswapV2 } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { choosePort } from '../Process.ts'
import * as Pools from './Pools.ts'
import { factoryAbi, pairAbi, routerAbi, wethAbi } from './UniswapV2.ts'

let devnet: Devnet.Instance
beforeAll(async () => {
  // Free ports of their own, so the suite runs beside `npm start` and the other suites.
  const ports = [await choosePort('127.0.0.1', 0), await choosePort('127.0.0.1', 0)] as const
  devnet = await Devnet.start({ ports })
})
afterAll(() => devnet?.stop())

const reader = (index: 0 | 1) =>
  createPublicClient({ transport: http(devnet.chains[index].rpcUrl), pollingInterval: 50 })

describe('the devnet’s Uniswap v2', () => {
  it.each([0, 1] as const)(
    'runs WETH9, the factory and Router02 at their addresses on chain %i',
    async (index) => {
      const client = reader(index)
      const router = { address: uniswapV2.router, abi: routerAbi } as const
      expect(uniswapV2).toEqual({
        weth: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
        factory: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
        router: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
      })
      expect(await client.readContract({ ...router, functionName: 'factory' })).toBe(uniswapV2.factory)
      expect(await client.readContract({ ...router, functionName: 'WETH' })).toBe(uniswapV2.weth)
      expect(
        await client.readContract({ address: uniswapV2.weth, abi: wethAbi, functionName: 'symbol' }),
      ).toBe('WETH')
      expect(
        await client.readContract({
          address: uniswapV2.factory,
          abi: factoryAbi,
          functionName: 'allPairsLength',
        }),
      ).toBe(3n)
    },
  )

  it.each([0, 1] as const)(
    'holds each pool at the CREATE2 address Router02 computes, seeded at the devnet’s prices, on chain %i',
    async (index) => {
      const client = reader(index)
      for (const [a, b] of Pools.pools) {
        const [tokenA, tokenB] = [Pools.poolToken(a), Pools.poolToken(b)]
        const pair = await client.readContract({
          address: uniswapV2.factory,
          abi: factoryAbi,
          functionName: 'getPair',
          args: [tokenA, tokenB],
        })
        expect(pair).toBe(Pools.pairAddress(tokenA, tokenB))
        const [token0, [reserve0, reserve1]] = await Promise.all([
          client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
          client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' }),
        ])
        const reserves = token0 === tokenA ? [reserve0, reserve1] : [reserve1, reserve0]
        expect(reserves).toEqual([Pools.depth(a), Pools.depth(b)])
      }
      // $300,000 a side: 100 ETH, 240,000 ALT, 300,000 tUSD.
      expect([Pools.depth('ETH'), Pools.depth('ALT'), Pools.depth('tUSD')]).toEqual([
        parseEther('100'),
        parseEther('240000'),
        300_000_000_000n,
      ])
    },
  )

  it('swaps 1 ETH for tUSD and then tUSD for ALT through the router, signed by a test key: balances move as quoted', async () => {
    const { chain, rpcUrl } = devnet.chains[1]
    const trader = Accounts.all()[6] as Accounts.Account
    const wallet = createWalletClient({
      account: privateKeyToAccount(trader.privateKey),
      chain,
      transport: http(rpcUrl),
    })
    const client = reader(1)
    const balanceOf = (token: Address) =>
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.address],
      })
    const quote = async (amount: bigint, path: Address[]) =>
      (
        await client.readContract({
          address: uniswapV2.router,
          abi: routerAbi,
          functionName: 'getAmountsOut',
          args: [amount, path],
        })
      ).at(-1) ?? 0n
    const mined = async (hash: `0x${string}`) => {
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      return receipt.gasUsed * receipt.effectiveGasPrice
    }
    const [ether, usd, alt] = [
      await client.getBalance({ address: trader.address }),
      await balanceOf(testUsdAddress),
      await balanceOf(testTokenAddress),
    ]

    // 1 ETH is worth $3,000: the pool gives that less its 0.3 % fee and the ~1 % the swap moves its price.
    const toUsd = await quote(parseEther('1'), [uniswapV2.weth, testUsdAddress])
    expect(Number(formatUnits(toUsd, 6))).toBeGreaterThan(2_950)
    expect(Number(formatUnits(toUsd, 6))).toBeLessThan(2_991)
    const swapFee = await mined(
      await wallet.writeContract({
        address: uniswapV2.router,
        abi: routerAbi,
        functionName: 'swapExactETHForTokens',
        args: [toUsd, [uniswapV2.weth, testUsdAddress], trader.address, maxUint256],
        value: parseEther('1'),
      }),
    )
    expect(await balanceOf(testUsdAddress)).toBe(usd + toUsd)
    expect(await client.getBalance({ address: trader.address })).toBe(ether - parseEther('1') - swapFee)

    // Tokens for tokens: the router takes tUSD once it may.
    const approveFee = await mined(
      await wallet.writeContract({
        address: testUsdAddress,
        abi: erc20Abi,
        functionName: 'approve',
        args: [uniswapV2.router, toUsd],
      }),
    )
    const toAlt = await quote(toUsd, [testUsdAddress, testTokenAddress])
    // About 2,960 USD buy about 2,960 / 1.25 ALT, less the 0.3 % fee and about 1 % of price impact.
    expect(Number(formatUnits(toAlt, 18))).toBeGreaterThan(0.98 * (Number(formatUnits(toUsd, 6)) / 1.25))
    const tokensFee = await mined(
      await wallet.writeContract({
        address: uniswapV2.router,
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [toUsd, toAlt, [testUsdAddress, testTokenAddress], trader.address, maxUint256],
      }),
    )
    expect(await balanceOf(testUsdAddress)).toBe(usd)
    expect(await balanceOf(testTokenAddress)).toBe(alt + toAlt)
    expect(await client.getBalance({ address: trader.address })).toBe(
      ether - parseEther('1') - swapFee - approveFee - tokensFee,
    )
    // Chain A has pools of its own: untouched.
    expect(
      await reader(0).readContract({
        address: testUsdAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.address],
      }),
    ).toBe(Devnet.usdMintAmount)
  })
})
