import { describe, expect, it, vi } from 'vitest'
import type * as Api from '../../api/Api.ts'
import { identityCacheMs, profiles, safeAvatar, tokenRows, totalOf } from './Balances.ts'

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

  it('truncates quantities to 3 decimals and writes them and fiat (2 decimals) in the locale', () => {
    const [row] = tokenRows([balance('ALT', '1234.56789', 1543.2098, '0x5F')], 'de-DE')
    expect(row).toMatchObject({ amount: '1.234,567', fiat: '1.543,21\u00a0$' })
    expect(tokenRows([balance('ALT', '1234.56789', 1543.2098, '0x5F')], 'en-US')[0]?.amount).toBe('1,234.567')
  })
})

describe('totalOf', () => {
  it('adds the fiat value of the native balance and every token', () => {
    const entries = [
      balance('ETH', '10', 30_000),
      balance('ALT', '1000000', 1_250_000, '0x5F'),
      balance('DUST', '5', 0.01, '0x01'),
    ]
    expect(totalOf(entries, 'en-US')).toBe('$1,280,000.01')
    expect(totalOf(entries, 'de-DE')).toBe('1.280.000,01\u00a0$')
    expect(totalOf([], 'en-US')).toBe('$0.00')
  })
})

describe('safeAvatar', () => {
  it('lets through data: images and https URLs only', () => {
    expect(safeAvatar('https://avatars.example/a.png')).toBe('https://avatars.example/a.png')
    expect(safeAvatar('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(safeAvatar('data:image/svg+xml,%3Csvg%3E')).toBe('data:image/svg+xml,%3Csvg%3E')
    for (const bad of [
      null,
      undefined,
      '',
      'http://avatars.example/a.png',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '/avatar.png',
      'ipfs://bafy/avatar.png',
    ])
      expect(safeAvatar(bad)).toBeUndefined()
  })
})

describe('profiles', () => {
  const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  const setup = (answer: (address: string) => Promise<Api.Identity>) => {
    let time = 0
    const asked: string[] = []
    const changed = vi.fn()
    const names = profiles({
      api: {
        identity: (address) => {
          asked.push(address)
          return answer(address)
        },
      },
      now: () => time,
      changed,
    })
    return {
      names,
      asked,
      changed,
      pass: (ms: number) => {
        time += ms
      },
    }
  }

  it('asks once per address in 5 minutes, checksum and lower case alike, then again', async () => {
    const { names, asked, changed, pass } = setup(async () => ({
      name: 'alice.airlock',
      avatar: 'https://avatars.example/alice.png',
    }))
    expect(names.of(alice)).toEqual({ profileName: undefined, profileImage: undefined })
    await names.want(alice)
    await names.want(alice.toLowerCase())
    expect(asked).toEqual([alice])
    expect(changed).toHaveBeenCalledTimes(1)
    expect(names.of(alice.toLowerCase())).toEqual({
      profileName: 'alice.airlock',
      profileImage: 'https://avatars.example/alice.png',
    })
    pass(identityCacheMs - 1)
    await names.want(alice)
    expect(asked).toHaveLength(1)
    pass(1)
    await names.want(alice)
    expect(asked).toHaveLength(2)
    // The same answer again changes nothing the view shows.
    expect(changed).toHaveBeenCalledTimes(1)
  })

  it('asks once while a read is under way', async () => {
    const { names, asked } = setup(async () => ({ name: null, avatar: null }))
    await Promise.all([names.want(alice), names.want(alice)])
    expect(asked).toHaveLength(1)
  })

  it('shows no name or avatar it cannot trust, and keeps quiet about a failure', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fail = true
    const { names, asked, pass } = setup(async () => {
      if (fail) throw new Error('HTTP status code: 502')
      return { name: '', avatar: 'http://avatars.example/alice.png' }
    })
    await expect(names.want(alice)).resolves.toBeUndefined()
    expect(names.of(alice)).toEqual({ profileName: undefined, profileImage: undefined })
    expect(warn).toHaveBeenCalled()
    fail = false
    await names.want(alice)
    expect(asked).toHaveLength(1)
    pass(30_000)
    await names.want(alice)
    expect(asked).toHaveLength(2)
    expect(names.of(alice)).toEqual({ profileName: undefined, profileImage: undefined })
    warn.mockRestore()
  })

  it('asks nothing of an API client without the identity read', async () => {
    const names = profiles({ api: {}, now: () => 0, changed: () => {} })
    await names.want(alice)
    expect(names.of(alice)).toEqual({ profileName: undefined, profileImage: undefined })
  })
})
