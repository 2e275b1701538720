/**
 * The schema, as ordered migrations. Append only: a migration that has run on someone's database is never
 * edited, a change is a new entry. Times the service compares with its own clock are epoch milliseconds
 * (`bigint`), so tests can move the clock. A feature may keep its migration in its folder; it is listed here.
 */
import { codeCapsMigration, socialReturnMigration } from '../features/auth/migration.ts'
import { passkeysMigration } from '../features/auth/passkey/migration.ts'
import { namesMigration } from '../features/names/migration.ts'
import { onrampMigration } from '../features/onramp/migration.ts'
import { sponsorshipMigration } from '../features/paymaster/migration.ts'
import { sessionsMigration } from '../features/sessions/migration.ts'
import { walletRecoveriesMigration } from '../features/wallet/migration.ts'

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
  {
    name: 'history',
    statements: [
      // Where each chain's indexer stands: the last indexed block, by height and hash. Writers advance it
      // only from the value they read (compare and set), so two writers can never both index a block.
      `create table history_cursors (
        chain_id text primary key,
        height bigint not null,
        hash text not null
      )`,
      // The hashes of the recent blocks (the indexer prunes older ones), to find the fork point of a reorg.
      `create table history_blocks (
        chain_id text not null,
        number bigint not null,
        hash text not null,
        primary key (chain_id, number)
      )`,
      // kind: what the transaction did when no transfer says it (send, execute, approve, deploy).
      // recipient: '' when none; a deployment names the contract it created.
      `create table history_transactions (
        chain_id text not null,
        hash text not null,
        block_number bigint not null,
        tx_index integer not null,
        mined_at bigint not null,
        status text not null check (status in ('confirmed', 'failed')),
        kind text not null,
        sender text not null,
        recipient text not null,
        primary key (chain_id, hash)
      )`,
      'create index history_transactions_block on history_transactions (chain_id, block_number)',
      // asset: '' for the native currency; sender '' is a mint, recipient '' a burn.
      `create table history_transfers (
        chain_id text not null,
        tx_hash text not null,
        block_number bigint not null,
        position bigint not null,
        kind text not null check (kind in ('native', 'fungible', 'nft')),
        asset text not null,
        token_id text,
        sender text not null,
        recipient text not null,
        amount numeric(78, 0) not null,
        primary key (chain_id, tx_hash, position)
      )`,
      'create index history_transfers_block on history_transfers (chain_id, block_number)',
      // One row per account a transaction concerns: the page index of GET /v1/account/{account}/history.
      `create table history_accounts (
        address text not null,
        chain_id text not null,
        tx_hash text not null,
        mined_at bigint not null,
        block_number bigint not null,
        tx_index integer not null,
        primary key (address, chain_id, tx_hash)
      )`,
      'create index history_accounts_page on history_accounts (address, mined_at, chain_id, block_number, tx_index)',
      'create index history_accounts_block on history_accounts (chain_id, block_number)',
      // Token metadata, read from the chain once (or taken from the configuration) and kept.
      `create table history_assets (
        chain_id text not null,
        address text not null,
        kind text not null check (kind in ('fungible', 'nft')),
        name text not null,
        symbol text not null,
        decimals integer,
        icon_url text,
        is_spam boolean not null default false,
        primary key (chain_id, address)
      )`,
    ],
  },
  {
    name: 'history-accounts-followed',
    statements: [
      // Fees (Solana, Bitcoin) are transfers of their own: native currency the sender paid the network.
      'alter table history_transfers drop constraint history_transfers_kind_check',
      `alter table history_transfers add constraint history_transfers_kind_check
        check (kind in ('native', 'fungible', 'nft', 'fee'))`,
      // Addresses a family follows one by one (Solana: no blocks to read), each with its own cursor: the
      // newest signature indexed, null before the first read. owner: the wallet whose history the address
      // feeds (itself, or the wallet of a token account); asked_at: when the route last asked about it.
      `create table history_watched (
        chain_id text not null,
        address text not null,
        owner text not null,
        newest text,
        asked_at bigint not null,
        primary key (chain_id, address)
      )`,
      'create index history_watched_owner on history_watched (chain_id, owner)',
    ],
  },
  {
    name: 'history-nfts',
    statements: [
      // An account's NFTs are its NFT transfers summed (received minus sent): these find them without
      // reading the rest of the index. Partial, so fungible and native transfers add nothing to them.
      "create index history_transfers_nft_recipient on history_transfers (recipient, chain_id) where kind = 'nft'",
      "create index history_transfers_nft_sender on history_transfers (sender, chain_id) where kind = 'nft'",
      // Which standard an NFT contract follows (ERC-165), read from the chain the first time it is shown.
      `alter table history_assets add column standard text check (standard in ('erc721', 'erc1155'))`,
      // Each NFT's metadata, read from its token URI when first shown (and again once stale): only what a
      // data: URI holds, the server fetches no URL. Empty name and image when it had none.
      `create table history_nft_tokens (
        chain_id text not null,
        contract text not null,
        token_id text not null,
        name text not null,
        image_url text not null,
        read_at bigint not null,
        primary key (chain_id, contract, token_id)
      )`,
    ],
  },
  {
    name: 'auth',
    statements: [
      // The people who log in by email (features/auth), one row per address, whatever the project.
      `create table users (
        id uuid primary key,
        email text not null unique,
        created_at bigint not null
      )`,
      // One live code per address and purpose; a new one overwrites the row. code_hash is an HMAC under the
      // configuration's secret, never the code. sent_at stays after use: it is the 30 s throttle. user_id and
      // new_email bind the change-email codes to the user who asked and the address they asked for.
      `create table auth_codes (
        email text not null,
        purpose text not null check (purpose in ('login', 'change-primary', 'change-secondary')),
        project_id text not null references projects (id) on delete cascade,
        user_id uuid references users (id) on delete cascade,
        new_email text,
        code_hash text not null,
        sent_at bigint not null,
        expires_at bigint not null,
        tries integer not null default 0,
        used_at bigint,
        primary key (email, purpose)
      )`,
      'create index auth_codes_user on auth_codes (user_id, purpose)',
      'create index auth_codes_expiry on auth_codes (expires_at)',
      // A session's bearer token is kept only as its HMAC under the configuration's secret.
      `create table auth_sessions (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        project_id text not null references projects (id) on delete cascade,
        token_hash text not null unique,
        created_at bigint not null,
        expires_at bigint not null,
        revoked_at bigint
      )`,
      'create index auth_sessions_user on auth_sessions (user_id)',
    ],
  },
  {
    name: 'social login',
    statements: [
      // Who logged in through which provider: its subject (the provider's stable user id) maps to one user.
      // username is the provider's handle at the last login (GitHub's login), for display only.
      `create table auth_identities (
        provider text not null,
        subject text not null,
        user_id uuid not null references users (id) on delete cascade,
        username text,
        created_at bigint not null,
        primary key (provider, subject)
      )`,
      'create index auth_identities_user on auth_identities (user_id)',
      // A login begun at a provider: the callback takes its row by the state once. The PKCE verifier and
      // the nonce must be read back, so they are stored as such; 10 minutes, then worthless.
      `create table auth_social_states (
        state text primary key,
        provider text not null,
        project_id text not null references projects (id) on delete cascade,
        code_verifier text not null,
        nonce text,
        expires_at bigint not null
      )`,
      'create index auth_social_states_expiry on auth_social_states (expires_at)',
      // A login the provider vouched for, waiting 60 s for the modal to trade its one-time code (kept only
      // as its HMAC) for a session.
      `create table auth_social_handoffs (
        code_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        project_id text not null references projects (id) on delete cascade,
        provider text not null,
        username text,
        expires_at bigint not null
      )`,
      'create index auth_social_handoffs_expiry on auth_social_handoffs (expires_at)',
    ],
  },
  {
    name: 'embedded wallets',
    statements: [
      // The embedded wallet's custody (features/wallet), one row per user, written once. (`wallets` is the
      // registry's.) fingerprint: 8 bytes of SHA-256 over the EVM address, as hex. auth_share is sealed
      // under the configuration's wallet.key (AES-256-GCM, bound to the user), never under anything stored
      // here; recovery_share is sealed by the modal under a key from the visitor's recovery password, and
      // nothing here opens it.
      // read_at: when a session last took the shares.
      `create table embedded_wallets (
        user_id uuid primary key references users (id) on delete cascade,
        fingerprint text not null,
        evm_address text not null unique,
        solana_address text not null unique,
        auth_share bytea not null,
        recovery_share bytea not null,
        created_at bigint not null,
        read_at bigint
      )`,
    ],
  },
  {
    name: 'auth hardening',
    statements: [
      // Every wrong code, per address and purpose, kept a day: the cap on guesses across codes
      // (then features/auth/Failures.ts, now Caps.ts), which a new code does not reset.
      `create table auth_code_failures (
        email text not null,
        purpose text not null,
        failed_at bigint not null
      )`,
      'create index auth_code_failures_address on auth_code_failures (email, purpose, failed_at)',
      'create index auth_code_failures_age on auth_code_failures (failed_at)',
      // A social login is bound to the modal that began it: the HMAC of its random binding goes from the
      // state to the handoff, and the exchange must show the binding. Logins in flight have none and could
      // not finish: they go (10 minutes and 60 s at most).
      'delete from auth_social_states',
      'delete from auth_social_handoffs',
      'alter table auth_social_states add column binding_hash text not null',
      'alter table auth_social_handoffs add column binding_hash text not null',
    ],
  },
  {
    name: 'lower-case emails',
    statements: [
      // Addresses are parsed to lower case now (contract/auth.ts), so a mixed-case stored one would be a user
      // nobody can log in as by email. Lower-cased where no other user has the same address in another case;
      // such pairs (only seen in development data) stay as they are, the lower-case one being the one found.
      `update users u set email = lower(u.email)
       where u.email <> lower(u.email)
         and not exists (select 1 from users o where o.id <> u.id and lower(o.email) = lower(u.email))`,
      // Codes live 10 minutes: one sent to a mixed-case address is asked for again.
      'delete from auth_codes where email <> lower(email) or new_email <> lower(new_email)',
    ],
  },
  {
    name: 'farcaster login',
    statements: [
      // A Farcaster login's user is its fid (auth_identities, provider 'farcaster'), with no email: the
      // address stays unique among users who have one (a unique constraint takes any number of nulls).
      'alter table users alter column email drop not null',
      // A Sign In With Farcaster request: the relay's channel token (kept only as its HMAC), the nonce of
      // ours the signed message must carry, and the HMAC of the modal's binding. One status that finds the
      // sign-in completed takes the row, whatever comes of its checks; 5 minutes, then worthless.
      `create table auth_farcaster_channels (
        token_hash text primary key,
        project_id text not null references projects (id) on delete cascade,
        nonce text not null,
        binding_hash text not null,
        expires_at bigint not null
      )`,
      'create index auth_farcaster_channels_expiry on auth_farcaster_channels (expires_at)',
    ],
  },
  namesMigration,
  onrampMigration,
  sessionsMigration,
  sponsorshipMigration,
  codeCapsMigration,
  passkeysMigration,
  walletRecoveriesMigration,
  socialReturnMigration,
]
