// Send's Bitcoin family against the devnet's chain: a real litecoind in regtest, the API's Esplora served
// from this process (the whole API, as the stack runs it), and a wallet that signs the PSBT with a local
// key exactly as the e2e test wallet does (bitcoinjs `signInput` over noble).
import { Config, type Database, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import * as SendChain from '@airlock/modal-app/send/chain'
import { family, feeRates } from '@airlock/modal-app/send/families/bitcoin'
import { dustOf, formatCoins, paramsOf } from '@airlock/modal-app/send/families/bitcoinCoins'
import { settle } from '@airlock/modal-app/send/families/bitcoinEsplora'
import { type Draft, type Preview, SendFailure, type WalletRequest } from '@airlock/modal-app/send/family'
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/abstract/utils'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { hexToBytes } from '@noble/hashes/utils'
import { address, networks, Psbt, payments, type Signer, Transaction } from 'bitcoinjs-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Litecoind from '../bitcoin/Litecoind.ts'
import * as LitecoindBinary from '../bitcoin/LitecoindBinary.ts'
import * as Regtest from '../bitcoin/Regtest.ts'
import * as TestWallets from '../TestWallets.ts'

const missing = `litecoind is not installed, so there is no chain to send on: ${LitecoindBinary.installHint}`
const { network: params } = Regtest
const network = {
  id: Regtest.caipNetworkId,
  namespace: 'bip122',
  name: 'Airlock Bitcoin Devnet',
  nativeCurrency: { name: 'Regtest Litecoin', symbol: 'rLTC', decimals: 8 },
  rpcUrl: '',
  testnet: true,
} as const
const asset = { symbol: 'rLTC', decimals: 8 }
// Send's texts (docs/behaviour.md's where it has them), as the visitor reads them.
const texts = {
  invalidAddress: 'This is not an address on Airlock Bitcoin Devnet',
  insufficientFunds: 'Insufficient funds for this amount and the network fee',
  declined: 'Signature declined',
  unavailable: 'Airlock Bitcoin Devnet cannot be reached. Nothing was sent.',
}
const sats = (coins: number) => BigInt(Math.round(coins * 1e8))

type Key = { address: string; script: Uint8Array; publicKey: Uint8Array; signer: Signer }

/** A P2WPKH (or nested P2SH-P2WPKH) key; bitcoinjs signs through noble, as in the e2e wallet. */
function keyOf(privateKey: Uint8Array, nested = false): Key {
  const publicKey = secp256k1.getPublicKey(privateKey, true)
  const native = payments.p2wpkh({ pubkey: publicKey, network: params })
  const payment = nested ? payments.p2sh({ redeem: native, network: params }) : native
  const signer: Signer = {
    publicKey,
    sign: (hash) => secp256k1.sign(hash, privateKey, { lowS: true }).toCompactRawBytes(),
  }
  return { address: payment.address ?? '', script: payment.output ?? new Uint8Array(), publicKey, signer }
}
let seed = 0x40
const freshKey = (nested = false) => keyOf(new Uint8Array(32).fill(++seed), nested)

/** A key-path taproot key: BIP-341's tweak and BIP-340 signatures with noble, no ECC library for bitcoinjs. */
function taprootKeyOf(privateKey: Uint8Array) {
  const { n } = secp256k1.CURVE
  const d = bytesToNumberBE(privateKey)
  const point = secp256k1.ProjectivePoint.BASE.multiply(d)
  const internal = point.toRawBytes(true).slice(1)
  const tweak = bytesToNumberBE(schnorr.utils.taggedHash('TapTweak', internal))
  const tweaked = ((point.hasEvenY() ? d : n - d) + tweak) % n
  const outputKey = secp256k1.ProjectivePoint.BASE.multiply(tweaked).toRawBytes(true).slice(1)
  return {
    address: address.toBech32(outputKey, 1, params.bech32),
    internal,
    sign: (hash: Uint8Array) => schnorr.sign(hash, numberToBytesBE(tweaked, 32)),
  }
}

type SignRequest = Parameters<WalletRequest>[0]
const declined = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })

/**
 * The e2e Bitcoin wallet's `bitcoin:signTransaction`, over a local key: the chain it names, the account
 * of every input to sign, then bitcoinjs `signInput` per index; it signs without finalizing.
 */
function walletOf(key: Key, change?: (psbt: Psbt) => Psbt) {
  const requests: SignRequest[] = []
  const request: WalletRequest = async (req) => {
    requests.push(req)
    if (req.namespace !== 'bip122' || req.method !== 'bitcoin:signTransaction')
      throw new Error(`unsupported ${req.method}`)
    const { psbt, inputsToSign, chain } = req.params
    if (chain !== undefined && chain !== Regtest.caipNetworkId) throw new Error(`unsupported chain ${chain}`)
    if (inputsToSign.some((input) => input.address !== key.address)) throw new Error('not this account')
    const signed = change
      ? change(Psbt.fromBuffer(psbt, { network: params }))
      : Psbt.fromBuffer(psbt, { network: params })
    for (const { signingIndexes } of inputsToSign)
      for (const index of signingIndexes) signed.signInput(index, key.signer)
    return { signedPsbt: signed.toBuffer() }
  }
  return { request, requests }
}

type VerboseTx = {
  vsize: number
  confirmations?: number
  vin: { txid: string; vout: number }[]
  // Litecoin Core 0.21 still lists `addresses`; Bitcoin Core 22+ says `address`.
  vout: { value: number; scriptPubKey: { address?: string; addresses?: string[] } }[]
}

describe('Send on the Bitcoin family (litecoind regtest, the API’s Esplora)', () => {
  let node: Litecoind.Instance
  let db: Database.Database
  let api: Service.Running
  let chain: ReturnType<typeof SendChain.create>
  const sender = keyOf(hexToBytes(TestWallets.bitcoinPrivateKeyHex))

  beforeAll(async () => {
    if (!LitecoindBinary.find()) return
    node = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 0 })
    // PGlite in memory even where DATABASE_URL names a shared PostgreSQL: Esplora keeps nothing there.
    db = await memoryDatabase()
    const config = Config.parse({
      apiUrl: 'http://127.0.0.1:8787',
      modalOrigin: 'http://127.0.0.1:5174',
      chains: [
        { id: network.id, name: network.name, nativeCurrency: network.nativeCurrency, rpcUrl: node.rpcUrl },
      ],
    })
    api = await Service.listen(Service.create({ db, config }), { apiPort: 0 })
    chain = SendChain.create({ network, endpoint: (path) => `${api.apiUrl}${path}?projectId=demo` })
    expect(TestWallets.bitcoinAddress(params)).toBe(sender.address)
    await node.fund(sender.address, 2)
    await node.mine(1)
  })
  afterAll(async () => {
    await api?.stop()
    await db?.close()
    await node?.stop()
  })

  const live = (name: string, test: () => Promise<void>) =>
    it(name, async ({ skip }) => {
      if (!node) return skip(missing)
      await test()
    })

  const unspents = async (addr: string) =>
    (
      await node.rpc<{ unspents: { amount: number }[] }>('scantxoutset', ['start', [`addr(${addr})`]])
    ).unspents
      .map((u) => sats(u.amount))
      .sort((a, b) => (a < b ? -1 : 1))
  const mempool = () => node.rpc<string[]>('getrawmempool')
  const rawTx = (txid: string) => node.rpc<VerboseTx>('getrawtransaction', [txid, true])
  const draftOf = (from: Key, to: string, amount: bigint, extra: Partial<Draft> = {}): Draft => ({
    from: from.address,
    to,
    asset,
    amount,
    ...extra,
  })
  const receiver = async () => node.rpc<string>('getnewaddress', ['', 'bech32'])
  const funded = async (amounts: number[], nested = false) => {
    const key = freshKey(nested)
    for (const amount of amounts) await node.fund(key.address, amount)
    await node.mine(1)
    return key
  }
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(SendFailure)
    return error as SendFailure
  }
  const details = (preview: Preview) => Object.fromEntries(preview.details.map((d) => [d.label, d.value]))

  it('tells the network’s addresses from others', () => {
    const invalid = texts.invalidAddress
    const taproot = taprootKeyOf(new Uint8Array(32).fill(7)).address
    const nested = keyOf(new Uint8Array(32).fill(8), true).address
    const legacy = payments.p2pkh({ pubkey: sender.publicKey, network: params }).address ?? ''
    for (const valid of [sender.address, taproot, nested, legacy])
      expect(family.checkAddress(valid, network), valid).toBeUndefined()
    expect(taproot).toMatch(/^rltc1p/)
    expect(nested).toMatch(/^Q/)
    const litecoin = { ...params, bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32 }
    const others = [
      payments.p2wpkh({ pubkey: sender.publicKey, network: litecoin }).address,
      payments.p2pkh({ pubkey: sender.publicKey, network: litecoin }).address,
      payments.p2wpkh({ pubkey: sender.publicKey, network: networks.bitcoin }).address,
      payments.p2wpkh({ pubkey: sender.publicKey, network: networks.regtest }).address,
      address.toBech32(new Uint8Array(32).fill(9), 1, 'bc'),
      'rltc1qnotanaddress',
      '',
    ]
    for (const other of others) expect(family.checkAddress(other ?? '', network), other).toBe(invalid)
  })

  it('counts dust as nodes do: Bitcoin Core’s 3 sat/vB, Litecoin Core’s 30', () => {
    const script = sender.script
    expect(dustOf(script, paramsOf({ id: 'bip122:000000000019d6689c085ae165831e93' }) ?? params)).toBe(294n)
    expect(dustOf(script, params)).toBe(2940n)
    expect(formatCoins(149_999_859n, 8)).toBe('1.49999859')
    expect(formatCoins(-50_000_000n, 8)).toBe('-0.5')
    expect(formatCoins(2940n, 8)).toBe('0.0000294')
  })

  live('offers Fast, Normal and Slow fee rates from the API’s estimates', async () => {
    const estimates = JSON.parse(await chain.esplora('/fee-estimates')) as Record<string, number>
    const rates = await feeRates(chain)
    expect(rates.map((rate) => rate.label)).toEqual(['Fast', 'Normal', 'Slow'])
    expect(rates.map((rate) => rate.satPerVbyte)).toEqual(
      ['1', '6', '144'].map((target) => Math.max(1, estimates[target] ?? 0)),
    )
  })

  live('sends, with change back to the sender, and settles once mined', async () => {
    const to = await receiver()
    const before = await unspents(sender.address)
    expect(before).toEqual([sats(2)])
    const preview = await family.preview(chain, draftOf(sender, to, sats(0.5), { feeRate: 2 }))
    // One P2WPKH input, a P2WPKH payment and change: 141 vB, at 2 sat/vB.
    expect(preview.fee).toBe(282n)
    expect(preview.changes).toEqual([
      { address: sender.address, asset, delta: -(sats(0.5) + 282n) },
      { address: to, asset, delta: sats(0.5) },
    ])
    const change = sats(2) - sats(0.5) - 282n
    expect(details(preview)).toEqual({
      Inputs: '1 · 2 rLTC',
      Output: `${to} · 0.5 rLTC`,
      Change: `${sender.address} · ${formatCoins(change, 8)} rLTC`,
      'Fee rate': '2 sat/vB',
      'Virtual size': '141 vB',
    })

    const wallet = walletOf(sender)
    const txid = await family.submit(chain, preview, wallet.request)
    expect(wallet.requests).toHaveLength(1)
    expect(wallet.requests[0]?.params).toMatchObject({
      inputsToSign: [{ address: sender.address, signingIndexes: [0] }],
      chain: Regtest.caipNetworkId,
    })
    const sent = await rawTx(txid)
    expect(sent.vsize).toBeLessThanOrEqual(141)
    expect(sent.vout.map(({ scriptPubKey, value }) => [scriptPubKey.addresses?.[0], sats(value)])).toEqual([
      [to, sats(0.5)],
      [sender.address, change],
    ])
    await node.mine(1)
    expect(await family.settle(chain, txid)).toBe('confirmed')
    expect((await rawTx(txid)).confirmations).toBe(1)
    expect(await unspents(to)).toEqual([sats(0.5)])
    expect(await unspents(sender.address)).toEqual([change])
  })

  live('leaves change under the dust limit to the fee', async () => {
    const key = await funded([0.001])
    const to = await receiver()
    // 100,000 − 97,000 − 141 = 2,859 sat of change: below Litecoin's 2,940 for P2WPKH.
    const preview = await family.preview(chain, draftOf(key, to, 97_000n))
    expect(preview.fee).toBe(3_000n)
    expect(details(preview)).not.toHaveProperty('Change')
    expect(details(preview)['Virtual size']).toBe('110 vB')
    const txid = await family.submit(chain, preview, walletOf(key).request)
    expect((await rawTx(txid)).vout.map((out) => sats(out.value))).toEqual([97_000n])
    await node.mine(1)
    expect(await family.settle(chain, txid)).toBe('confirmed')
    expect(await unspents(to)).toEqual([97_000n])
    expect(await unspents(key.address)).toEqual([])
  })

  live('refuses an amount the network would not relay', async () => {
    const failed = await failure(family.preview(chain, draftOf(sender, await receiver(), 2_939n)))
    expect(failed.kind).toBe('invalid')
    expect(failed.message).toBe('The amount must be at least 0.0000294 rLTC: the network does not relay less')
  })

  live('sends the max: every coin, mempool ones too, into one output', async () => {
    const key = await funded([0.3])
    await node.fund(key.address, 0.2)
    // scantxoutset sees only mined coins; Esplora lists the mempool's too.
    const coins = JSON.parse(await chain.esplora(`/address/${key.address}/utxo`)) as {
      status: { confirmed: boolean }
    }[]
    expect(coins.map((coin) => coin.status.confirmed).sort()).toEqual([false, true])
    const to = await receiver()
    // Two P2WPKH inputs and one output at 1 sat/vB: 178 vB for a P2WPKH receiver, 190 for an unknown one.
    expect(await family.max(chain, { from: key.address, to, asset })).toBe(sats(0.5) - 178n)
    expect(await family.max(chain, { from: key.address, asset })).toBe(sats(0.5) - 190n)
    const amount = await family.max(chain, { from: key.address, to, asset })
    const preview = await family.preview(chain, draftOf(key, to, amount))
    expect(preview.fee).toBe(178n)
    expect(details(preview).Inputs).toBe('2 · 0.5 rLTC')
    const txid = await family.submit(chain, preview, walletOf(key).request)
    expect((await rawTx(txid)).vsize).toBeLessThanOrEqual(178)
    await node.mine(1)
    expect(await family.settle(chain, txid)).toBe('confirmed')
    expect(await unspents(to)).toEqual([amount])
    expect(await unspents(key.address)).toEqual([])
  })

  live('says when the coins do not cover the amount and its fee', async () => {
    const key = await funded([0.001])
    for (const amount of [100_000n, 99_900n, sats(1)]) {
      const failed = await failure(family.preview(chain, draftOf(key, await receiver(), amount)))
      expect(failed.kind).toBe('funds')
      expect(failed.message).toBe(texts.insufficientFunds)
    }
    const empty = freshKey()
    expect(await family.max(chain, { from: empty.address, asset })).toBe(0n)
    expect((await failure(family.preview(chain, draftOf(empty, await receiver(), 10_000n)))).kind).toBe(
      'funds',
    )
  })

  live('refuses a receiver of another network before building anything', async () => {
    const mainnet = payments.p2wpkh({
      pubkey: sender.publicKey,
      network: { ...params, bech32: 'ltc' },
    }).address
    const failed = await failure(family.preview(chain, draftOf(sender, mainnet ?? '', sats(0.1))))
    expect(failed.kind).toBe('invalid')
    expect(failed.message).toBe(texts.invalidAddress)
  })

  live('sends nothing when the wallet declines, and signs when asked again', async () => {
    const key = await funded([0.1])
    const preview = await family.preview(chain, draftOf(key, await receiver(), sats(0.05)))
    const pool = await mempool()
    const failed = await failure(
      family.submit(chain, preview, async () => {
        throw declined()
      }),
    )
    expect(failed.kind).toBe('declined')
    expect(failed.message).toBe(texts.declined)
    expect(await mempool()).toEqual(pool)
    expect(await unspents(key.address)).toEqual([sats(0.1)])
    const txid = await family.submit(chain, preview, walletOf(key).request)
    expect(await mempool()).toContain(txid)
    await node.mine(1)
  })

  live('sends once however often the same preview is submitted', async () => {
    const key = await funded([0.1])
    const to = await receiver()
    const preview = await family.preview(chain, draftOf(key, to, sats(0.04)))
    const wallet = walletOf(key)
    const [first, second] = await Promise.all([
      family.submit(chain, preview, wallet.request),
      family.submit(chain, preview, wallet.request),
    ])
    expect(second).toBe(first)
    // In the mempool, then mined: the node already has it either way, and the txid is the answer.
    expect(await family.submit(chain, preview, wallet.request)).toBe(first)
    await node.mine(1)
    expect(await family.submit(chain, preview, wallet.request)).toBe(first)
    expect(wallet.requests).toHaveLength(1)
    expect(await family.settle(chain, first)).toBe('confirmed')
    expect(await unspents(to)).toEqual([sats(0.04)])
  })

  live('refuses a PSBT whose outputs the wallet changed, or that it did not sign', async () => {
    const key = await funded([0.1])
    const preview = await family.preview(chain, draftOf(key, await receiver(), sats(0.05)))
    const pool = await mempool()
    // The wallet pays itself the receiver's amount: same inputs, a different first output.
    const redirect = (psbt: Psbt) => {
      const changed = new Psbt({ network: params })
      changed.addInputs(psbt.txInputs.map((input, i) => ({ ...input, ...psbt.data.inputs[i] })))
      return changed.addOutputs(
        psbt.txOutputs.map((output, i) => ({
          script: i === 0 ? key.script : output.script,
          value: output.value,
        })),
      )
    }
    const changed = await failure(family.submit(chain, preview, walletOf(key, redirect).request))
    expect([changed.kind, changed.message]).toEqual([
      'chain',
      'The wallet changed the transaction it was asked to sign. Nothing was sent.',
    ])
    const unsigned = await failure(
      family.submit(chain, preview, async (req) => {
        if (req.namespace !== 'bip122' || req.method !== 'bitcoin:signTransaction')
          throw new Error('unsupported')
        return { signedPsbt: req.params.psbt }
      }),
    )
    expect([unsigned.kind, unsigned.message]).toEqual([
      'chain',
      'The wallet did not sign every input. Nothing was sent.',
    ])
    expect(await mempool()).toEqual(pool)
  })

  live('spends from nested segwit with the account’s key, from a wallet that finalizes', async () => {
    const key = await funded([0.1], true)
    const to = await receiver()
    const draft = draftOf(key, to, sats(0.02))
    expect((await failure(family.preview(chain, draft))).message).toBe(
      'The wallet did not share the public key this address needs to spend',
    )
    const preview = await family.preview(chain, { ...draft, publicKey: key.publicKey })
    // One P2SH-P2WPKH input (91.25 vB of it), a P2WPKH payment, P2SH change: 165 vB at 1 sat/vB.
    expect(preview.fee).toBe(165n)
    const wallet = walletOf(key)
    const finalizing: WalletRequest = async (req) => {
      const { signedPsbt } = (await wallet.request(req)) as { signedPsbt: Uint8Array }
      return { signedPsbt: Psbt.fromBuffer(signedPsbt, { network: params }).finalizeAllInputs().toBuffer() }
    }
    const txid = await family.submit(chain, preview, finalizing)
    expect((await rawTx(txid)).vsize).toBeLessThanOrEqual(165)
    await node.mine(1)
    expect(await family.settle(chain, txid)).toBe('confirmed')
    expect(await unspents(to)).toEqual([sats(0.02)])
    expect(await unspents(key.address)).toEqual([sats(0.1) - sats(0.02) - 165n])
  })

  live('spends from taproot by the key path, with the internal key the wallet shares', async () => {
    const key = taprootKeyOf(new Uint8Array(32).fill(0x33))
    await node.fund(key.address, 0.1)
    await node.mine(1)
    const to = await receiver()
    const draft: Draft = { from: key.address, to, asset, amount: sats(0.03), publicKey: key.internal }
    const preview = await family.preview(chain, draft)
    // One P2TR input (57.75 vB of it), a P2WPKH payment, P2TR change: 143 vB at 1 sat/vB.
    expect(preview.fee).toBe(143n)
    const wallet: WalletRequest = async (req) => {
      if (req.namespace !== 'bip122' || req.method !== 'bitcoin:signTransaction')
        throw new Error('unsupported')
      const psbt = Psbt.fromBuffer(req.params.psbt, { network: params })
      const tx = new Transaction()
      tx.version = psbt.version
      for (const input of psbt.txInputs) tx.addInput(input.hash, input.index, input.sequence)
      for (const output of psbt.txOutputs) tx.addOutput(output.script, output.value)
      const spent = psbt.data.inputs.map(
        (input) => input.witnessUtxo ?? { script: new Uint8Array(), value: 0n },
      )
      expect(psbt.data.inputs.every((input) => input.tapInternalKey?.join() === key.internal.join())).toBe(
        true,
      )
      psbt.data.inputs.forEach((_, index) => {
        const hash = tx.hashForWitnessV1(
          index,
          spent.map((utxo) => utxo.script),
          spent.map((utxo) => utxo.value),
          Transaction.SIGHASH_DEFAULT,
        )
        psbt.updateInput(index, { tapKeySig: key.sign(hash) })
      })
      return { signedPsbt: psbt.toBuffer() }
    }
    const txid = await family.submit(chain, preview, wallet)
    expect((await rawTx(txid)).vsize).toBeLessThanOrEqual(143)
    await node.mine(1)
    expect(await family.settle(chain, txid)).toBe('confirmed')
    expect(await unspents(to)).toEqual([sats(0.03)])
  })

  live('says the API cannot be reached, and rebroadcasts the signed bytes once it can', async () => {
    const port = await closedPort()
    const dead = SendChain.create({ network, endpoint: (path) => `http://127.0.0.1:${port}${path}` })
    const unavailable = texts.unavailable
    const key = await funded([0.1])
    const to = await receiver()
    for (const attempt of [
      family.preview(dead, draftOf(key, to, sats(0.01))),
      family.max(dead, { from: key.address, asset }),
      feeRates(dead),
    ]) {
      const failed = await failure(attempt)
      expect([failed.kind, failed.message]).toEqual(['unavailable', unavailable])
    }
    const preview = await family.preview(chain, draftOf(key, to, sats(0.01)))
    const wallet = walletOf(key)
    expect((await failure(family.submit(dead, preview, wallet.request))).kind).toBe('unavailable')
    const pool = await mempool()
    expect(await unspents(key.address)).toEqual([sats(0.1)])
    const txid = await family.submit(chain, preview, wallet.request)
    expect(wallet.requests).toHaveLength(1)
    expect(await mempool()).toHaveLength(pool.length + 1)
    expect(await mempool()).toContain(txid)
    await node.mine(1)
  })

  live('passes on the API’s refusal of a read, with its reason', async () => {
    // Bitcoin's own regtest: a network Airlock knows, that this API serves no Esplora for.
    const other = {
      ...network,
      id: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
      name: 'Bitcoin Regtest',
    } as const
    const elsewhere = SendChain.create({ network: other, endpoint: (path) => `${api.apiUrl}${path}` })
    const [from = '', to = ''] = [sender, freshKey()].map(
      (key) => payments.p2wpkh({ pubkey: key.publicKey, network: networks.regtest }).address ?? '',
    )
    const failed = await failure(family.preview(elsewhere, { from, to, asset, amount: sats(0.1) }))
    expect([failed.kind, failed.message]).toEqual(['chain', 'Bitcoin Regtest answered: Not found'])
  })

  live(
    'settles as failed a transaction the node never had, and waits on one still in the mempool',
    async () => {
      const never = '00'.repeat(32)
      expect(await settle(chain, never, { timeoutMs: 1_500, everyMs: 200 })).toBe('failed')
      const key = await funded([0.1])
      const preview = await family.preview(chain, draftOf(key, await receiver(), sats(0.01)))
      const txid = await family.submit(chain, preview, walletOf(key).request)
      const pending = await failure(settle(chain, txid, { timeoutMs: 1_500, everyMs: 200 }))
      expect(pending.message).toContain(`Transaction ${txid} is not confirmed after 2 minutes`)
      await node.mine(1)
      expect(await settle(chain, txid, { timeoutMs: 1_500, everyMs: 200 })).toBe('confirmed')
    },
  )
})
