/**
 * Names and avatars for addresses (`GET /v1/identity/{address}`). Like prices, the lookup is a
 * {@link IdentitySource} chosen by the deployment; the built-in one reads the `identities` table, which an
 * operator (or the devnet) fills. An ENS resolver is one `IdentitySource` away (viem's `getEnsName`).
 */
import type { Database } from '../../Database.ts'

export type Identity = { name: string | null; avatar: string | null }

export type IdentitySource = {
  /** The identity of a lowercase address; `{ name: null, avatar: null }` when it has none. */
  lookup(address: string): Promise<Identity>
}

/** The built-in source: the `identities` table. */
export function fromDatabase(db: Pick<Database, 'query'>): IdentitySource {
  return {
    async lookup(address) {
      const [row] = await db.query<Identity>('select name, avatar from identities where address = $1', [
        address.toLowerCase(),
      ])
      return { name: row?.name ?? null, avatar: row?.avatar ?? null }
    },
  }
}

/** Stores or replaces an address's identity in the built-in table. */
export async function set(db: Database, address: string, identity: Identity): Promise<void> {
  await db.query(
    `insert into identities (address, name, avatar) values ($1, $2, $3)
     on conflict (address) do update set name = excluded.name, avatar = excluded.avatar`,
    [address.toLowerCase(), identity.name, identity.avatar],
  )
}
