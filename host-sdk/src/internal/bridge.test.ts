import type { Request } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import { isPlainTransaction } from './bridge.ts'

const psbt = new Uint8Array([0x70, 0x73, 0x62, 0x74, 0xff])
const bitcoin = (sigHash?: number): Request => ({
  namespace: 'bip122',
  method: 'bitcoin:signTransaction',
  params: { psbt, inputsToSign: [{ address: 'rltc1q', signingIndexes: [0], sigHash }] },
})

describe('the transactions the modal’s own Send may ask a page wallet for', () => {
  it('takes an EVM or Solana transaction and a Bitcoin one signed with SIGHASH_ALL or the taproot default', () => {
    expect(isPlainTransaction({ namespace: 'eip155', method: 'eth_sendTransaction', params: [{}] })).toBe(
      true,
    )
    expect(
      isPlainTransaction({
        namespace: 'solana',
        method: 'solana:signTransaction',
        params: { address: 'a', transaction: new Uint8Array([1]) },
      }),
    ).toBe(true)
    for (const sigHash of [undefined, 0, 1])
      expect(isPlainTransaction(bitcoin(sigHash)), `${sigHash}`).toBe(true)
  })

  it('refuses a sighash that leaves outputs unsigned, messages, and Solana’s signAndSend', () => {
    // SIGHASH_NONE, SINGLE, and ALL|ANYONECANPAY.
    for (const sigHash of [2, 3, 0x81]) expect(isPlainTransaction(bitcoin(sigHash)), `${sigHash}`).toBe(false)
    expect(
      isPlainTransaction({ namespace: 'eip155', method: 'personal_sign', params: ['0x00', '0x00'] }),
    ).toBe(false)
    expect(
      isPlainTransaction({
        namespace: 'solana',
        method: 'solana:signAndSendTransaction',
        params: { address: 'a', transaction: new Uint8Array([1]), chain: 'solana:devnet' },
      }),
    ).toBe(false)
  })
})
