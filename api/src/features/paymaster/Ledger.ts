/**
 * What each project's sponsorship has cost, per chain, in the database (`migration.ts`), so every replica on
 * one PostgreSQL (or the one PGlite process) counts against the same budgets.
 *
 * A signature is a promise to pay, so it is counted before it is given: {@link reserve} holds the most the
 * operation may cost (its prefund) against the project's budgets, refusing it when that would pass one, under
 * a lock on the project's row so that two replicas can never both take the last wei. The follower then
 * {@link settle}s what the EntryPoint really charged (`UserOperationEvent`'s `actualGasCost`) in its place, or
 * {@link release}s a reservation once the chain is past its `validUntil` and it can no longer be used.
 */
import type { Address, Hex } from 'viem'
import type { Database } from '../../Database.ts'
import type { Policy } from './Sponsorship.ts'

type Db = Pick<Database, 'query' | 'transaction'>

const dayMs = 86_400_000

/** The UTC day of an epoch-milliseconds time, as the ledger numbers days. */
export function dayOf(ms: number): number {
  return Math.floor(ms / dayMs)
}

export type Reservation = {
  userOpHash: Hex
  /** CAIP-2. */
  chainId: string
  projectId: string
  sender: Address
  nonce: bigint
  /** {@link dayOf} the API's clock when it signed. */
  day: number
  maxCost: bigint
  /** The last chain second the EntryPoint takes the operation. */
  validUntil: number
}

/** The budget a reservation would pass: the rule, its limit, and what is spent or held against it already. */
export type Overrun = { rule: keyof Policy['budget']; limit: bigint; committed: bigint }

/**
 * Holds `reservation` against `budget`, or answers the first budget it would pass (and holds nothing).
 * @example
 * const overrun = await Ledger.reserve(db, reservation, policy.budget)
 * if (overrun) refuse(overrun.rule)
 */
export function reserve(
  db: Db,
  reservation: Reservation,
  budget: Policy['budget'],
): Promise<Overrun | undefined> {
  const { chainId, projectId, day } = reservation
  const sender = reservation.sender.toLowerCase()
  return db.transaction(async (tx) => {
    await tx.query(
      'insert into sponsorship_totals (project_id, chain_id) values ($1, $2) on conflict do nothing',
      [projectId, chainId],
    )
    await tx.query('select 1 from sponsorship_totals where project_id = $1 and chain_id = $2 for update', [
      projectId,
      chainId,
    ])
    // One statement, so every sum is read from one snapshot.
    const [row] = await tx.query<Record<'total' | 'day' | 'sender_day', string>>(
      `select
        (select cost from sponsorship_totals where project_id = $1 and chain_id = $2)
          + (select coalesce(sum(max_cost), 0) from sponsorship_reservations where project_id = $1 and chain_id = $2)
          as total,
        (select coalesce(sum(cost), 0) from sponsorship_days
          where project_id = $1 and chain_id = $2 and day = $3 and sender = '')
          + (select coalesce(sum(max_cost), 0) from sponsorship_reservations
            where project_id = $1 and chain_id = $2 and day = $3)
          as day,
        (select coalesce(sum(cost), 0) from sponsorship_days
          where project_id = $1 and chain_id = $2 and day = $3 and sender = $4)
          + (select coalesce(sum(max_cost), 0) from sponsorship_reservations
            where project_id = $1 and chain_id = $2 and day = $3 and sender = $4)
          as sender_day`,
      [projectId, chainId, day, sender],
    )
    const committed = {
      total: BigInt(row?.total ?? 0),
      perDay: BigInt(row?.day ?? 0),
      perSenderPerDay: BigInt(row?.sender_day ?? 0),
    }
    for (const rule of ['perSenderPerDay', 'perDay', 'total'] as const)
      if (committed[rule] + reservation.maxCost > budget[rule])
        return { rule, limit: budget[rule], committed: committed[rule] }
    await tx.query(
      `insert into sponsorship_reservations
        (user_op_hash, chain_id, project_id, sender, nonce, day, max_cost, valid_until)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (chain_id, user_op_hash) do nothing`,
      [
        reservation.userOpHash.toLowerCase(),
        chainId,
        projectId,
        sender,
        reservation.nonce.toString(),
        day,
        reservation.maxCost.toString(),
        reservation.validUntil,
      ],
    )
    return undefined
  })
}

/** An operation the EntryPoint ran with the paymaster: its `UserOperationEvent`. */
export type Included = {
  userOpHash: Hex
  sender: Address
  nonce: bigint
  actualGasCost: bigint
  blockNumber: bigint
}

/**
 * Counts what `included` really cost against the project whose signature it carried, in place of its
 * reservation (the sender's other signatures for that nonce go too: the nonce is used). An operation signed
 * by no reservation here (another deployment's, or one released long ago) is passed over; one counted
 * already is not counted again.
 * @returns whether it was counted now
 */
export function settle(db: Db, chainId: string, included: Included): Promise<boolean> {
  const hash = included.userOpHash.toLowerCase()
  const sender = included.sender.toLowerCase()
  const nonce = included.nonce.toString()
  return db.transaction(async (tx) => {
    // By its hash; by its sender and nonce should a hash ever be reckoned otherwise than the EntryPoint did.
    const [reserved] = await tx.query<{ project_id: string; day: number }>(
      `select project_id, day from sponsorship_reservations where chain_id = $1
        and (user_op_hash = $2 or (sender = $3 and nonce = $4))
       order by (user_op_hash = $2) desc, valid_until desc limit 1`,
      [chainId, hash, sender, nonce],
    )
    await tx.query(
      'delete from sponsorship_reservations where chain_id = $1 and sender = $2 and nonce = $3',
      [chainId, sender, nonce],
    )
    if (!reserved) return false
    const { project_id: projectId, day } = reserved
    const cost = included.actualGasCost.toString()
    const counted = await tx.query(
      `insert into sponsorship_operations (chain_id, user_op_hash, project_id, sender, day, cost, block_number)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing returning 1`,
      [chainId, hash, projectId, sender, day, cost, included.blockNumber.toString()],
    )
    if (counted.length === 0) return false
    await tx.query(
      `insert into sponsorship_totals (project_id, chain_id, cost, operations) values ($1, $2, $3, 1)
       on conflict (project_id, chain_id) do update
         set cost = sponsorship_totals.cost + excluded.cost, operations = sponsorship_totals.operations + 1`,
      [projectId, chainId, cost],
    )
    for (const who of ['', sender])
      await tx.query(
        `insert into sponsorship_days (project_id, chain_id, day, sender, cost, operations)
         values ($1, $2, $3, $4, $5, 1)
         on conflict (project_id, chain_id, day, sender) do update
           set cost = sponsorship_days.cost + excluded.cost, operations = sponsorship_days.operations + 1`,
        [projectId, chainId, day, who, cost],
      )
    return true
  })
}

/**
 * Lets go of `chainId`'s reservations whose `validUntil` is before `chainSeconds`, the time of a block the
 * follower has read every event up to: the EntryPoint refuses them in that block and any later one.
 * @returns how many went
 */
export async function release(db: Db, chainId: string, chainSeconds: number): Promise<number> {
  const rows = await db.query(
    'delete from sponsorship_reservations where chain_id = $1 and valid_until < $2 returning 1',
    [chainId, chainSeconds],
  )
  return rows.length
}

/** What a project's sponsorship has cost on one chain. */
export type Spend = {
  chainId: string
  total: { cost: bigint; operations: number }
  today: { cost: bigint; operations: number }
  /** Held for signed operations not yet seen on chain (at the most each may cost), all days. */
  reserved: bigint
  /** Today's senders, the costliest first (then the most held), with what is held for each today. */
  senders: { sender: Address; cost: bigint; operations: number; reserved: bigint }[]
}

/**
 * `projectId`'s spend on each chain it has any on, `day` as today.
 * @example
 * await Ledger.spend(db, 'demo', Ledger.dayOf(Date.now())) // [{ chainId: 'eip155:31337', total: …, … }]
 */
export async function spend(db: Db, projectId: string, day: number): Promise<Spend[]> {
  const totals = await db.query<{ chain_id: string; cost: string; operations: string }>(
    'select chain_id, cost, operations from sponsorship_totals where project_id = $1',
    [projectId],
  )
  const reserved = await db.query<{ chain_id: string; reserved: string }>(
    'select chain_id, sum(max_cost) as reserved from sponsorship_reservations where project_id = $1 group by chain_id',
    [projectId],
  )
  // Today's senders, with sender '' (the day's whole) among them.
  const senders = await db.query<{
    chain_id: string
    sender: string
    cost: string
    operations: string
    reserved: string
  }>(
    `select chain_id, sender, sum(cost) as cost, sum(operations) as operations, sum(reserved) as reserved from (
       select chain_id, sender, cost, operations, 0::numeric as reserved from sponsorship_days
         where project_id = $1 and day = $2
       union all
       select chain_id, sender, 0, 0, max_cost from sponsorship_reservations where project_id = $1 and day = $2
     ) as rows group by chain_id, sender order by chain_id, sum(cost) desc, sum(reserved) desc, sender`,
    [projectId, day],
  )
  const chains = [...new Set([...totals, ...reserved].map((row) => row.chain_id))].sort()
  return chains.map((chainId) => {
    const total = totals.find((row) => row.chain_id === chainId)
    const ofChain = senders.filter((row) => row.chain_id === chainId)
    const whole = ofChain.find((row) => row.sender === '')
    return {
      chainId,
      total: { cost: BigInt(total?.cost ?? 0), operations: Number(total?.operations ?? 0) },
      today: { cost: BigInt(whole?.cost ?? 0), operations: Number(whole?.operations ?? 0) },
      reserved: BigInt(reserved.find((row) => row.chain_id === chainId)?.reserved ?? 0),
      senders: ofChain
        .filter((row) => row.sender !== '')
        .map((row) => ({
          sender: row.sender as Address,
          cost: BigInt(row.cost),
          operations: Number(row.operations),
          reserved: BigInt(row.reserved),
        })),
    }
  })
}
