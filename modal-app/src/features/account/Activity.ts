/**
 * The Activity tab's logic, apart from React: pages of history merged into one list, with the modal's own
 * sends the API does not list yet on top, grouped by the visitor's calendar day, each transaction described
 * by what it did, with whom (by name where the API knows one) and for how much.
 */

import type * as Api from '../../api/Api.ts'
import { formatQuantity, truncateAddress } from '../../shared/format.ts'
import * as Locale from '../../shared/i18n/Locale.ts'
import type { RecentSend } from '../../shared/RecentSend.ts'
import type { AccountRef } from './tabs.ts'
import { activityTexts } from './texts.ts'

type Item = Api.HistoryItem

/** A day of the list: its key (`2026-03-04` in the visitor's time zone), heading and transactions. */
export type Day = { key: string; heading: string; items: Item[] }

/** What the tab shows of one transaction. */
export type Row = {
  id: string
  /** The operation as the API names it (`send`, `receive`, …), for the icon. */
  operation: string
  /** The operation in words; an operation this build does not know is shown as the API names it. */
  label: string
  status: Api.HistoryItem['metadata']['status']
  /**
   * The other side: `label` as shown (`To alice.eth`, `To 0x7099…79C8`), `spoken` for screen readers (with
   * the full address), and the address in full.
   */
  counterparty?: { label: string; spoken: string; address: string } | undefined
  /** `+1.500 ETH`, `-10,000.000 ALT` (the locale's separators), an NFT's name; absent when nothing moved. */
  amount?: string | undefined
}

/** Options of {@link groupByDay}. */
export type DayOptions = {
  /** @default the visitor's */
  locale?: string | undefined
  /** @default the visitor's */
  timeZone?: string | undefined
  /** For Today and Yesterday. @default new Date() */
  now?: Date
}

/**
 * Transactions (newest first, as the API pages them) under a heading per calendar day: Today, Yesterday,
 * else the date.
 * @example groupByDay(items, { locale: 'en-US', timeZone: 'UTC' })[0].heading // 'Today'
 */
export function groupByDay(items: readonly Item[], options: DayOptions = {}): Day[] {
  const { locale, timeZone, now = new Date() } = options
  const keyOf = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(date)
  const today = keyOf(now)
  const yesterday = keyOf(new Date(now.getTime() - 86_400_000))
  const date = new Intl.DateTimeFormat(locale ?? Locale.current().tag, { timeZone, dateStyle: 'medium' })
  const days: Day[] = []
  for (const item of items) {
    const mined = new Date(item.metadata.minedAt)
    const key = Number.isNaN(mined.getTime()) ? '' : keyOf(mined)
    let day = days.at(-1)
    if (day?.key !== key) {
      const heading =
        key === today ? activityTexts.today : key === yesterday ? activityTexts.yesterday : date.format(mined)
      day = { key, heading, items: [] }
      days.push(day)
    }
    day.items.push(item)
  }
  return days
}

/**
 * A page merged into the list: a transaction listed already is replaced where it stands (a pending one
 * becomes confirmed), a new one goes to the top (`front`, a refresh of the first page) or the end (`back`,
 * the next page).
 */
export function merge(items: readonly Item[], page: readonly Item[], where: 'front' | 'back'): Item[] {
  const fresh = new Map(page.map((item) => [item.id, item]))
  const kept = items.map((item) => fresh.get(item.id) ?? item)
  const known = new Set(items.map((item) => item.id))
  const added = page.filter((item) => !known.has(item.id))
  return where === 'front' ? [...added, ...kept] : [...kept, ...added]
}

/**
 * The list with the modal's own sends on top: those of the account on its chain that the list does not have
 * yet (same id), newest first. The API's indexer lists a transaction only a while after it was sent; from
 * then on the list's item is the one shown.
 * @example withRecent(page.data, snapshot.sends.recent, { address, chainId })
 */
export function withRecent(
  items: readonly Item[],
  recent: readonly RecentSend[],
  account: AccountRef,
): readonly Item[] {
  // EVM addresses and hashes are the same whatever their case; base58 and bech32 are not.
  const key = account.chainId.startsWith('eip155:')
    ? (text: string) => text.toLowerCase()
    : (text: string) => text
  const listed = new Set(items.map((item) => key(item.id)))
  const unlisted = recent.filter(
    (send) =>
      send.chainId === account.chainId &&
      key(send.from) === key(account.address) &&
      !listed.has(key(send.id)),
  )
  return unlisted.length === 0 ? items : [...unlisted.map(itemOf), ...items]
}

/** A send or swap of the modal's as the API would list it, so it shows as any other row does. */
function itemOf(send: RecentSend): Item {
  const { received } = send
  return {
    id: send.id,
    metadata: {
      minedAt: new Date(send.time).toISOString(),
      chain: send.chainId,
      operationType: received ? 'trade' : 'send',
      status: send.status,
      sentFrom: send.from,
      sentTo: send.to,
    },
    transfers: [
      {
        fungible_info: { name: send.symbol, symbol: send.symbol, icon: { url: '' } },
        direction: 'out',
        quantity: { numeric: decimalOf(send.amount, send.decimals) },
      },
      ...(received
        ? [
            {
              fungible_info: { name: received.symbol, symbol: received.symbol, icon: { url: '' } },
              direction: 'in' as const,
              quantity: { numeric: decimalOf(received.amount, received.decimals) },
            },
          ]
        : []),
    ],
  }
}

/** Base units in whole units, as the API writes quantities (`1.250000000000000000`). */
function decimalOf(value: bigint, decimals: number): string {
  const digits = value.toString().padStart(decimals + 1, '0')
  return decimals > 0 ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits
}

const signs = { in: '+', out: '-', self: '' } as const

/** Names of EVM addresses as the API's identity route gave them, by address in lower case. */
export type Names = Readonly<Record<string, string>>

const evmAddress = /^0x[0-9a-f]{40}$/i

/** The other side of a transaction, and whether it came from there. */
function otherOf(item: Item): { address: string; incoming: boolean } {
  const { operationType, sentFrom, sentTo } = item.metadata
  const transfer = item.transfers[0]
  const incoming = transfer ? transfer.direction === 'in' : operationType === 'receive'
  return { address: incoming ? sentFrom : sentTo, incoming }
}

/** Whether a transaction's counterparty can have a name: docs/behaviour.md §9's names are eip155's. */
function nameable(item: Item, address: string): boolean {
  return item.metadata.chain.startsWith('eip155:') && evmAddress.test(address)
}

/**
 * The addresses whose names the rows would show: the counterparties of EVM transactions, in lower case
 * (an EVM address is the same whatever its case), each once. Other chains' rows ask nothing.
 * @example counterparties(items) // ['0x7099…79c8']
 */
export function counterparties(items: readonly Item[]): string[] {
  const addresses = new Set<string>()
  for (const item of items) {
    const { address } = otherOf(item)
    if (nameable(item, address)) addresses.add(address.toLowerCase())
  }
  return [...addresses]
}

/**
 * What the tab shows of a transaction: its operation, the other side (by its name in `names` on an EVM
 * chain, else its shortened address), the first amount moved (written for `locale`, by default the
 * visitor's).
 */
export function describe(item: Item, locale?: string, names: Names = {}): Row {
  const { operationType: operation, status } = item.metadata
  const transfer = item.transfers[0]
  const other = otherOf(item)
  return {
    id: item.id,
    operation,
    label: activityTexts.operations[operation] ?? operation,
    status,
    counterparty: other.address ? counterpartyOf(item, other, names) : undefined,
    amount: transfer && amountOf(transfer, locale),
  }
}

function counterpartyOf(item: Item, other: ReturnType<typeof otherOf>, names: Names): Row['counterparty'] {
  const { address } = other
  const direction = other.incoming ? activityTexts.from : activityTexts.to
  const name = nameable(item, address) ? names[address.toLowerCase()] : undefined
  return {
    label: `${direction} ${name ?? truncateAddress(address)}`,
    spoken: `${direction} ${name ? `${name}, ` : ''}${address}`,
    address,
  }
}

function amountOf(transfer: Item['transfers'][number], locale: string | undefined): string {
  const sign = signs[transfer.direction]
  if (transfer.fungible_info)
    return `${sign}${formatQuantity(transfer.quantity.numeric, locale)} ${transfer.fungible_info.symbol}`
  const name = transfer.nft_info?.name ?? ''
  return `${sign}${transfer.quantity.numeric} ${name}`.trim()
}
