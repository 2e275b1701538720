import { parseEther, verifyMessage, verifyTypedData } from 'viem'
import { setWalletMode, walletCalls } from '../wallets/index.ts'
import { addresses, clients, connectEvm, displayBalance, expect, request, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`

test('a visitor opens Airlock, sees the page wallet and the requesting site, connects, and sees their balance', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Open Airlock' }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  await expect(modal.getByTestId('host-origin')).toHaveText(/http:\/\/localhost:5173/)
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  const balance = await clients.a.getBalance({ address: evm })
  await expect(modal.getByTestId('account-balance')).toHaveText(displayBalance(balance))
  await expect(page.locator('#status')).toHaveText('connected')
  await expect(page.locator('#account')).toHaveText(`eip155:31337:${evm}`)
})

test('a dApp that knows only EIP-6963 and viem connects through Airlock and sends a transaction', async ({
  page,
  modal,
}) => {
  await page.goto('/eip6963.html')
  await page.locator('button[data-rdns="dev.airlock"]').click()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(page.locator('#result')).toHaveText(evm)
  await expect(modal.getByRole('dialog')).toBeHidden()

  const hash = await page.evaluate(
    async ({ from }) => {
      const providers = (
        window as unknown as {
          eip6963Providers: Map<string, { provider: { request(a: unknown): Promise<string> } }>
        }
      ).eip6963Providers
      const provider = providers.get('dev.airlock')?.provider
      return provider?.request({
        method: 'eth_sendTransaction',
        params: [{ from, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x2386f26fc10000' }],
      })
    },
    { from: evm },
  )
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  const receipt = await clients.a.waitForTransactionReceipt({ hash: hash as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(evm.toLowerCase())

  await page.evaluate(() => window.airlock?.open())
  const balance = await clients.a.getBalance({ address: evm })
  await expect(modal.getByTestId('account-balance')).toHaveText(displayBalance(balance))
})

test('personal_sign and eth_signTypedData_v4 return signatures that verify', async ({ page, modal }) => {
  await page.goto('/')
  await connectEvm(page, modal)
  const message = 'Sign in to the Airlock demo'
  const messageHex = `0x${Buffer.from(message).toString('hex')}`
  const signed = await request(page, 'personal_sign', [messageHex, evm])
  expect(signed.error).toBeUndefined()
  expect(await verifyMessage({ address: evm, message, signature: signed.result as `0x${string}` })).toBe(true)

  const typedData = {
    domain: { name: 'Airlock', version: '1', chainId: 31337 },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Greeting: [{ name: 'text', type: 'string' }],
    },
    primaryType: 'Greeting',
    message: { text: 'hello' },
  } as const
  const typed = await request(page, 'eth_signTypedData_v4', [evm, JSON.stringify(typedData)])
  expect(typed.error).toBeUndefined()
  const { EIP712Domain: _, ...types } = typedData.types
  expect(
    await verifyTypedData({
      address: evm,
      domain: typedData.domain,
      types,
      primaryType: 'Greeting',
      message: typedData.message,
      signature: typed.result as `0x${string}`,
    }),
  ).toBe(true)
})

test('a wallet rejection reaches the dApp as 4001, and an unknown method as 4200', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await setWalletMode(page, 'reject')
  const rejected = await request(page, 'personal_sign', ['0x68656c6c6f', evm])
  expect(rejected.error?.code).toBe(4001)
  const value = parseEther('0.001')
  const send = await request(page, 'eth_sendTransaction', [
    { from: evm, to: evm, value: `0x${value.toString(16)}` },
  ])
  expect(send.error?.code).toBe(4001)
  const unknown = await request(page, 'airlock_doesNotExist', [])
  expect(unknown.error?.code).toBe(4200)
})

test('a reload reconnects without a prompt; disconnect tells the dApp and shows Connect', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await page.reload()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  expect((await request(page, 'eth_accounts')).result).toEqual([evm])
  const calls = await walletCalls(page)
  expect(calls.map((c) => c.method)).not.toContain('eth_requestAccounts')

  await page.evaluate(() => {
    const events: string[] = []
    Object.assign(window, { seen: events })
    window.airlock?.providers.eip155.on('disconnect', () => events.push('disconnect'))
  })
  await page.getByRole('button', { name: 'Disconnect' }).click()
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen))
    .toEqual(['disconnect'])
  expect((await request(page, 'eth_accounts')).result).toEqual([])
  await page.evaluate(() => window.airlock?.open())
  await expect(modal.getByRole('button', { name: 'Airlock Test Wallet' })).toBeVisible()
})
