import { Errors } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import * as base58 from '../../shared/encoding/base58.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import { toWalletConnect } from './Requests.ts'

const solanaAddress = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
const devnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const message = new TextEncoder().encode('hello')

describe('toWalletConnect', () => {
  it('passes EVM requests through unchanged', () => {
    const call = toWalletConnect(
      { namespace: 'eip155', method: 'personal_sign', params: ['0x00', '0xabc'] },
      'eip155:1',
    )
    expect(call).toMatchObject({ method: 'personal_sign', params: ['0x00', '0xabc'] })
    expect(call.result('0xsig')).toBe('0xsig')
  })

  it('turns Solana signMessage into solana_signMessage, and the base58 signature back into bytes', () => {
    const call = toWalletConnect(
      { namespace: 'solana', method: 'solana:signMessage', params: { address: solanaAddress, message } },
      devnet,
    )
    expect(call).toMatchObject({
      method: 'solana_signMessage',
      params: { message: base58.encode(message), pubkey: solanaAddress },
    })
    const signature = new Uint8Array(64).fill(9)
    expect(call.result({ signature: base58.encode(signature) })).toEqual({
      signedMessage: message,
      signature,
    })
  })

  it('needs the signed transaction back from solana_signTransaction', () => {
    const transaction = new Uint8Array([1, 2, 3])
    const call = toWalletConnect(
      {
        namespace: 'solana',
        method: 'solana:signTransaction',
        params: { address: solanaAddress, transaction },
      },
      devnet,
    )
    expect(call.params).toEqual({ transaction: base64.encode(transaction) })
    expect(call.result({ signature: 'x', transaction: base64.encode(new Uint8Array([4])) })).toEqual({
      signedTransaction: new Uint8Array([4]),
    })
    expect(() => call.result({ signature: 'x' })).toThrow(Errors.InternalError)
  })

  it('maps Bitcoin signMessage and PSBT signing to signMessage and signPsbt', () => {
    const address = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
    const sign = toWalletConnect(
      { namespace: 'bip122', method: 'bitcoin:signMessage', params: { address, message } },
      'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
    )
    expect(sign).toMatchObject({
      method: 'signMessage',
      params: { account: address, address, message: 'hello' },
    })
    expect(sign.result({ address, signature: base64.encode(new Uint8Array([7])) })).toEqual({
      signedMessage: message,
      signature: new Uint8Array([7]),
    })
    const psbt = new Uint8Array([0x70, 0x73])
    const signPsbt = toWalletConnect(
      {
        namespace: 'bip122',
        method: 'bitcoin:signTransaction',
        params: { psbt, inputsToSign: [{ address, signingIndexes: [0, 2], sigHash: 1 }] },
      },
      'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
    )
    expect(signPsbt).toMatchObject({
      method: 'signPsbt',
      params: {
        account: address,
        psbt: base64.encode(psbt),
        signInputs: [
          { address, index: 0, sighashTypes: [1] },
          { address, index: 2, sighashTypes: [1] },
        ],
        broadcast: false,
      },
    })
    expect(signPsbt.result({ psbt: base64.encode(new Uint8Array([9])) })).toEqual({
      signedPsbt: new Uint8Array([9]),
    })
  })

  it('refuses answers of the wrong shape with a clear error', () => {
    const call = toWalletConnect(
      { namespace: 'solana', method: 'solana:signMessage', params: { address: solanaAddress, message } },
      devnet,
    )
    expect(() => call.result({ sig: 1 })).toThrow(
      'The wallet answered solana:signMessage with something unexpected.',
    )
  })
})
