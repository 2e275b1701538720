import { readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { address, Psbt, payments, type SignerAsync } from 'bitcoinjs-lib'
import { type Hex, hexToBytes, toHex } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as Litecoind from './Litecoind.ts'
import * as LitecoindBinary from './LitecoindBinary.ts'
import * as Regtest from './Regtest.ts'

const missing = `litecoind is not installed, so the dev chain cannot run here: ${LitecoindBinary.installHint}`

// devnet lists no curve library, and viem (which it does) signs with noble's secp256k1 underneath.
function keyOf(privateKey: Hex) {
  const uncompressed = hexToBytes(privateKeyToAccount(privateKey).publicKey)
  const x = uncompressed.slice(1, 33)
  const compressed = Uint8Array.of((uncompressed[64] ?? 0) % 2 === 0 ? 0x02 : 0x03, ...x)
  const signer: SignerAsync = {
    publicKey: compressed,
    async sign(hash) {
      const { r, s } = await sign({ hash: toHex(hash), privateKey })
      return Uint8Array.of(...hexToBytes(r), ...hexToBytes(s))
    },
  }
  return { x, compressed, signer }
}

type Unspents = { success: boolean; unspents: { txid: string; vout: number; amount: number }[] }
type VerboseTx = {
  confirmations?: number
  vout: { n: number; value: number; scriptPubKey: { hex: string } }[]
}

const tmpDirs = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('airlock-litecoind-')))

describe('Litecoind', () => {
  let node: Litecoind.Instance | undefined
  const held: Server[] = []

  beforeAll(async () => {
    if (LitecoindBinary.find()) node = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 400 })
  })
  afterAll(() => node?.stop())
  afterEach(() => {
    delete process.env.LITECOIND_BINARY
    for (const server of held.splice(0)) server.close()
  })

  it('says how to install litecoind when it is missing', async () => {
    process.env.LITECOIND_BINARY = '/nonexistent/litecoind'
    await expect(Litecoind.start({ rpcPort: 0, p2pPort: 0 })).rejects.toThrow(
      /not an executable file.*install it with `apt-get install -y litecoind`/,
    )
  })

  it('reports litecoind dying during startup, and leaves no datadir', async ({ skip }) => {
    if (!node) skip(missing)
    const before = tmpDirs()
    process.env.LITECOIND_BINARY = '/bin/false'
    await expect(Litecoind.start({ rpcPort: 0, p2pPort: 0 })).rejects.toThrow(/litecoind exited \(code 1\)/)
    expect([...tmpDirs()].filter((dir) => !before.has(dir))).toEqual([])
  })

  it('refuses a port that is already taken', async ({ skip }) => {
    if (!node) skip(missing)
    const server = createServer()
    held.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    await expect(Litecoind.start({ rpcPort: port, p2pPort: 0 })).rejects.toThrow(
      new RegExp(`port ${port} on 127.0.0.1 is already in use`),
    )
  })

  it('runs regtest on loopback with the chain id of its genesis block', async ({ skip }) => {
    if (!node) return skip(missing)
    expect(node.rpcUrl).toMatch(/^http:\/\/airlock:[0-9a-f]{32}@127\.0\.0\.1:\d+$/)
    expect(node.genesisHash).toBe(await node.rpc('getblockhash', [0]))
    expect(node.genesisHash).toBe(Regtest.genesisHash)
    expect(node.caipNetworkId).toBe(Regtest.caipNetworkId)
    expect(Regtest.caipNetworkId).toBe('bip122:530827f38f93b43ed12af0b3ad25a288')
    const info = await node.rpc<{ chain: string; blocks: number }>('getblockchaininfo')
    expect(info.chain).toBe('regtest')
    expect(info.blocks).toBeGreaterThanOrEqual(120)
    // Matured coinbase rewards, so `fund` works from the first call.
    expect(await node.rpc<number>('getbalance')).toBeGreaterThanOrEqual(1_000)
  })

  it('mines a block every mineEveryMs, and more on demand', async ({ skip }) => {
    if (!node) return skip(missing)
    const start = await node.rpc<number>('getblockcount')
    await expect.poll(() => node?.rpc<number>('getblockcount')).toBeGreaterThan(start)
    const hashes = await node.mine(3)
    expect(hashes).toHaveLength(3)
    expect(await node.rpc('getblockhash', [await node.rpc<number>('getblockcount')])).toBe(hashes[2])
  })

  it('funds P2WPKH and P2TR addresses built with bitcoinjs', async ({ skip }) => {
    if (!node) return skip(missing)
    const key = keyOf('0x0101010101010101010101010101010101010101010101010101010101010101')
    const p2wpkh = payments.p2wpkh({ pubkey: key.compressed, network: Regtest.network })
    // A bare output key is a valid P2TR output (BIP-341's tweak is wallet policy, not consensus), and
    // encoding it needs no curve library.
    const p2tr = address.toBech32(key.x, 1, Regtest.network.bech32)
    expect(p2wpkh.address).toMatch(/^rltc1q/)
    expect(p2tr).toMatch(/^rltc1p/)
    await node.fund(p2wpkh.address ?? '', 0.25)
    await node.fund(p2tr, '0.125')
    await node.mine(1)
    const scan = await node.rpc<Unspents>('scantxoutset', [
      'start',
      [`addr(${p2wpkh.address})`, `addr(${p2tr})`],
    ])
    expect(scan.success).toBe(true)
    expect(scan.unspents.map((u) => u.amount).sort()).toEqual([0.125, 0.25])
  })

  it('confirms a PSBT spend signed with bitcoinjs', async ({ skip }) => {
    if (!node) return skip(missing)
    const key = keyOf('0x0202020202020202020202020202020202020202020202020202020202020202')
    const from = payments.p2wpkh({ pubkey: key.compressed, network: Regtest.network })
    const script = from.output ?? new Uint8Array()
    const fundTxid = await node.fund(from.address ?? '', '0.5')
    const funding = await node.rpc<VerboseTx>('getrawtransaction', [fundTxid, true])
    const index = funding.vout.findIndex((out) => out.scriptPubKey.hex === toHex(script).slice(2))
    const to = await node.rpc<string>('getnewaddress', ['', 'bech32'])

    const psbt = new Psbt({ network: Regtest.network })
      .addInput({ hash: fundTxid, index, witnessUtxo: { script, value: 50_000_000n } })
      .addOutput({ address: to, value: 49_990_000n })
    await psbt.signInputAsync(0, key.signer)
    psbt.finalizeAllInputs()
    const spend = psbt.extractTransaction()
    const txid = await node.rpc<string>('sendrawtransaction', [spend.toHex()])
    expect(txid).toBe(spend.getId())
    await node.mine(1)

    const confirmed = await node.rpc<VerboseTx>('getrawtransaction', [txid, true])
    expect(confirmed.confirmations).toBeGreaterThanOrEqual(1)
    expect(confirmed.vout[0]?.value).toBe(0.4999)
    const left = await node.rpc<Unspents>('scantxoutset', ['start', [`addr(${from.address})`]])
    expect(left.unspents).toEqual([])
  })

  it('stops for good: the port is free and the datadir gone, however often stop is called', async ({
    skip,
  }) => {
    if (!node) return skip(missing)
    const before = tmpDirs()
    const second = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 50 })
    const created = [...tmpDirs()].filter((dir) => !before.has(dir))
    expect(created).toHaveLength(1)
    const port = Number(new URL(second.rpcUrl).port)
    await Promise.all([second.stop(), second.stop()])
    await expect(second.rpc('getblockcount')).rejects.toThrow()
    expect(tmpDirs().has(created[0] ?? '')).toBe(false)
    const server = createServer()
    held.push(server)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', resolve)
    })
  })
})
