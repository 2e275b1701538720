/**
 * Swaps, end to end on the devnet's Uniswap v2 and v3 pools, with the keyboard alone: ALT for ETH, whose best
 * venue is v2 (an approval of Router02 first, exactly the amount), then ETH for an amount of tUSD typed on
 * the receiving side, whose best is v3's 0.05 % pool (no approval). Each is quoted live, reviewed with its
 * venue and route and a simulation, signed by the page's wallet, lands on chain through that venue exactly
 * as the venue's own quoter says (asserted there, not only on screen) and appears in Activity. A refused
 * signature keeps the review, and the swap after it goes out once.
 */
import { Accounts, UniswapV3 } from '@airlock/devnet'
import { devnetA, devnetTokens, uniswapV2, uniswapV3 } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { setWalletMode } from '../wallets/index.ts'
import {
  axeViolations,
  clients,
  connectWallet,
  expect,
  snackLog,
  tabTo,
  withAnvilAccount,
} from './fixtures.ts'

// Anvil's account 5, whose ETH, ALT and tUSD no other journey reads.
const { evm: from, test } = withAnvilAccount(5)

const router = parseAbi(['function getAmountsOut(uint256, address[]) view returns (uint256[])'])
const alt = devnetTokens.ALT.address
const tusd = devnetTokens.tUSD.address

const balanceOf = (token: Address) =>
  clients.a.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [from] })

/** What the pools give for `amount` along `path` (now, or at `blockNumber`), read from the router itself. */
async function amountOut(amount: bigint, path: Address[], blockNumber?: bigint): Promise<bigint> {
  const amounts = await clients.a.readContract({
    address: uniswapV2.router,
    abi: router,
    functionName: 'getAmountsOut',
    args: [amount, path],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })
  return amounts.at(-1) as bigint
}

/** The fees the account paid in the blocks after `since`: what ETH moves besides the swap. (The block number is read uncached: viem keeps it for a polling interval.) */
async function feesSince(since: bigint): Promise<bigint> {
  let fees = 0n
  const latest = await clients.a.getBlockNumber({ cacheTime: 0 })
  for (let n = since + 1n; n <= latest; n++) {
    const block = await clients.a.getBlock({ blockNumber: n, includeTransactions: true })
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== from.toLowerCase()) continue
      const receipt = await clients.a.getTransactionReceipt({ hash: tx.hash })
      fees += receipt.gasUsed * receipt.effectiveGasPrice
    }
  }
  return fees
}

/**
 * Someone else trades first: anvil's account 6 (no journey after chains.spec reads it) buys tUSD with
 * 30 ETH in v3's 0.05 % pool, which moves its WETH/tUSD price far past a 1 % slippage.
 */
async function movePrice() {
  const trader = createWalletClient({
    account: privateKeyToAccount(Accounts.all()[6]?.privateKey as Hex),
    chain: devnetA,
    transport: http(devnetA.rpcUrls.default.http[0]),
  })
  const amountIn = parseEther('30')
  const hash = await trader.writeContract({
    address: uniswapV3.router,
    abi: UniswapV3.routerAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: uniswapV2.weth,
        tokenOut: tusd,
        fee: 500,
        recipient: trader.account.address,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
    value: amountIn,
  })
  expect((await clients.a.waitForTransactionReceipt({ hash })).status).toBe('success')
}

/** What QuoterV2 says `amountIn` wei buys of tUSD in the 0.05 % pool at `blockNumber`. */
async function quoterV2(amountIn: bigint, blockNumber: bigint): Promise<bigint> {
  const { result } = await clients.a.simulateContract({
    address: uniswapV3.quoter,
    abi: UniswapV3.quoterAbi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn: uniswapV2.weth, tokenOut: tusd, amountIn, fee: 500, sqrtPriceLimitX96: 0n }],
    blockNumber,
  })
  return result[0]
}

/**
 * Picks a side's token by keyboard in the picker beside its amount: the arrow opens it, typing finds the
 * token, Enter takes it. The open list passes axe.
 */
async function pickToken(page: Page, modal: FrameLocator, side: 'You pay' | 'You receive', symbol: string) {
  const picker = modal.getByTestId(side === 'You pay' ? 'swap-from-token' : 'swap-to-token')
  await tabTo(page, picker)
  await page.keyboard.press('ArrowDown')
  await expect(modal.getByRole('listbox', { name: `${side}: choose a token` })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await page.keyboard.type(symbol)
  await expect(modal.getByRole('option').first()).toContainText(symbol)
  await page.keyboard.press('Enter')
  await expect(modal.getByRole('listbox')).toHaveCount(0)
  await expect(picker.locator('.picker-value')).toHaveText(symbol)
}

/** Opens Swap from the Account view by keyboard; resolves once its tokens are in. */
async function openSwap(page: Page, modal: FrameLocator) {
  await tabTo(page, modal.getByRole('button', { name: 'Swap', exact: true }))
  await page.keyboard.press('Enter')
  await expect(modal.locator('form.swap-form')).toHaveAttribute('aria-busy', 'false')
}

/** Waits for a fresh quote of the form. */
async function quoted(modal: FrameLocator) {
  await expect(modal.getByTestId('swap-quote')).toHaveAttribute('data-stale', 'false')
}

/** Presses the review's action (Approve, then Swap) by keyboard. */
async function press(page: Page, modal: FrameLocator, name: string) {
  const button = modal.getByTestId('swap-confirm')
  await expect(button).toHaveText(name, { timeout: 30_000 })
  await expect(button).toBeEnabled()
  await tabTo(page, button)
  await page.keyboard.press('Enter')
}

/** Waits until the chain confirmed the swap; its hash. */
async function confirmed(modal: FrameLocator): Promise<Hash> {
  const status = modal.getByTestId('swap-status')
  await expect(status).toHaveAttribute('data-status', 'confirmed', { timeout: 60_000 })
  return (await status.getAttribute('data-id')) as Hash
}

// Two swaps, an approval, a reverted swap and its retry, each mined and read back: longer than one minute.
test.setTimeout(150_000)

test('ALT for ETH with an exact approval, then ETH for a tUSD amount typed on the receiving side: on chain within 1 %, in Activity', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?networks=eip155:31337')
  await connectWallet(page, modal, 'Airlock Test Wallet', from)

  // ALT → ETH: the form refuses what it cannot swap, then quotes.
  await openSwap(page, modal)
  await pickToken(page, modal, 'You pay', 'ALT')
  await pickToken(page, modal, 'You receive', 'ETH')
  const pay = modal.getByTestId('swap-from-amount')
  await tabTo(page, pay)
  await page.keyboard.type('2000000')
  await expect(modal.getByTestId('swap-error')).toHaveText('Insufficient ALT balance')
  await pay.fill('')
  await page.keyboard.type('100')
  await quoted(modal)
  expect(await axeViolations(page)).toEqual([])
  const altBefore = await balanceOf(alt)
  const ethBefore = await clients.a.getBalance({ address: from })
  const block = await clients.a.getBlockNumber({ cacheTime: 0 })
  const expected = await amountOut(parseEther('100'), [alt, uniswapV2.weth])
  await page.keyboard.press('Enter')

  // The review: through v2 (v3 has ALT only at 1 %), an approval of exactly 100 ALT first, and the
  // simulation's balance changes.
  await expect(modal.getByTestId('swap-summary')).toBeVisible()
  await expect(modal.getByTestId('swap-preview-venue')).toHaveText('Uniswap v2')
  await expect(modal.getByTestId('swap-preview-route')).toHaveText('ALT → ETH (0.3 %)')
  await expect(modal.getByRole('radio', { name: /^Exactly 100 ALT/ })).toBeChecked()
  await expect(modal.locator('[data-testid="swap-changes"] [data-symbol="ALT"]')).toContainText('−100 ALT')
  await expect(modal.locator('[data-testid="swap-changes"] [data-symbol="ETH"]')).toContainText('+0.')
  expect(await axeViolations(page)).toEqual([])
  const nonce = await clients.a.getTransactionCount({ address: from })
  await press(page, modal, 'Approve ALT')
  // The approval is mined before the swap is asked for: a refusal then keeps the review and approves nothing twice.
  await expect(modal.getByTestId('swap-confirm')).toHaveText('Swap', { timeout: 30_000 })
  await setWalletMode(page, 'reject')
  const snacks = await snackLog(page)
  await press(page, modal, 'Swap')
  await expect(modal.getByTestId('swap-preview-error')).toHaveText('Signature declined')
  await expect(modal.getByTestId('snackbar')).toHaveText('')
  expect(await clients.a.getTransactionCount({ address: from })).toBe(nonce + 1)
  expect(
    await clients.a.readContract({
      address: alt,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [from, uniswapV2.router],
    }),
  ).toBe(parseEther('100'))
  await setWalletMode(page, 'approve')
  await press(page, modal, 'Swap')
  const first = await confirmed(modal)
  // Said once (docs/behaviour.md): beside Swap, never in the snackbar as well, then or since.
  expect((await snacks.shown()).filter((said) => said.startsWith('error'))).toEqual([])
  expect(await clients.a.getTransactionCount({ address: from })).toBe(nonce + 2)
  expect(await balanceOf(alt)).toBe(altBefore - parseEther('100'))
  const received = (await clients.a.getBalance({ address: from })) - ethBefore + (await feesSince(block))
  expect(received).toBe(expected)

  // ETH → 300 tUSD, typed on the receiving side: no approval, at least 300 tUSD.
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  await openSwap(page, modal)
  await pickToken(page, modal, 'You pay', 'ETH')
  await pickToken(page, modal, 'You receive', 'tUSD')
  await tabTo(page, modal.getByTestId('swap-to-amount'))
  await page.keyboard.type('300')
  await quoted(modal)
  await expect(modal.getByTestId('swap-from-amount')).toHaveValue(/^0\.100\d+$/)
  const firstCost = Number(await modal.getByTestId('swap-from-amount').inputValue())
  const usdBefore = await balanceOf(tusd)
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('swap-summary')).toBeVisible()
  await expect(modal.getByTestId('swap-preview-venue')).toHaveText('Uniswap v3')
  await expect(modal.getByTestId('swap-preview-route')).toHaveText('ETH → tUSD (0.05 %)')
  await expect(modal.getByRole('radio')).toHaveCount(0)

  // The price moves past the slippage after the review: the swap reverts on chain, its tUSD never comes
  // and only the fee is spent; Try again quotes anew and goes through.
  await movePrice()
  const ethBeforeRevert = await clients.a.getBalance({ address: from })
  const blockBeforeRevert = await clients.a.getBlockNumber({ cacheTime: 0 })
  await press(page, modal, 'Swap')
  const status = modal.getByTestId('swap-status')
  await expect(status).toHaveAttribute('data-status', 'failed', { timeout: 60_000 })
  await expect(status).toContainText('execution reverted')
  const reverted = await clients.a.getTransactionReceipt({
    hash: (await status.getAttribute('data-id')) as Hash,
  })
  expect(reverted.status).toBe('reverted')
  expect(await balanceOf(tusd)).toBe(usdBefore)
  expect(await clients.a.getBalance({ address: from })).toBe(
    ethBeforeRevert - (await feesSince(blockBeforeRevert)),
  )
  await tabTo(page, modal.getByRole('button', { name: 'Try again' }))
  await page.keyboard.press('Enter')
  await quoted(modal)
  // ETH is cheaper in tUSD now: 300 tUSD take more of it, by however much the best venue left moved.
  await expect
    .poll(async () => Number(await modal.getByTestId('swap-from-amount').inputValue()))
    .toBeGreaterThan(firstCost)
  await tabTo(page, modal.getByTestId('swap-to-amount'))
  await page.keyboard.press('Enter')
  await expect(modal.getByTestId('swap-summary')).toBeVisible()
  // The 30 ETH left v3's 0.05 % pool thinner than v2's pair at its new price: the review names whichever
  // venue gives more now, and the swap goes through that one.
  const venue = await modal.getByTestId('swap-preview-venue').textContent()
  expect(['Uniswap v2', 'Uniswap v3']).toContain(venue)
  await press(page, modal, 'Swap')
  const second = await confirmed(modal)
  const bought = (await balanceOf(tusd)) - usdBefore
  expect(bought >= parseUnits('300', 6)).toBe(true)
  expect(bought <= parseUnits('300.01', 6)).toBe(true)
  // Through that venue's router, and exactly what its own quote said the ETH paid buys, the block before.
  const sent = await clients.a.getTransaction({ hash: second as Hash })
  const mined = await clients.a.getTransactionReceipt({ hash: second as Hash })
  const before = mined.blockNumber - 1n
  if (venue === 'Uniswap v3') {
    expect(sent.to?.toLowerCase()).toBe(uniswapV3.router.toLowerCase())
    expect(bought).toBe(await quoterV2(sent.value, before))
  } else {
    // Router02 pays back what an exact output did not need, so the ETH sent may buy more than was bought.
    expect(sent.to?.toLowerCase()).toBe(uniswapV2.router.toLowerCase())
    expect(await amountOut(sent.value, [uniswapV2.weth, tusd], before)).toBeGreaterThanOrEqual(bought)
  }

  // Both are in Activity.
  await tabTo(page, modal.getByRole('button', { name: 'Done' }))
  await page.keyboard.press('Enter')
  await tabTo(page, modal.getByRole('tab', { name: 'Tokens' }))
  await page.keyboard.press('End')
  for (const hash of [first, second])
    await expect(modal.locator(`[data-testid="transaction"][data-id="${hash}"]`).first()).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})
