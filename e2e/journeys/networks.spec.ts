import { connectEvm, expect, request, test } from './fixtures.ts'

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
