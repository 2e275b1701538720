import type { Migration } from '../../../internal/migrations.ts'

/** Passkeys (`Passkeys.ts`) and their single-use challenges (`Challenges.ts`), appended by `internal/migrations.ts`. */
export const passkeysMigration: Migration = {
  name: 'passkeys',
  statements: [
    // A WebAuthn credential of a user, relying party the modal origin's host name. credential_id base64url;
    // public_key COSE, as the authenticator gave it at registration; counter the last signature counter seen
    // (a clone that signs with an older one is refused); transports JSON. used_at: the last login with it.
    `create table auth_passkeys (
      credential_id text primary key,
      user_id uuid not null references users (id) on delete cascade,
      public_key bytea not null,
      counter bigint not null,
      transports text,
      created_at bigint not null,
      used_at bigint
    )`,
    'create index auth_passkeys_user on auth_passkeys (user_id)',
    // A challenge handed out for one ceremony: 'register' for the session's user, 'login' for anyone. Taken
    // (deleted) by the first answer that names it, whatever comes of its checks; 5 minutes, then worthless.
    `create table auth_passkey_challenges (
      challenge text primary key,
      purpose text not null,
      user_id uuid references users (id) on delete cascade,
      project_id text not null references projects (id) on delete cascade,
      expires_at bigint not null
    )`,
    'create index auth_passkey_challenges_expiry on auth_passkey_challenges (expires_at)',
  ],
}
