import { axeViolations, connectEvm, expect, request, test } from './fixtures.ts'

test('a wallet that moves to a network the dApp did not configure leads to UnsupportedChain, and back', async ({
  page,
  modal,
}) => {
  // plain.html configures only eip155:31337.
  await page.goto('/plain.html')
  await connectEvm(page, modal)
  await page.evaluate(() => window.airlock?.close())
  // The visitor adds and picks Devnet B inside the wallet itself, not through the dApp.
  await page.evaluate(() =>
    window.__airlockTestWallets?.evm?.provider.request({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId: '0x7a6a',
          chainName: 'Airlock Devnet B',
          rpcUrls: ['http://127.0.0.1:8546'],
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        },
      ],
    }),
  )
  await expect(modal.getByRole('dialog')).toBeVisible()
  await expect(modal.getByRole('heading', { name: 'Switch Network' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await modal.getByRole('button', { name: /Airlock Devnet A/ }).click()
  // Leaving a history that holds UnsupportedChain closes the modal: there is nothing behind it to go back to.
  await expect(modal.getByRole('dialog')).toBeHidden()
  await expect.poll(async () => (await request(page, 'eth_chainId')).result).toBe('0x7a69')
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
})

test('a modal frame that reloads fails pending calls clearly and is usable again', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  const pending = page.evaluate(() =>
    window.airlock?.providers.eip155.request({ method: 'eth_requestAccounts' }).then(
      () => 'resolved',
      (error: { code: number; message: string }) => `${error.code} ${error.message}`,
    ),
  )
  await expect(modal.getByRole('dialog')).toBeVisible()
  await page.evaluate(() => {
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    frame.setAttribute('src', frame.src)
  })
  expect(await pending).toBe('4900 The Airlock modal reloaded.')
  await connectEvm(page, modal)
})
