// The devnet's litecoind by path, not as a package: the devnet's stack runs this service, so a package
// dependency would be a cycle (as in balances/routes.test.ts).

import { secp256k1 } from '@noble/curves/secp256k1'
import { Psbt, payments, type Signer } from 'bitcoinjs-lib'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Litecoind from '../../../../devnet/src/bitcoin/Litecoind.ts'
import * as LitecoindBinary from '../../../../devnet/src/bitcoin/LitecoindBinary.ts'
import * as Regtest from '../../../../devnet/src/bitcoin/Regtest.ts'
import type { Env } from '../../http/project.ts'
import { closedPort } from '../../internal/closedPort.ts'
import * as Explorer from './Explorer.ts'
import * as Esplora from './routes.ts'
import type { EsploraTx, Status } from './Transaction.ts'

const missing = `litecoind is not installed, so there is no node to serve: ${LitecoindBinary.installHint}`
const { network, caipNetworkId: chainId } = Regtest

type Unspent = { txid: string; vout: number; amount: number; height: number }
type VerboseTx = {
  size: number
  vsize: number
  weight: number
  vout: { n: number; scriptPubKey: { hex: string } }[]
}

/** A P2WPKH key of the test's own; bitcoinjs signs through noble, so no native ECC library is needed. */
function wallet(seed: number) {
  const privateKey = new Uint8Array(32).fill(seed)
  const pubkey = secp256k1.getPublicKey(privateKey, true)
  const payment = payments.p2wpkh({ pubkey, network })
  const signer: Signer = {
    publicKey: pubkey,
    sign: (hash) => secp256k1.sign(hash, privateKey, { lowS: true }).toCompactRawBytes(),
  }
  return { address: payment.address ?? '', script: payment.output ?? new Uint8Array(), signer }
}

describe('Esplora routes over litecoind', () => {
  let node: Litecoind.Instance
  let explorer: Explorer.Explorer
  let app: Hono<Env>
  beforeAll(async () => {
    if (!LitecoindBinary.find()) return
    node = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 0 })
    explorer = Explorer.create({ rpcUrl: node.rpcUrl, network, chainId, pollMs: 0 })
    app = Esplora.create({ explorer })
  })
  afterAll(async () => {
    explorer?.close()
    await node?.stop()
  })

  /** A test that needs the node: skipped, saying why, only where litecoind is not installed. */
  const live = (name: string, test: () => Promise<void>) =>
    it(name, async ({ skip }) => {
      if (!node) return skip(missing)
      await test()
    })

  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await app.request(path)
    return { status: response.status, body: (await response.json()) as T }
  }
  const unspentsOf = async (address: string) =>
    (await node.rpc<{ unspents: Unspent[] }>('scantxoutset', ['start', [`addr(${address})`]])).unspents

  /** Funds `to` from the node's wallet and returns the outpoint that pays it. */
  async function fund(to: ReturnType<typeof wallet>, coins: string) {
    const txid = await node.fund(to.address, coins)
    const tx = await node.rpc<VerboseTx>('getrawtransaction', [txid, true])
    const vout = tx.vout.findIndex((out) => out.scriptPubKey.hex === Buffer.from(to.script).toString('hex'))
    return { txid, vout }
  }

  /** A signed spend of `coin` (worth `value` sats) to `toAddress`, leaving `fee` sats to the miner. */
  function spend(
    from: ReturnType<typeof wallet>,
    coin: { txid: string; vout: number },
    value: bigint,
    toAddress: string,
    fee = 10_000n,
  ) {
    const psbt = new Psbt({ network })
      .addInput({ hash: coin.txid, index: coin.vout, witnessUtxo: { script: from.script, value } })
      .addOutput({ address: toAddress, value: value - fee })
    psbt.signInput(0, from.signer)
    psbt.finalizeAllInputs()
    return psbt.extractTransaction()
  }

  live('answers an address’s stats and coins as the node counts them', async () => {
    const alice = wallet(1)
    await fund(alice, '0.3')
    const pending = await get<Explorer.AddressInfo>(`/address/${alice.address}`)
    expect(pending.body.mempool_stats).toEqual({
      funded_txo_count: 1,
      funded_txo_sum: 30_000_000,
      spent_txo_count: 0,
      spent_txo_sum: 0,
      tx_count: 1,
    })
    await fund(alice, '0.2')
    const [hash] = await node.mine(1)
    const { status, body } = await get<Explorer.AddressInfo>(`/address/${alice.address}`)
    expect(status).toBe(200)
    expect(body).toEqual({
      address: alice.address,
      chain_stats: {
        funded_txo_count: 2,
        funded_txo_sum: 50_000_000,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: 2,
      },
      mempool_stats: {
        funded_txo_count: 0,
        funded_txo_sum: 0,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: 0,
      },
    })

    const utxos = (await get<Explorer.Utxo[]>(`/address/${alice.address}/utxo`)).body
    const onNode = await unspentsOf(alice.address)
    const key = (u: { txid: string; vout: number }) => `${u.txid}:${u.vout}`
    expect(utxos.map(key).sort()).toEqual(onNode.map(key).sort())
    expect(utxos.map((u) => u.value).sort()).toEqual(onNode.map((u) => Math.round(u.amount * 1e8)).sort())
    const block = await node.rpc<{ height: number; time: number }>('getblockheader', [hash])
    expect(utxos[0]?.status).toEqual({
      confirmed: true,
      block_height: block.height,
      block_hash: hash,
      block_time: block.time,
    })
    expect(await explorer.balance(alice.address)).toEqual({ confirmed: 50_000_000n, unconfirmed: 0n })
  })

  live('lists an address’s transactions newest first, a spend included, in Esplora’s shape', async () => {
    const bob = wallet(2)
    const carol = wallet(3)
    const coin = await fund(bob, '0.5')
    await node.mine(1)
    const tx = spend(bob, coin, 50_000_000n, carol.address)
    const response = await app.request('/tx', { method: 'POST', body: tx.toHex() })
    expect(await response.text()).toBe(tx.getId())

    const pending = (await get<EsploraTx[]>(`/address/${bob.address}/txs`)).body
    expect(pending.map((t) => [t.txid, t.status.confirmed])).toEqual([
      [tx.getId(), false],
      [coin.txid, true],
    ])
    expect((await get<Explorer.Utxo[]>(`/address/${bob.address}/utxo`)).body).toEqual([])
    expect(await explorer.balance(bob.address)).toEqual({ confirmed: 50_000_000n, unconfirmed: -50_000_000n })

    const [hash] = await node.mine(1)
    const { body: txs } = await get<EsploraTx[]>(`/address/${bob.address}/txs`)
    expect(txs.map((t) => t.txid)).toEqual([tx.getId(), coin.txid])
    const verbose = await node.rpc<VerboseTx>('getrawtransaction', [tx.getId(), true])
    expect(txs[0]).toMatchObject({
      txid: tx.getId(),
      version: 2,
      locktime: 0,
      size: verbose.size,
      weight: verbose.weight,
      fee: 10_000,
      status: { confirmed: true, block_hash: hash },
      vin: [
        {
          txid: coin.txid,
          vout: coin.vout,
          scriptsig: '',
          is_coinbase: false,
          sequence: 0xffffffff,
          prevout: { scriptpubkey_address: bob.address, scriptpubkey_type: 'v0_p2wpkh', value: 50_000_000 },
        },
      ],
      vout: [{ scriptpubkey_address: carol.address, scriptpubkey_type: 'v0_p2wpkh', value: 49_990_000 }],
    })
    expect(txs[0]?.vin[0]?.witness).toHaveLength(2)
    expect((await get<Explorer.AddressInfo>(`/address/${bob.address}`)).body.chain_stats).toMatchObject({
      spent_txo_count: 1,
      spent_txo_sum: 50_000_000,
      tx_count: 2,
    })
    expect((await get<EsploraTx>(`/tx/${tx.getId()}`)).body).toEqual(txs[0])
    expect((await get<Status>(`/tx/${tx.getId()}/status`)).body).toEqual(txs[0]?.status)
  })

  live('passes on the node’s reason when it refuses a transaction', async () => {
    const dave = wallet(4)
    const coin = await fund(dave, '0.1')
    const first = spend(dave, coin, 10_000_000n, wallet(5).address)
    const accepted = await app.request('/tx', { method: 'POST', body: first.toHex() })
    expect(accepted.status).toBe(200)
    // The same coin again, paying a little more fee: a conflict without replace-by-fee signalling.
    const second = spend(dave, coin, 10_000_000n, wallet(6).address, 20_000n)
    const refused = await app.request('/tx', { method: 'POST', body: second.toHex() })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ message: expect.stringMatching(/txn-mempool-conflict/) })
    const garbled = await app.request('/tx', { method: 'POST', body: '0200' })
    expect(garbled.status).toBe(400)
    expect(await garbled.json()).toEqual({ message: expect.stringMatching(/TX decode failed/) })
    const notHex = await app.request('/tx', { method: 'POST', body: 'hello' })
    expect(await notHex.json()).toEqual({ message: 'The body is not a raw transaction in hex' })
  })

  live('refuses addresses of other networks and answers 404 for unknown transactions', async () => {
    const mainnet = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
    for (const address of [mainnet, 'mrKFpi5FeQ6sWZkQuWYtfpvn9TPfPF2TaX', 'nonsense']) {
      const { status, body } = await get(`/address/${address}/utxo`)
      expect(status).toBe(400)
      expect(body).toEqual({ message: `Invalid address for ${chainId}: ${address}` })
    }
    await expect(explorer.balance(mainnet)).rejects.toThrow(`Invalid address for ${chainId}`)
    expect(await get(`/tx/${'ab'.repeat(32)}`)).toEqual({
      status: 404,
      body: { message: 'Transaction not found' },
    })
    expect(await get(`/tx/${'ab'.repeat(32)}/status`)).toMatchObject({ status: 404 })
    expect(await get('/tx/xyz')).toEqual({
      status: 400,
      body: { message: 'Invalid txid: expected 64 hex digits' },
    })
  })

  live('forgets a confirmation when its block leaves the best chain, and regains it', async () => {
    const erin = wallet(7)
    const coin = await fund(erin, '0.7')
    const [hash] = await node.mine(1)
    expect(
      (await get<Explorer.AddressInfo>(`/address/${erin.address}`)).body.chain_stats.funded_txo_sum,
    ).toBe(70_000_000)

    await node.rpc('invalidateblock', [hash])
    const after = (await get<Explorer.AddressInfo>(`/address/${erin.address}`)).body
    expect(after.chain_stats).toMatchObject({ funded_txo_count: 0, funded_txo_sum: 0, tx_count: 0 })
    // The node puts the block's transactions back in its mempool.
    expect(after.mempool_stats).toMatchObject({ funded_txo_count: 1, funded_txo_sum: 70_000_000 })
    expect((await get<Status>(`/tx/${coin.txid}/status`)).body).toEqual({ confirmed: false })

    // Another branch, longer: the index follows it and the coin confirms in a block of its own.
    // Mined to another address, or the first block would be the invalidated one again, hash for hash.
    const [other] = await node.rpc<string[]>('generatetoaddress', [2, wallet(8).address])
    const status = (await get<Status>(`/tx/${coin.txid}/status`)).body
    expect(status).toMatchObject({ confirmed: true, block_hash: other })
    const tip = await app.request('/blocks/tip/hash')
    expect(await tip.text()).toBe(await node.rpc('getbestblockhash'))
  })

  live('answers the tip and fee estimates as text and JSON', async () => {
    const height = await (await app.request('/blocks/tip/height')).text()
    expect(Number(height)).toBe(await node.rpc<number>('getblockcount'))
    const { body } = await get<Record<string, number>>('/fee-estimates')
    expect(Object.keys(body)).toHaveLength(28)
    // Regtest has no fee history: every target falls back to the mempool's minimum, 1 sat/vB.
    expect(body).toMatchObject({ '1': 1, '6': 1, '144': 1, '1008': 1 })
  })

  it('answers 502 when the node cannot be reached', async () => {
    const dead = Explorer.create({
      rpcUrl: `http://u:p@127.0.0.1:${await closedPort()}`,
      network,
      chainId,
      pollMs: 0,
    })
    const response = await Esplora.create({ explorer: dead }).request('/blocks/tip/height')
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ message: `The RPC of ${chainId} is unavailable` })
    dead.close()
  })
})
