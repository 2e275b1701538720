/**
 * The three chain families behind the modal, all real: anvil, the Solana chain over litesvm and Litecoin
 * Core's regtest. Each test wallet connects in turn and the Account view shows what its chain says it
 * holds; a transfer made outside the modal reaches the API's history within 2 s.
 */

import { Accounts } from '@airlock/devnet'
import * as Regtest from '@airlock/devnet/bitcoin-regtest'
import { solanaDevnetId } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { Psbt, payments } from 'bitcoinjs-lib'
import { createWalletClient, formatUnits, type Hash, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  addresses,
  clients,
  connectWallet,
  displayBalance,
  displayQuantity,
  expect,
  rpc,
  test,
} from './fixtures.ts'

const apiUrl = 'http://127.0.0.1:8787'
const networks = ['eip155:31337', solanaDevnetId, Regtest.caipNetworkId].join(',')

async function disconnect(page: Page, modal: FrameLocator) {
  await modal.getByRole('button', { name: 'Disconnect' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
}

test('EVM, Solana and Bitcoin wallets connect in turn, and the Account view shows what each chain holds', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)

  const evm = addresses.evm?.address as `0x${string}`
  await connectWallet(page, modal, 'Airlock Test Wallet', evm)
  await expect(modal.getByTestId('account-balance')).toHaveText(
    displayBalance(await clients.a.getBalance({ address: evm })),
  )
  await expect(modal.getByTestId('account-tokens')).toContainText('ALT')
  await disconnect(page, modal)

  const solana = addresses.solana?.address as string
  await connectWallet(page, modal, 'Airlock Test Solana', solana)
  const lamports = await rpc<{ value: number }>('http://127.0.0.1:8899', 'getBalance', [
    solana,
    { commitment: 'confirmed' },
  ])
  expect(lamports.value).toBeGreaterThan(0)
  await expect(modal.getByTestId('account-balance')).toHaveText(
    displayQuantity(formatUnits(BigInt(lamports.value), 9), 'SOL'),
  )
  // The USDC-like SPL token the devnet funded it with.
  await expect(modal.getByTestId('account-tokens').getByTestId('token-amount')).toHaveText(
    /^\d{1,3}(,\d{3})*\.\d{3} USDC$/,
  )
  await disconnect(page, modal)

  const bitcoin = addresses.bitcoin?.address as string
  expect(bitcoin).toMatch(/^rltc1q/)
  await connectWallet(page, modal, 'Airlock Test Bitcoin', bitcoin)
  const esplora = `${apiUrl}/v1/bip122/${Regtest.caipNetworkId.slice('bip122:'.length)}/esplora`
  const stats = (await (await fetch(`${esplora}/address/${bitcoin}`)).json()) as {
    chain_stats: { funded_txo_sum: number; spent_txo_sum: number }
    mempool_stats: { funded_txo_sum: number; spent_txo_sum: number }
  }
  const sats =
    stats.chain_stats.funded_txo_sum -
    stats.chain_stats.spent_txo_sum +
    stats.mempool_stats.funded_txo_sum -
    stats.mempool_stats.spent_txo_sum
  expect(sats).toBeGreaterThan(0)
  await expect(modal.getByTestId('account-balance')).toHaveText(
    displayQuantity(formatUnits(BigInt(sats), 8), 'rLTC'),
  )
})

test('a transfer made outside the modal is in the account history within 2 s', async ({ page }) => {
  await page.goto(`/module.html?networks=${networks}`)
  // To an account no other journey reads a balance of: the API caches balances for 30 s.
  const to = Accounts.all()[7]?.address as `0x${string}`
  const sender = privateKeyToAccount(Accounts.all()[6]?.privateKey as `0x${string}`)
  const wallet = createWalletClient({ account: sender, transport: http('http://127.0.0.1:8545') })
  const hash: Hash = await wallet.sendTransaction({ chain: null, to, value: parseEther('0.01') })
  const sent = Date.now()
  const history = `${apiUrl}/v1/account/${to}/history?projectId=demo&chainId=eip155:31337`
  type Answer = { data: { id: string; metadata: { operationType: string; sentFrom: string } }[] }
  await expect
    .poll(
      async () => ((await (await fetch(history)).json()) as Answer).data.find((item) => item.id === hash),
      { intervals: [100] },
    )
    .toMatchObject({ metadata: { operationType: 'receive', sentFrom: sender.address.toLowerCase() } })
  expect(Date.now() - sent).toBeLessThan(2_000)
})

test('the Solana wallet signs a real transfer through Airlock: confirmed on the chain, read back by the API, in the history within 2 s', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.solana?.address as string
  await connectWallet(page, modal, 'Airlock Test Solana', from)
  const connection = new Connection('http://127.0.0.1:8899', 'confirmed')
  const to = Keypair.generate().publicKey
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
  const message = new TransactionMessage({
    payerKey: new PublicKey(from),
    recentBlockhash: blockhash,
    instructions: [
      SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: to, lamports: 1_500_000_000 }),
    ],
  }).compileToV0Message()
  const unsigned = new VersionedTransaction(message).serialize()
  // The history of an account someone has looked at is followed from then on.
  const history = `${apiUrl}/v1/account/${from}/history?projectId=demo&chainId=${solanaDevnetId}`
  expect((await fetch(history)).status).toBe(200)
  // What a Wallet Standard dApp does with Airlock's Solana wallet: the modal passes it to the page's wallet.
  const signed = await page.evaluate(
    async (bytes) => {
      const wallet = window.airlock?.providers.solana
      const account = wallet?.accounts[0]
      const feature = wallet?.features['solana:signTransaction'] as {
        signTransaction(input: {
          account: unknown
          transaction: Uint8Array
        }): Promise<{ signedTransaction: Uint8Array }[]>
      }
      const [result] = await feature.signTransaction({ account, transaction: new Uint8Array(bytes) })
      return [...(result?.signedTransaction ?? [])]
    },
    [...unsigned],
  )
  const signature = await connection.sendRawTransaction(Uint8Array.from(signed))
  const sent = Date.now()
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed')
  // On chain: the receiver holds exactly what was sent.
  expect(await connection.getBalance(to, 'confirmed')).toBe(1_500_000_000)
  const left = await connection.getBalance(new PublicKey(from), 'confirmed')
  // In the account's history within 2 s of being sent, as a send of 1.5 SOL.
  type Answer = { data: { id: string; metadata: { operationType: string } }[] }
  await expect
    .poll(
      async () =>
        ((await (await fetch(history)).json()) as Answer).data.find((item) => item.id === signature),
      { intervals: [100] },
    )
    .toMatchObject({ metadata: { operationType: 'send' } })
  expect(Date.now() - sent).toBeLessThan(2_000)
  // And the API, asked past its 30 s cache, reads the same from the chain.
  const answer = (await (
    await fetch(
      `${apiUrl}/v1/account/${from}/balance?projectId=demo&chainId=${solanaDevnetId}&forceUpdate=true`,
    )
  ).json()) as { balances: { symbol: string; quantity: { numeric: string } }[] }
  expect(answer.balances.find((entry) => entry.symbol === 'SOL')?.quantity.numeric).toBe(
    formatUnits(BigInt(left), 9),
  )
})

test('the Bitcoin wallet signs a real spend through Airlock; the node takes it and the index shows it', async ({
  page,
  modal,
}) => {
  await page.goto(`/module.html?networks=${networks}`)
  const from = addresses.bitcoin?.address as string
  await connectWallet(page, modal, 'Airlock Test Bitcoin', from)
  const esplora = `${apiUrl}/v1/bip122/${Regtest.caipNetworkId.slice('bip122:'.length)}/esplora`
  const utxos = (await (await fetch(`${esplora}/address/${from}/utxo`)).json()) as {
    txid: string
    vout: number
    value: number
  }[]
  const coin = utxos.sort((a, b) => b.value - a.value)[0]
  if (!coin) throw new Error(`the devnet funded ${from} with nothing`)
  const own = payments.p2wpkh({ address: from, network: Regtest.network }).output as Uint8Array
  // Paid to a fresh key hash nobody holds: only the amount matters here.
  const hash = crypto.getRandomValues(new Uint8Array(20))
  const to = payments.p2wpkh({ hash, network: Regtest.network }).address as string
  const amount = 10_000_000
  const fee = 2_000
  const psbt = new Psbt({ network: Regtest.network })
  psbt.addInput({
    hash: coin.txid,
    index: coin.vout,
    witnessUtxo: { script: own, value: BigInt(coin.value) },
  })
  psbt.addOutput({ address: to, value: BigInt(amount) })
  psbt.addOutput({ address: from, value: BigInt(coin.value - amount - fee) })
  // What a Wallet Standard dApp does with Airlock's Bitcoin wallet: the modal passes it to the page's wallet.
  const signed = await page.evaluate(
    async (raw) => {
      const wallet = window.airlock?.providers.bip122
      const account = wallet?.accounts[0]
      const feature = wallet?.features['bitcoin:signTransaction'] as {
        signTransaction(input: {
          psbt: Uint8Array
          inputsToSign: { account: unknown; signingIndexes: number[] }[]
        }): Promise<{ signedPsbt: Uint8Array }[]>
      }
      const [result] = await feature.signTransaction({
        psbt: Uint8Array.from(raw),
        inputsToSign: [{ account, signingIndexes: [0] }],
      })
      return [...(result?.signedPsbt ?? [])]
    },
    [...psbt.toBuffer()],
  )
  const transaction = Psbt.fromBuffer(Uint8Array.from(signed), { network: Regtest.network })
    .finalizeAllInputs()
    .extractTransaction()
  const broadcast = await fetch(`${esplora}/tx`, { method: 'POST', body: transaction.toHex() })
  expect(broadcast.status).toBe(200)
  expect(await broadcast.text()).toBe(transaction.getId())
  // The node took it: the receiver's coins are there, waiting for the next block or in it.
  await expect
    .poll(async () => {
      const stats = (await (await fetch(`${esplora}/address/${to}`)).json()) as {
        chain_stats: { funded_txo_sum: number }
        mempool_stats: { funded_txo_sum: number }
      }
      return stats.chain_stats.funded_txo_sum + stats.mempool_stats.funded_txo_sum
    })
    .toBe(amount)
  const status = (await (await fetch(`${esplora}/tx/${transaction.getId()}`)).json()) as { fee: number }
  expect(status.fee).toBe(fee)
})
