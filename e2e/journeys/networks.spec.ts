import { connectEvm, connectThenLeaveForDevnetB, expect, request, test } from './fixtures.ts'

test('switching to 31338 and back sends chainChanged; a chain the wallet lacks is added first', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await page.evaluate(() => {
    const changes: string[] = []
    Object.assign(window, { changes })
    window.airlock?.providers.eip155.on('chainChanged', (id: string) => changes.push(id))
  })

  const toB = await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])
  expect(toB.error).toBeUndefined()
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { changes: string[] }).changes))
    .toEqual(['0x7a6a'])
  expect((await request(page, 'eth_chainId')).result).toBe('0x7a6a')
  const added = await page.evaluate(() => window.__airlockTestWallets?.calls.map((c) => c.method))
  expect(added).toContain('wallet_addEthereumChain')

  // Back through the modal's Networks view, as a visitor would.
  await page.evaluate(() => window.airlock?.open({ view: 'Networks' }))
  await modal.getByRole('button', { name: /Airlock Devnet A/ }).click()
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { changes: string[] }).changes))
    .toEqual(['0x7a6a', '0x7a69'])
  await expect(page.locator('#chain')).toHaveText('eip155:31337')
})

test('switching to a network the dApp did not configure is refused with 4902', async ({ page, modal }) => {
  await page.goto('/')
  await connectEvm(page, modal)
  const result = await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])
  expect(result.error?.code).toBe(4902)
})

/** The dApp's own network: Devnet B under its name and icon, marked a test network. */
const teamDevnet = {
  id: 'eip155:31338',
  name: 'Team Devnet',
  rpcUrl: 'http://127.0.0.1:8546',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  iconUrl:
    'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Ccircle cx="4" cy="4" r="4" fill="%23f60"/%3E%3C/svg%3E',
  testnet: true,
}

const teamRow = /^Team Devnet\s*Testnet$/

test('a network the dApp declares shows under EVM by its name and icon, marked testnet, and switching to it works', async ({
  page,
  modal,
}) => {
  const custom = encodeURIComponent(JSON.stringify([teamDevnet]))
  await page.goto(`/module.html?networks=eip155:31337,eip155:31338&customNetworks=${custom}`)
  await connectEvm(page, modal)
  await page.evaluate(() => window.airlock?.open({ view: 'Networks' }))

  const evm = modal.getByRole('region', { name: 'EVM' })
  await expect(evm.getByRole('heading', { name: 'EVM' })).toBeVisible()
  const team = evm.getByRole('list', { name: 'EVM' }).getByRole('button', { name: teamRow })
  await expect(team).toBeVisible()
  await expect(team.locator('img')).toHaveAttribute('src', teamDevnet.iconUrl)
  // The registry's name for the same chain is gone: the dApp's declaration replaced it.
  await expect(modal.getByRole('button', { name: /Airlock Devnet B/ })).toHaveCount(0)
  await expect(evm.getByRole('button', { name: /Airlock Devnet A/ })).toHaveAttribute('aria-current', 'true')

  await team.click()
  await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a6a')
  // The wallet did not know the chain: it was added with the dApp's name for it.
  const calls = await page.evaluate(() => window.__airlockTestWallets?.calls.map((c) => c.method))
  expect(calls).toContain('wallet_addEthereumChain')
  // A switch ends by leaving Networks, which closes the modal it opened on; opening again before that
  // would be closed by it.
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().open)).toBe(false)
  await page.evaluate(() => window.airlock?.open({ view: 'Networks' }))
  await expect(modal.getByRole('button', { name: teamRow })).toHaveAttribute('aria-current', 'true')
  await expect(modal.getByTestId('account-network')).toHaveCount(0)
})

test('UnsupportedChain names the chain the wallet is on and offers the supported networks with their icons', async ({
  page,
  modal,
}) => {
  await connectThenLeaveForDevnetB(page, modal)
  await expect(modal.getByTestId('unsupported-chain')).toContainText('Your wallet is on Airlock Devnet B')
  const offered = modal.getByRole('button', { name: /Airlock Devnet A/ })
  await expect(offered).toBeVisible()
  // Its icon: the network's own, or one drawn in the modal from its chain id, never fetched from elsewhere.
  await expect(offered.locator('.network-icon')).toHaveCount(1)
  const drawn = offered.locator('svg.network-monogram')
  if ((await drawn.count()) > 0) await expect(drawn).toHaveAttribute('data-chain', 'eip155:31337')
  await offered.click()
  await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a69')
  // In Networks the chain the wallet is on now is the marked one.
  await page.evaluate(() => window.airlock?.open({ view: 'Networks' }))
  await expect(modal.getByRole('button', { name: /Airlock Devnet A/ })).toHaveAttribute(
    'aria-current',
    'true',
  )
})
