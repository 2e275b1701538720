import { describe, expect, it } from 'vitest'
import type * as Api from '../../api/Api.ts'
import { tokenRows } from './Balances.ts'

const balance = (symbol: string, numeric: string, value: number, address?: string): Api.TokenBalance => ({
  name: symbol,
  symbol,
  chainId: 'eip155:31337',
  ...(address ? { address } : {}),
  value,
  price: 1,
  quantity: { decimals: '18', numeric },
  iconUrl: '',
})

describe('tokenRows', () => {
  it('lists the tokens, not the native currency, the most valuable first', () => {
    const rows = tokenRows(
      [
        balance('ETH', '10', 30_000),
        balance('ALT', '1000000', 1_250_000, '0x5F'),
        balance('DUST', '5', 0.01, '0x01'),
        balance('USDC', '2000', 2_000, '0x02'),
      ],
      'en-US',
    )
    expect(rows.map((row) => row.symbol)).toEqual(['ALT', 'USDC', 'DUST'])
  })

  it('truncates quantities to 3 decimals and writes fiat with 2 in the locale', () => {
    const [row] = tokenRows([balance('ALT', '1234.56789', 1543.2098, '0x5F')], 'de-DE')
    expect(row).toMatchObject({ amount: '1234.567', fiat: '1.543,21\u00a0$' })
  })
})
