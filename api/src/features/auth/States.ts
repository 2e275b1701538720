/**
 * Social logins in flight: what a login's start keeps for its callback (the PKCE verifier, the nonce, the
 * provider, the project, the HMAC of the modal's binding and, for a login that left the page, where it
 * returns) under the random `state` the provider hands back. A state works once, for its own provider, for 10 minutes.
 */
import type { SocialProvider } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import type { Checks } from './Providers.ts'

/** A visitor has this long at the provider (its login and consent pages) before the state is worthless. */
const stateTtlMs = 10 * 60_000

/**
 * A login begun: its checks, and whom it is for. `bindingHash` is the HMAC of the random value the modal
 * that began it holds, which the handoff carries on to the exchange (login CSRF: see `social.ts`).
 */
export type Pending = Checks & {
  provider: SocialProvider
  projectId: string
  bindingHash: string
  /** The page a login that left it returns to, its origin on the project's list (`social.ts`). */
  returnTo?: string | undefined
}

/**
 * Keeps a login begun now; the expired ones go at the same time.
 * @example await States.put(db, { ...checks, provider: 'google', projectId, bindingHash }, Date.now())
 */
export async function put(db: Pick<Database, 'query'>, pending: Pending, now: number): Promise<void> {
  await db.query('delete from auth_social_states where expires_at <= $1', [now])
  await db.query(
    `insert into auth_social_states
       (state, provider, project_id, code_verifier, nonce, binding_hash, return_to, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      pending.state,
      pending.provider,
      pending.projectId,
      pending.codeVerifier,
      pending.nonce ?? null,
      pending.bindingHash,
      pending.returnTo ?? null,
      now + stateTtlMs,
    ],
  )
}

/**
 * Takes the login of `state` if it is `provider`'s and not expired; either way the state is used up, so a
 * callback replayed, or sent to another provider's route, finds nothing.
 * @example const pending = await States.take(db, query.state, 'google', Date.now())
 */
export async function take(
  db: Pick<Database, 'query'>,
  state: string,
  provider: SocialProvider,
  now: number,
): Promise<Pending | undefined> {
  const [row] = await db.query<{
    provider: SocialProvider
    project_id: string
    code_verifier: string
    nonce: string | null
    binding_hash: string
    return_to: string | null
    expires_at: string
  }>(
    `delete from auth_social_states where state = $1
     returning provider, project_id, code_verifier, nonce, binding_hash, return_to, expires_at`,
    [state],
  )
  if (!row || row.provider !== provider || Number(row.expires_at) <= now) return undefined
  return {
    state,
    provider,
    projectId: row.project_id,
    codeVerifier: row.code_verifier,
    nonce: row.nonce ?? undefined,
    bindingHash: row.binding_hash,
    returnTo: row.return_to ?? undefined,
  }
}
