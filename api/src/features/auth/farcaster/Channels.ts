/**
 * Sign In With Farcaster requests in flight: what the channel route keeps for the status route under the
 * HMAC of the relay's channel token: the project, the nonce of ours the signed message must carry, and the
 * HMAC of the modal's binding. A request lives 5 minutes; taking it (the status that finds it completed, or
 * shown with another binding) is once.
 */
import type { Database } from '../../../Database.ts'

/** As long as the relay keeps a channel: the visitor scans the code and approves in their app meanwhile. */
export const channelTtlMs = 5 * 60_000

/** A request: `expiresAt` is epoch milliseconds. */
export type Channel = {
  tokenHash: string
  projectId: string
  nonce: string
  bindingHash: string
  expiresAt: number
}

type ChannelRow = {
  token_hash: string
  project_id: string
  nonce: string
  binding_hash: string
  expires_at: string
}

const toChannel = (row: ChannelRow): Channel => ({
  tokenHash: row.token_hash,
  projectId: row.project_id,
  nonce: row.nonce,
  bindingHash: row.binding_hash,
  expiresAt: Number(row.expires_at),
})

/**
 * Keeps a request; the expired ones go at the same time.
 * @example await Channels.put(db, { tokenHash, projectId, nonce, bindingHash, expiresAt }, Date.now())
 */
export async function put(db: Pick<Database, 'query'>, channel: Channel, now: number): Promise<void> {
  await db.query('delete from auth_farcaster_channels where expires_at <= $1', [now])
  await db.query(
    `insert into auth_farcaster_channels (token_hash, project_id, nonce, binding_hash, expires_at)
     values ($1, $2, $3, $4, $5)`,
    [channel.tokenHash, channel.projectId, channel.nonce, channel.bindingHash, channel.expiresAt],
  )
}

/**
 * The project's request of this token hash, expired or not, without taking it.
 * @example const channel = await Channels.find(db, tokenHash, 'demo')
 */
export async function find(
  db: Pick<Database, 'query'>,
  tokenHash: string,
  projectId: string,
): Promise<Channel | undefined> {
  const [row] = await db.query<ChannelRow>(
    `select token_hash, project_id, nonce, binding_hash, expires_at from auth_farcaster_channels
     where token_hash = $1 and project_id = $2`,
    [tokenHash, projectId],
  )
  return row && toChannel(row)
}

/**
 * Takes the project's request of this token hash: atomic, so of two statuses at once only one gets it.
 * @example const channel = await Channels.take(db, tokenHash, 'demo')
 */
export async function take(
  db: Pick<Database, 'query'>,
  tokenHash: string,
  projectId: string,
): Promise<Channel | undefined> {
  const [row] = await db.query<ChannelRow>(
    `delete from auth_farcaster_channels where token_hash = $1 and project_id = $2
     returning token_hash, project_id, nonce, binding_hash, expires_at`,
    [tokenHash, projectId],
  )
  return row && toChannel(row)
}
