import { address as bitcoinAddress } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import * as Regtest from '../../../../devnet/src/bitcoin/Regtest.ts'
import * as Script from './Script.ts'

const { network } = Regtest
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
const hexOf = (script: Uint8Array | undefined) => (script ? Buffer.from(script).toString('hex') : undefined)

// Pairs as litecoind printed them (getrawtransaction … true), where it prints one.
const cases = [
  [
    'v0_p2wpkh',
    '0014c7fa14fa59f3efa145e37ef6a8126adf89a7392f',
    'rltc1qclapf7je70h6z30r0mm2syn2m7y6wwf0sdmgrp',
  ],
  ['p2pkh', '76a9147673062f8ec7188a1855d2633d8620d1d062866d88ac', 'mrKFpi5FeQ6sWZkQuWYtfpvn9TPfPF2TaR'],
  ['p2sh', `a914${'11'.repeat(20)}87`, undefined],
  ['v0_p2wsh', `0020${'22'.repeat(32)}`, undefined],
  ['v1_p2tr', `5120${'33'.repeat(32)}`, undefined],
] as const

describe('Script', () => {
  it.each(cases)('names a %s script, and its address leads back to it', (type, script, printed) => {
    const address = Script.toAddress(bytes(script), network)
    if (printed) expect(address).toBe(printed)
    expect(Script.type(bytes(script))).toBe(type)
    expect(hexOf(Script.fromAddress(address ?? '', network))).toBe(script)
  })

  it('spells P2SH with Litecoin’s 0x3a (Q…) and P2TR in bech32m', () => {
    expect(Script.toAddress(bytes(`a914${'11'.repeat(20)}87`), network)).toMatch(/^Q/)
    expect(Script.toAddress(bytes(`5120${'33'.repeat(32)}`), network)).toMatch(/^rltc1p/)
  })

  it('gives no address to scripts that have none', () => {
    const p2pk = `21${'02'.padEnd(66, '5')}ac`
    expect(Script.type(bytes(p2pk))).toBe('p2pk')
    expect(Script.type(bytes('6a0401020304'))).toBe('op_return')
    expect(Script.type(bytes(''))).toBe('empty')
    expect(Script.type(bytes(`5121${'02'.padEnd(66, '5')}51ae`))).toBe('multisig')
    for (const script of [p2pk, '6a0401020304', ''])
      expect(Script.toAddress(bytes(script), network)).toBeUndefined()
  })

  it('reads bech32 in either case, and refuses other networks, bad checksums and bad programs', () => {
    expect(hexOf(Script.fromAddress('RLTC1QCLAPF7JE70H6Z30R0MM2SYN2M7Y6WWF0SDMGRP', network))).toBe(
      cases[0][1],
    )
    const program = bytes('c7fa14fa59f3efa145e37ef6a8126adf89a7392f')
    for (const address of [
      'rltc1qclapf7je70h6z30r0mm2syn2m7y6wwf0sdmgrq', // checksum
      'Rltc1qclapf7je70h6z30r0mm2syn2m7y6wwf0sdmgrp', // mixed case
      bitcoinAddress.toBech32(program, 0, 'bcrt'), // Bitcoin's regtest
      bitcoinAddress.toBech32(program, 0, 'ltc'), // Litecoin's mainnet
      bitcoinAddress.toBase58Check(program, 0x30), // Litecoin's mainnet P2PKH (L…)
      bitcoinAddress.toBech32(program.subarray(0, 16), 0, 'rltc'), // v0 with a 16-byte program
      '',
    ]) {
      expect(Script.fromAddress(address, network), address).toBeUndefined()
    }
  })
})
