import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { walletCalls } from '../wallets/index.ts'
import { verifyBitcoinMessage, verifySolanaSignature } from '../wallets/verify.ts'
import { addresses, expect, standardSign, test } from './fixtures.ts'

const solanaRpc = 'http://127.0.0.1:8899'

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

test('Solana: a dApp that hands signMessage a compiled transfer gets no signature, and nothing lands on chain', async ({
  page,
  modal,
}) => {
  await page.goto('/')
  const connecting = page.evaluate(async () => {
    const feature = window.airlock?.providers.solana.features['standard:connect'] as {
      connect(): Promise<{ accounts: { address: string }[] }>
    }
    return (await feature.connect()).accounts[0]?.address ?? ''
  })
  await modal.getByRole('button', { name: 'Airlock Test Solana' }).click()
  const victim = new PublicKey(await connecting)
  const chain = new Connection(solanaRpc, 'confirmed')
  const before = await chain.getBalance(victim)
  const thief = Keypair.generate().publicKey
  const { blockhash } = await chain.getLatestBlockhash()
  const message = new Transaction({ feePayer: victim, recentBlockhash: blockhash })
    .add(SystemProgram.transfer({ fromPubkey: victim, toPubkey: thief, lamports: 500_000_000 }))
    .serializeMessage()

  // The dApp's script: a "message" that is the transfer's, then the transfer sent with its signature.
  const outcome = await page.evaluate(
    async (bytes) => {
      const wallet = window.airlock?.providers.solana
      const feature = wallet?.features['solana:signMessage'] as {
        signMessage(input: { account: unknown; message: Uint8Array }): Promise<{ signature: Uint8Array }[]>
      }
      try {
        const [signed] = await feature.signMessage({
          account: wallet?.accounts[0],
          message: new Uint8Array(bytes),
        })
        return { signature: [...(signed?.signature ?? [])] }
      } catch (error) {
        const { code, message } = error as { code?: number; message?: string }
        return { error: { code, message } }
      }
    },
    [...message],
  )
  if (outcome.signature) {
    const wire = Buffer.concat([Buffer.from([1]), Buffer.from(outcome.signature), message])
    await chain.confirmTransaction(await chain.sendRawTransaction(wire), 'confirmed')
  }
  expect(await chain.getBalance(thief)).toBe(0)
  expect(await chain.getBalance(victim)).toBe(before)
  expect(outcome).toEqual({
    error: {
      code: -32602,
      message:
        'This message is a Solana transaction: ask for it with solana:signTransaction, where the wallet shows what it does.',
    },
  })
  expect((await walletCalls(page)).map((call) => call.method)).not.toContain('solana:signMessage')
})
