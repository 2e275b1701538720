import type { Migration } from '../../internal/migrations.ts'

/** What the API knows of smart sessions beside the chain (`Store.ts`), appended by `internal/migrations.ts`. */
export const sessionsMigration: Migration = {
  name: 'smart sessions',
  statements: [
    // One row per session the API heard of: chain_id CAIP-2, account and key lower-case 0x. origin: the page
    // it was granted to, as the account's owner signed it. revoked_at (epoch ms): when the account recorded a
    // revocation, the first time; what the list says of the session is the chain's alone.
    `create table smart_sessions (
      chain_id text not null,
      account text not null,
      key text not null,
      origin text,
      revoked_at bigint,
      primary key (chain_id, account, key)
    )`,
  ],
}
