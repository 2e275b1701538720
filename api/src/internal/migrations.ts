/**
 * The schema, as ordered migrations. Append only: a migration that has run on someone's database is never
 * edited, a change is a new entry. Times the service compares with its own clock are epoch milliseconds
 * (`bigint`), so tests can move the clock.
 */
export type Migration = { name: string; statements: readonly string[] }

export const migrations: readonly Migration[] = [
  {
    name: 'initial',
    statements: [
      `create table projects (
        id text primary key,
        analytics_enabled boolean not null default false,
        created_at timestamptz not null default now()
      )`,
      `create table project_origins (
        project_id text not null references projects (id) on delete cascade,
        origin text not null,
        primary key (project_id, origin)
      )`,
      `create table cache (
        key text primary key,
        value jsonb not null,
        expires_at bigint not null
      )`,
      `create table prices (
        chain_id text not null,
        address text not null,
        currency text not null,
        price double precision not null,
        name text not null,
        symbol text not null,
        icon_url text,
        primary key (chain_id, address, currency)
      )`,
      `create table identities (
        address text primary key,
        name text,
        avatar text
      )`,
      `create table wallets (
        id text primary key,
        name text not null,
        rdns text,
        chains text[] not null,
        homepage text,
        mobile_link text,
        desktop_link text,
        webapp_link text,
        image_id text not null,
        badge_type text not null default 'none',
        rank integer not null
      )`,
      'create index wallets_rank on wallets (rank, name)',
      `create table images (
        id text primary key,
        kind text not null check (kind in ('wallet', 'asset', 'currency', 'token')),
        content_type text not null,
        body bytea not null,
        etag text not null
      )`,
      `create table events (
        event_id uuid primary key,
        project_id text not null references projects (id) on delete cascade,
        origin text not null,
        url text not null,
        domain text not null,
        timestamp bigint not null,
        props jsonb not null,
        received_at timestamptz not null default now()
      )`,
    ],
  },
  {
    name: 'siwx',
    statements: [
      // A nonce row outlives its use until it is pruned (an hour after it expired), so a replay is told
      // "already used", not "unknown".
      `create table siwx_nonces (
        nonce text primary key,
        project_id text not null references projects (id) on delete cascade,
        expires_at bigint not null,
        used_at bigint
      )`,
      'create index siwx_nonces_expiry on siwx_nonces (expires_at)',
      // A session's bearer token is kept only as its SHA-256 (hex); expires_at is always set (30 days at most).
      `create table siwx_sessions (
        id uuid primary key,
        project_id text not null references projects (id) on delete cascade,
        address text not null,
        chain_id text not null,
        message text not null,
        signature text not null,
        token_hash text not null unique,
        issued_at bigint not null,
        expires_at bigint not null,
        revoked_at bigint,
        created_at bigint not null
      )`,
      'create index siwx_sessions_account on siwx_sessions (project_id, address)',
    ],
  },
]
