import { describe, expect, it } from 'vitest'
import type * as Api from '../../api/Api.ts'
import type { RecentSend } from '../../shared/RecentSend.ts'
import { counterparties, describe as describeItem, groupByDay, merge, withRecent } from './Activity.ts'

const me = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function item(
  id: string,
  minedAt: string,
  overrides: Partial<Api.HistoryItem['metadata']> = {},
  transfers: Api.HistoryItem['transfers'] = [],
): Api.HistoryItem {
  return {
    id,
    metadata: {
      minedAt,
      chain: 'eip155:31337',
      operationType: 'send',
      status: 'confirmed',
      sentFrom: me,
      sentTo: other,
      ...overrides,
    },
    transfers,
  }
}

const eth = (direction: 'in' | 'out' | 'self', numeric: string): Api.HistoryItem['transfers'][number] => ({
  fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: '' } },
  direction,
  quantity: { numeric },
})

describe('groupByDay', () => {
  const now = new Date('2026-03-10T15:00:00Z')

  it('puts transactions under one heading per calendar day: Today, Yesterday, then the date', () => {
    const days = groupByDay(
      [
        item('a', '2026-03-10T14:00:00Z'),
        item('b', '2026-03-10T00:30:00Z'),
        item('c', '2026-03-09T23:59:00Z'),
        item('d', '2026-03-01T12:00:00Z'),
      ],
      { locale: 'en-US', timeZone: 'UTC', now },
    )
    expect(days.map((day) => [day.heading, day.items.map((entry) => entry.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Mar 1, 2026', ['d']],
    ])
  })

  it("counts days in the visitor's time zone, not in UTC", () => {
    // 00:30 UTC on the 10th is still the 9th in New York.
    const days = groupByDay([item('a', '2026-03-10T14:00:00Z'), item('b', '2026-03-10T00:30:00Z')], {
      locale: 'en-US',
      timeZone: 'America/New_York',
      now,
    })
    expect(days.map((day) => day.heading)).toEqual(['Today', 'Yesterday'])
  })

  it('writes the date the way the locale does', () => {
    const [day] = groupByDay([item('a', '2026-03-01T12:00:00Z')], { locale: 'de-DE', timeZone: 'UTC', now })
    expect(day?.heading).toBe('01.03.2026')
  })
})

describe('merge', () => {
  it('adds a refreshed first page on top and replaces what it lists already (pending becomes confirmed)', () => {
    const listed = [
      item('b', '2026-03-10T10:00:00Z', { status: 'pending' }),
      item('a', '2026-03-09T10:00:00Z'),
    ]
    const page = [item('c', '2026-03-10T11:00:00Z'), item('b', '2026-03-10T10:00:00Z')]
    const merged = merge(listed, page, 'front')
    expect(merged.map((entry) => `${entry.id}:${entry.metadata.status}`)).toEqual([
      'c:confirmed',
      'b:confirmed',
      'a:confirmed',
    ])
  })

  it('appends the next page without listing a transaction twice', () => {
    const listed = [item('b', '2026-03-10T10:00:00Z'), item('a', '2026-03-09T10:00:00Z')]
    const merged = merge(
      listed,
      [item('a', '2026-03-09T10:00:00Z'), item('z', '2026-03-01T10:00:00Z')],
      'back',
    )
    expect(merged.map((entry) => entry.id)).toEqual(['b', 'a', 'z'])
  })
})

describe('describe', () => {
  it('shows a send as outgoing to the receiver, truncated to 3 decimals', () => {
    const row = describeItem(item('a', '2026-03-10T10:00:00Z', {}, [eth('out', '1.23456')]), 'en-US')
    expect(row).toMatchObject({ operation: 'send', label: 'Sent', status: 'confirmed', amount: '-1.234 ETH' })
    expect(row.counterparty).toEqual({ label: 'To 0x7099…79C8', spoken: `To ${other}`, address: other })
  })

  it('shows a receipt as incoming from the sender', () => {
    const row = describeItem(
      item(
        'a',
        '2026-03-10T10:00:00Z',
        { operationType: 'receive', sentFrom: other, sentTo: me, status: 'pending' },
        [eth('in', '2')],
      ),
      'en-US',
    )
    expect(row).toMatchObject({ label: 'Received', status: 'pending', amount: '+2.000 ETH' })
    expect(row.counterparty?.label).toBe('From 0x7099…79C8')
  })

  it("writes amounts with the separators of the visitor's locale", () => {
    const big = item('a', '2026-03-10T10:00:00Z', {}, [eth('out', '12345.6789')])
    expect(describeItem(big, 'en-US').amount).toBe('-12,345.678 ETH')
    expect(describeItem(big, 'de-DE').amount).toBe('-12.345,678 ETH')
  })

  it('names an NFT by its name, and an operation it does not know as the API does', () => {
    const row = describeItem(
      item('a', '2026-03-10T10:00:00Z', { operationType: 'bridge' }, [
        {
          nft_info: { name: 'Brass Key', content: { preview: { url: '' } }, flags: { is_spam: false } },
          direction: 'in',
          quantity: { numeric: '3' },
        },
      ]),
    )
    expect(row).toMatchObject({ label: 'bridge', amount: '+3 Brass Key' })
  })

  it('leaves the amount out when nothing moved (an approval)', () => {
    const row = describeItem(item('a', '2026-03-10T10:00:00Z', { operationType: 'approve' }))
    expect(row.label).toBe('Approved')
    expect(row.amount).toBeUndefined()
  })
})

describe('names of counterparties', () => {
  const names = { [other.toLowerCase()]: 'alice.eth' }
  const sent = item('a', '2026-03-10T10:00:00Z', {}, [eth('out', '1')])

  it('shows the name when the API knows one, the full address still in the title and for screen readers', () => {
    expect(describeItem(sent, 'en-US', names).counterparty).toEqual({
      label: 'To alice.eth',
      spoken: `To alice.eth, ${other}`,
      address: other,
    })
    // Checksum or lower case, an EVM address is one address.
    const received = item('b', '2026-03-10T10:00:00Z', { sentFrom: other.toLowerCase(), sentTo: me }, [
      eth('in', '1'),
    ])
    expect(describeItem(received, 'en-US', names).counterparty?.label).toBe('From alice.eth')
  })

  it('shows the shortened address until the name is known, and for an address without one', () => {
    expect(describeItem(sent, 'en-US', {}).counterparty?.label).toBe('To 0x7099…79C8')
    const stranger = item('c', '2026-03-10T10:00:00Z', { sentTo: me }, [eth('out', '1')])
    expect(describeItem(stranger, 'en-US', names).counterparty?.label).toBe('To 0xf39F…2266')
  })

  it('asks for each EVM counterparty once, whatever its case, and for no address of another chain', () => {
    const items = [
      sent,
      item('b', '2026-03-10T10:00:00Z', { sentFrom: other.toLowerCase(), sentTo: me }, [eth('in', '1')]),
      item('c', '2026-03-10T10:00:00Z', { sentTo: me }),
      // A contract deployment has no receiver.
      item('d', '2026-03-10T10:00:00Z', { operationType: 'deploy', sentTo: '' }),
    ]
    expect(counterparties(items)).toEqual([other.toLowerCase(), me.toLowerCase()])
    const solana = item('e', '2026-03-10T10:00:00Z', { chain: 'solana:devnet', sentTo: 'So1anaReceiver' })
    const bitcoin = item('f', '2026-03-10T10:00:00Z', { chain: 'bip122:0f9188f1', sentTo: other })
    expect(counterparties([solana, bitcoin])).toEqual([])
    // Even a name somehow known for that address is not shown off EVM (docs/behaviour.md §9: names are eip155's).
    expect(describeItem(bitcoin, 'en-US', names).counterparty?.label).toBe('To 0x7099…79C8')
  })
})

describe('withRecent', () => {
  const account = { address: me, chainId: 'eip155:31337' }
  const sent = (id: string, overrides: Partial<RecentSend> = {}): RecentSend => ({
    id,
    chainId: 'eip155:31337',
    from: me,
    to: other,
    symbol: 'ETH',
    amount: 1_250_000_000_000_000_000n,
    decimals: 18,
    status: 'pending',
    time: Date.parse('2026-03-10T14:30:00Z'),
    ...overrides,
  })
  const listed = [item('0xold', '2026-03-10T10:00:00Z', {}, [eth('out', '2')])]

  it("puts the modal's sends the list does not have yet on top, shown as any sent transaction", () => {
    const items = withRecent(listed, [sent('0xnew')], account)
    expect(items.map((entry) => entry.id)).toEqual(['0xnew', '0xold'])
    const [row] = items.map((entry) => describeItem(entry, 'en-US'))
    expect(row).toEqual({
      id: '0xnew',
      operation: 'send',
      label: 'Sent',
      status: 'pending',
      counterparty: { label: 'To 0x7099…79C8', spoken: `To ${other}`, address: other },
      amount: '-1.250 ETH',
    })
    expect(groupByDay(items, { timeZone: 'UTC', now: new Date('2026-03-10T15:00:00Z') })).toHaveLength(1)
  })

  it('shows the status the chain answered', () => {
    const [confirmed, failed] = withRecent(
      [],
      [sent('0xa', { status: 'confirmed' }), sent('0xb', { status: 'failed' })],
      account,
    )
    expect([confirmed?.metadata.status, failed?.metadata.status]).toEqual(['confirmed', 'failed'])
  })

  it("leaves a send out once the API's list has it (same id): the list's item is the one shown", () => {
    const indexed = [item('0xnew', '2026-03-10T14:30:05Z', { status: 'pending' }), ...listed]
    expect(withRecent(indexed, [sent('0xnew', { status: 'confirmed' })], account)).toBe(indexed)
    // EVM hashes are the same whatever their case.
    expect(withRecent(listed, [sent('0xOLD')], account)).toBe(listed)
  })

  it('leaves out the sends of another account or another chain', () => {
    const elsewhere = [sent('0x1', { from: other }), sent('0x2', { chainId: 'eip155:31338' })]
    expect(withRecent(listed, elsewhere, account)).toBe(listed)
    // An EVM address is the same account in any case; a base58 or bech32 one is not.
    expect(withRecent([], [sent('0x3', { from: me.toLowerCase() })], account)).toHaveLength(1)
    const solana = { address: 'So1anaSender', chainId: 'solana:devnet' }
    const sol = sent('sig', { chainId: 'solana:devnet', from: 'so1anasender', symbol: 'SOL', decimals: 9 })
    expect(withRecent([], [sol], solana)).toEqual([])
  })

  it('writes amounts of any decimals exactly, and of none', () => {
    const amountOf = (send: RecentSend) =>
      describeItem(withRecent([], [send], account)[0] as Api.HistoryItem, 'en-US').amount
    expect(amountOf(sent('a', { amount: 123_456_789n, decimals: 8, symbol: 'rLTC' }))).toBe('-1.234 rLTC')
    expect(amountOf(sent('b', { amount: 30_000_000n, decimals: 8, symbol: 'rLTC' }))).toBe('-0.300 rLTC')
    expect(amountOf(sent('c', { amount: 12_345n, decimals: 0, symbol: 'PTS' }))).toBe('-12,345.000 PTS')
  })
})
