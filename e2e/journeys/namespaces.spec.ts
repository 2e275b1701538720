import { verifyBitcoinMessage, verifySolanaSignature } from '../wallets/verify.ts'
import { addresses, expect, test } from './fixtures.ts'

test('Solana: connect through Wallet Standard and sign a message that verifies', async ({ page, modal }) => {
  await page.goto('/')
  const pending = page.evaluate(async () => {
    const wallet = window.airlock?.providers.solana
    const connect = wallet?.features['standard:connect'] as {
      connect(): Promise<{ accounts: { address: string }[] }>
    }
    const { accounts } = await connect.connect()
    const account = accounts[0]
    const sign = wallet?.features['solana:signMessage'] as {
      signMessage(input: { account: unknown; message: Uint8Array }): Promise<{ signature: Uint8Array }[]>
    }
    const [signed] = await sign.signMessage({ account, message: new TextEncoder().encode('hello solana') })
    return { address: account?.address, signature: [...(signed?.signature ?? [])] }
  })
  await modal.getByRole('button', { name: 'Airlock Test Solana' }).click()
  const { address, signature } = await pending
  expect(address).toBe(addresses.solana?.address)
  expect(verifySolanaSignature('hello solana', signature, address as string)).toBe(true)
})

test('Bitcoin: connect through Wallet Standard and sign a message that verifies', async ({ page, modal }) => {
  await page.goto('/')
  const pending = page.evaluate(async () => {
    const wallet = window.airlock?.providers.bip122
    const connect = wallet?.features['bitcoin:connect'] as {
      connect(): Promise<{ accounts: { address: string }[] }>
    }
    const { accounts } = await connect.connect()
    const account = accounts[0]
    const sign = wallet?.features['bitcoin:signMessage'] as {
      signMessage(input: { account: unknown; message: Uint8Array }): Promise<{ signature: Uint8Array }[]>
    }
    const [signed] = await sign.signMessage({ account, message: new TextEncoder().encode('hello bitcoin') })
    return { address: account?.address, signature: [...(signed?.signature ?? [])] }
  })
  await modal.getByRole('button', { name: 'Airlock Test Bitcoin' }).click()
  const { address, signature } = await pending
  expect(address).toBe(addresses.bitcoin?.address)
  expect(verifyBitcoinMessage('hello bitcoin', signature, addresses.bitcoin?.publicKeyHex as string)).toBe(
    true,
  )
})
