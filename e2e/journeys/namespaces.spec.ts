import { verifyBitcoinMessage, verifySolanaSignature } from '../wallets/verify.ts'
import { addresses, expect, standardSign, test } from './fixtures.ts'

test('Solana: connect through Wallet Standard and sign a message that verifies', async ({ page, modal }) => {
  await page.goto('/')
  const pending = standardSign(page, 'solana', 'hello solana')
  await modal.getByRole('button', { name: 'Airlock Test Solana' }).click()
  const { address, signature } = await pending
  expect(address).toBe(addresses.solana?.address)
  expect(verifySolanaSignature('hello solana', signature, address as string)).toBe(true)
})

test('Bitcoin: connect through Wallet Standard and sign a message that verifies', async ({ page, modal }) => {
  await page.goto('/')
  const pending = standardSign(page, 'bip122', 'hello bitcoin')
  await modal.getByRole('button', { name: 'Airlock Test Bitcoin' }).click()
  const { address, signature } = await pending
  expect(address).toBe(addresses.bitcoin?.address)
  expect(verifyBitcoinMessage('hello bitcoin', signature, addresses.bitcoin?.publicKeyHex as string)).toBe(
    true,
  )
})
