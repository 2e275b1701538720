import { describe, expect, it } from 'vitest'
import { checksumEvmAddress, isEvmAddress, isSolanaAddress } from './Address.ts'
import * as Caip from './Caip.ts'
import { InvalidParamsError } from './Errors.ts'

describe('Caip', () => {
  it('parses and formats CAIP-2 network ids', () => {
    expect(Caip.parseChainId('eip155:31337')).toEqual({ namespace: 'eip155', reference: '31337' })
    expect(Caip.formatChainId('solana', '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    )
  })

  it.each(['eip155', 'eip155:1:2', 'cosmos:1', ':1', 'eip155:', 'eip155:a b', 42])(
    'rejects %s with the text people see',
    (id) => {
      expect(() => Caip.parseChainId(id as string)).toThrowError(
        new InvalidParamsError('Invalid CAIP-2 network id'),
      )
    },
  )

  it('parses and formats CAIP-10 account ids', () => {
    const id = 'eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    expect(Caip.parseAccountId(id)).toEqual({
      namespace: 'eip155',
      reference: '1',
      chainId: 'eip155:1',
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    })
    expect(Caip.formatAccountId('eip155:1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(id)
  })

  it.each(['eip155:1', 'eip155:1:0xab:cd', 'foo:1:0xab', 'eip155:1:', 'eip155:1:<script>'])(
    'rejects account %s with the text people see',
    (id) => {
      expect(() => Caip.parseAccountId(id)).toThrowError('Invalid CAIP-10 address')
      expect(Caip.isAccountId(id)).toBe(false)
    },
  )

  it('turns an eip155 network id into the hex EIP-1193 chain id', () => {
    expect(Caip.toHexChainId('eip155:31337')).toBe('0x7a69')
    expect(() => Caip.toHexChainId('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')).toThrow(InvalidParamsError)
  })
})

describe('Address', () => {
  it('accepts EVM addresses with or without 0x, and checks EIP-55 only when strict', () => {
    expect(isEvmAddress('f39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe(true)
    expect(isEvmAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', { strict: true })).toBe(true)
    expect(isEvmAddress('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266', { strict: true })).toBe(false)
    expect(isEvmAddress('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(true)
    expect(isEvmAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226')).toBe(false)
    expect(isEvmAddress('0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe(false)
  })

  it('computes the EIP-55 checksum', () => {
    expect(checksumEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    )
  })

  it('accepts base58 Solana addresses of 32 to 44 characters', () => {
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true)
    expect(isSolanaAddress('So11111111111111111111111111111111111111112')).toBe(true)
    expect(isSolanaAddress('0OIl1111111111111111111111111111')).toBe(false)
    expect(isSolanaAddress('1111111111111111111111111111111')).toBe(false)
  })
})

describe('Wallet Standard chain names', () => {
  it('maps a CAIP-2 id to its Wallet Standard name and back', () => {
    expect(Caip.standardNameOf('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')).toBe('solana:devnet')
    expect(Caip.standardChains['bitcoin:regtest']).toBe('bip122:0f9188f13cb7b2c71f2a335e3a4fc328')
    expect(Caip.standardNameOf('eip155:1')).toBeUndefined()
  })
})
