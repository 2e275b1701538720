import { describe, expect, it } from 'vitest'
import * as base58 from '../../shared/encoding/base58.ts'
import { connectionOf } from './Client.ts'

const solanaAddress = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
const devnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

describe('connectionOf', () => {
  const session = {
    topic: 't',
    expiry: 0,
    peer: { name: 'Phone', icons: [], url: '' },
    accounts: [
      'eip155:1:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      'eip155:31337:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      `${devnet}:${solanaAddress}`,
    ],
  }
  const network = (id: string) => ({ id }) as never

  it('puts the account on the first configured chain the wallet approved, once per address', () => {
    const connection = connectionOf(session, 'eip155', [network('eip155:31337')])
    expect(connection?.chainId).toBe('eip155:31337')
    expect(connection?.accounts).toEqual([{ address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }])
    expect(connection?.wallet).toMatchObject({ id: 'walletconnect', name: 'Phone', namespace: 'eip155' })
  })

  it('gives Solana accounts their public key, and nothing for a namespace the wallet did not approve', () => {
    const solana = connectionOf(session, 'solana', [network(devnet)])
    expect(solana?.accounts[0]?.publicKey).toEqual(base58.decode(solanaAddress))
    expect(connectionOf(session, 'bip122', [])).toBeUndefined()
  })
})
