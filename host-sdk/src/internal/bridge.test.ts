import type { Request } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import { isNameRegistration, isPlainTransaction } from './bridge.ts'

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

describe('the name registration the modal may ask a page wallet to sign', () => {
  const now = 1_800_000_000_000
  const hex = (text: string) => `0x${Buffer.from(text, 'utf8').toString('hex')}`
  const sign = (message: unknown, method = 'personal_sign') =>
    ({
      namespace: 'eip155',
      method,
      params: [hex(typeof message === 'string' ? message : JSON.stringify(message)), '0x00'],
    }) as Parameters<typeof isNameRegistration>[0]
  const registration = { name: 'newcomer.airlock.id', attributes: {}, timestamp: now / 1000 }

  it('takes exactly a name, its text attributes and a timestamp within 10 minutes', () => {
    expect(isNameRegistration(sign(registration), now)).toBe(true)
    expect(isNameRegistration(sign({ ...registration, attributes: { avatar: 'x' } }), now)).toBe(true)
    expect(isNameRegistration(sign({ ...registration, timestamp: now / 1000 - 600 }), now)).toBe(true)
  })

  it('refuses anything else: another shape, an old or future timestamp, text, another method', () => {
    for (const message of [
      { ...registration, timestamp: now / 1000 - 601 },
      { ...registration, timestamp: now / 1000 + 601 },
      { ...registration, amount: '1' },
      { ...registration, name: 'no-dot' },
      { ...registration, name: 'a b.id' },
      { ...registration, attributes: { avatar: 1 } },
      { ...registration, attributes: null },
      [registration],
      'localhost wants you to sign in with your Ethereum account:',
    ])
      expect(isNameRegistration(sign(message), now), JSON.stringify(message)).toBe(false)
    expect(isNameRegistration(sign(registration, 'eth_sign'), now)).toBe(false)
    expect(
      isNameRegistration({ namespace: 'eip155', method: 'personal_sign', params: ['0xzz', '0x00'] }, now),
    ).toBe(false)
  })
})
