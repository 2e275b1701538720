// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.

import { payments } from 'bitcoinjs-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Litecoind from '../../../../devnet/src/bitcoin/Litecoind.ts'
import * as LitecoindBinary from '../../../../devnet/src/bitcoin/LitecoindBinary.ts'
import * as Regtest from '../../../../devnet/src/bitcoin/Regtest.ts'
import * as Solana from '../../../../devnet/src/solana/Solana.ts'
import type * as Config from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { messages } from '../../http/errors.ts'
import { calls, configOf } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Prices from './Prices.ts'

const hasLitecoind = LitecoindBinary.find() !== undefined
const owner = 'Dv3GQQZsrMrP7jCkhftPk51BMz6zQWLzg9vBsipveXFr'
const stranger = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }
// A key hash of 20 bytes is all a P2WPKH address needs; nobody need hold its key to be paid.
const bitcoinAddress = payments.p2wpkh({ hash: Buffer.alloc(20, 7), network: Regtest.network })
  .address as string

let solana: Solana.Instance
let bitcoin: Litecoind.Instance | undefined
beforeAll(async () => {
  solana = await Solana.start({ port: 0 })
  await solana.fund([owner as Parameters<typeof solana.fund>[0][number]], {
    lamports: 2_500_000_000n,
    usdc: 12_345_678n,
  })
  if (hasLitecoind) {
    bitcoin = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 0 })
    await bitcoin.fund(bitcoinAddress, '1.5')
    await bitcoin.mine(1)
    // Unconfirmed coins count too: the visitor sees them arrive.
    await bitcoin.fund(bitcoinAddress, '0.25')
  }
})
afterAll(async () => {
  await solana?.stop()
  await bitcoin?.stop()
})

function chainsOf(): Config.Chain[] {
  return [
    {
      id: Solana.caipNetworkId,
      name: 'Solana Devnet',
      rpcUrl: solana.rpcUrl,
      nativeCurrency: sol,
      tokens: [{ address: Solana.usdcMint, name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
    },
    ...(bitcoin
      ? [
          {
            id: Regtest.caipNetworkId,
            name: 'Bitcoin Devnet',
            rpcUrl: bitcoin.rpcUrl,
            nativeCurrency: { name: 'Regtest Litecoin', symbol: 'rLTC', decimals: 8 },
          },
        ]
      : []),
  ]
}

describe.each(databases())('Solana and Bitcoin balances on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  const { json } = calls(() => api)
  const balance = (address: string, chainId: string) =>
    json(`/v1/account/${address}/balance?projectId=demo&chainId=${chainId}`)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*'])
    await Prices.set(db, [
      {
        chainId: Solana.caipNetworkId,
        address: Prices.native,
        currency: 'usd',
        price: 150,
        ...sol,
        iconUrl: null,
      },
    ])
    api = Service.create({ db, config: configOf(chainsOf()) }).api
  })
  afterAll(() => db?.close())

  it('reads SOL and the configured SPL mints from the chain, priced where a price is known', async () => {
    const { status, body } = await balance(owner, Solana.caipNetworkId)
    expect(status).toBe(200)
    expect(body.balances).toEqual([
      {
        name: 'Solana',
        symbol: 'SOL',
        chainId: Solana.caipNetworkId,
        value: 375,
        price: 150,
        quantity: { decimals: '9', numeric: '2.5' },
        iconUrl: '',
      },
      {
        name: 'USD Coin',
        symbol: 'USDC',
        chainId: Solana.caipNetworkId,
        address: `${Solana.caipNetworkId}:${Solana.usdcMint}`,
        value: 0,
        price: 0,
        quantity: { decimals: '6', numeric: '12.345678' },
        iconUrl: '',
      },
    ])
  })

  it('an address that holds nothing has a zero balance and no tokens', async () => {
    const { body } = await balance(stranger, Solana.caipNetworkId)
    expect(body.balances).toEqual([
      expect.objectContaining({ symbol: 'SOL', quantity: { decimals: '9', numeric: '0' } }),
    ])
  })

  it('refuses an address of another family, naming the one the chain takes', async () => {
    expect(await balance('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', Solana.caipNetworkId)).toEqual({
      status: 400,
      body: { message: messages.invalidSolanaAddress },
    })
    if (!bitcoin) return
    const wrong = await balance(owner, Regtest.caipNetworkId)
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toContain(messages.invalidBitcoinAddress)
    // Bitcoin's own regtest spells addresses bcrt1…: not this chain's.
    const other = payments.p2wpkh({ hash: Buffer.alloc(20, 7) }).address as string
    expect((await balance(other, Regtest.caipNetworkId)).status).toBe(400)
  })

  it.skipIf(!hasLitecoind)(
    'reads a Bitcoin-family balance from the chain index: confirmed and arriving',
    async () => {
      const { status, body } = await balance(bitcoinAddress, Regtest.caipNetworkId)
      expect(status).toBe(200)
      expect(body.balances).toEqual([
        {
          name: 'Regtest Litecoin',
          symbol: 'rLTC',
          chainId: Regtest.caipNetworkId,
          value: 0,
          price: 0,
          quantity: { decimals: '8', numeric: '1.75' },
          iconUrl: '',
        },
      ])
      // The same index answers Esplora's routes.
      const esplora = await json(
        `/v1/bip122/${Regtest.caipNetworkId.slice('bip122:'.length)}/esplora/address/${bitcoinAddress}`,
      )
      expect(esplora.body).toMatchObject({
        chain_stats: { funded_txo_sum: 150_000_000 },
        mempool_stats: { funded_txo_sum: 25_000_000 },
      })
    },
  )
})
