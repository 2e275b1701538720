/**
 * The project's names in the database: who holds each, what it resolves to, and the signed registrations
 * already used. One name per address per suffix: registering another renames (the old name is free again),
 * and registering one's own name again updates its attributes.
 */
import { getAddress } from 'viem'
import type { NameRecord } from '../../contract/names.ts'
import type { Database } from '../../Database.ts'

type Query = Pick<Database, 'query'>

export type Entry = {
  name: string
  address: string
  coinType: bigint
  attributes: Record<string, string>
  registeredAt: number
  updatedAt: number
}

type Row = {
  name: string
  address: string
  coin_type: string
  attributes: Record<string, string>
  registered_at: string
  updated_at: string
}

const columns = 'name, address, coin_type, attributes, registered_at, updated_at'

const entryOf = (row: Row): Entry => ({
  name: row.name,
  address: row.address,
  coinType: BigInt(row.coin_type),
  attributes: row.attributes,
  registeredAt: Number(row.registered_at),
  updatedAt: Number(row.updated_at),
})

/** A name's entry, or `undefined` when nobody holds it. */
export async function find(db: Query, name: string): Promise<Entry | undefined> {
  const [row] = await db.query<Row>(`select ${columns} from names where name = $1`, [name])
  return row && entryOf(row)
}

/** The names an address holds (one per suffix). */
export async function ofAddress(db: Query, address: string): Promise<Entry[]> {
  const rows = await db.query<Row>(`select ${columns} from names where address = $1 order by name`, [
    address.toLowerCase(),
  ])
  return rows.map(entryOf)
}

/** Which of these names someone holds. */
export async function taken(db: Query, names: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>('select name from names where name = any($1)', [[...names]])
  return new Set(rows.map((row) => row.name))
}

export type Registration = {
  name: string
  suffix: string
  address: string
  coinType: number
  attributes: Record<string, string>
  /** What makes this signed registration unique; a second one with the same key is a replay. */
  key: string
  now: number
}

/** How long a used registration is remembered: longer than a message's timestamp is accepted (±10 min). */
const rememberMs = 30 * 60_000

/**
 * Registers (or renames to, or updates) a name in one transaction.
 * @returns the entry, `replayed` when this signed registration was used already, `taken` when another
 *   address holds the name
 */
export async function register(
  db: Database,
  registration: Registration,
): Promise<Entry | 'replayed' | 'taken'> {
  const { name, suffix, now } = registration
  const address = registration.address.toLowerCase()
  return db
    .transaction(async (tx) => {
      await tx.query('delete from name_registrations where used_at < $1', [now - rememberMs])
      const fresh = await tx.query(
        'insert into name_registrations (key, used_at) values ($1, $2) on conflict do nothing returning key',
        [registration.key, now],
      )
      if (fresh.length === 0) return 'replayed'
      // Locks the name's row, if any, so two registrations of one name cannot both pass.
      const [holder] = await tx.query<{ address: string }>(
        'select address from names where name = $1 for update',
        [name],
      )
      if (holder && holder.address !== address) throw new Taken()
      // The address's other name under this suffix is let go: a rename.
      await tx.query('delete from names where address = $1 and suffix = $2 and name <> $3', [
        address,
        suffix,
        name,
      ])
      const [row] = await tx.query<Row>(
        `insert into names (name, suffix, address, coin_type, attributes, registered_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6)
       on conflict (name) do update set coin_type = excluded.coin_type, attributes = excluded.attributes,
         updated_at = excluded.updated_at
       where names.address = excluded.address
       returning ${columns}`,
        [name, suffix, address, registration.coinType, JSON.stringify(registration.attributes), now],
      )
      // No row: another registration took the name after the check above.
      if (!row) throw new Taken()
      return entryOf(row)
    })
    .catch((error: unknown) => {
      // Thrown inside, so that the transaction rolls back and the registration may be tried again.
      if (error instanceof Taken) return 'taken' as const
      throw error
    })
}

class Taken extends Error {}

/** An entry as the contract writes it: its one address under the coin type it was registered for. */
export function recordOf(entry: Entry): NameRecord {
  return {
    name: entry.name,
    registered: Math.floor(entry.registeredAt / 1000),
    updated: Math.floor(entry.updatedAt / 1000),
    addresses: { [entry.coinType.toString()]: { address: getAddress(entry.address) } },
    attributes: entry.attributes,
  }
}
