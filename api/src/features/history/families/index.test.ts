import { payments } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import { families } from './index.ts'

const familyOf = (address: string) =>
  families
    .map((family) => [family.namespace, family.account(address)] as const)
    .find(([, account]) => account !== undefined)

describe('the family of an address', () => {
  it('tells a Solana key from a Base58Check Bitcoin address of similar length', () => {
    const legacy = payments.p2pkh({ hash: Buffer.alloc(20, 9) }).address ?? ''
    expect(familyOf('Dv3GQQZsrMrP7jCkhftPk51BMz6zQWLzg9vBsipveXFr')).toEqual([
      'solana',
      'Dv3GQQZsrMrP7jCkhftPk51BMz6zQWLzg9vBsipveXFr',
    ])
    expect(familyOf(legacy)).toEqual(['bip122', legacy])
  })

  it('keys a bech32 address in lowercase, and refuses one of mixed case or a bad checksum', () => {
    const address = payments.p2wpkh({ hash: Buffer.alloc(20, 3) }).address ?? ''
    expect(familyOf(address.toUpperCase())).toEqual(['bip122', address])
    expect(familyOf(`${address.slice(0, 10).toUpperCase()}${address.slice(10)}`)).toBeUndefined()
    expect(familyOf(`${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`)).toBeUndefined()
  })
})
