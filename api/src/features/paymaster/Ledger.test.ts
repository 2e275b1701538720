import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import { sharedPostgres } from '../history/testing.ts'
import * as Ledger from './Ledger.ts'

const chainId = 'eip155:31337'
const alice: Address = '0x00000000000000000000000000000000000A11cE'
const bob: Address = '0x0000000000000000000000000000000000000B0b'
const carol: Address = '0x00000000000000000000000000000000000CA201'
const day = Ledger.dayOf(Date.UTC(2026, 0, 15, 12))
const budget = { perDay: 1_000n, total: 1_500n, perSenderPerDay: 600n }

let serial = 0
/** A reservation of `maxCost` by `sender`, each with a hash and nonce of its own unless given. */
function reservation(
  sender: Address,
  maxCost: bigint,
  rest: Partial<Ledger.Reservation> = {},
): Ledger.Reservation {
  serial++
  return {
    userOpHash: `0x${serial.toString(16).padStart(64, '0')}` as Hex,
    chainId,
    projectId: 'shop',
    sender,
    nonce: BigInt(serial),
    day,
    maxCost,
    validUntil: 1_000,
    ...rest,
  }
}

const included = (held: Ledger.Reservation, actualGasCost: bigint): Ledger.Included => ({
  userOpHash: held.userOpHash,
  sender: held.sender,
  nonce: held.nonce,
  actualGasCost,
  blockNumber: 7n,
})

describe.each(databases())('Ledger on $engine', ({ open }) => {
  let db: Database
  beforeAll(async () => {
    db = await open()
  })
  afterAll(() => db?.close())

  it('holds a signature’s most cost against each budget, and refuses the one that would pass a budget, naming it', async () => {
    const project = { projectId: 'holds' }
    expect(await Ledger.reserve(db, reservation(alice, 400n, project), budget)).toBeUndefined()
    // Alice's day: 400 held, 600 allowed.
    expect(await Ledger.reserve(db, reservation(alice, 201n, project), budget)).toEqual({
      rule: 'perSenderPerDay',
      limit: 600n,
      committed: 400n,
    })
    expect(await Ledger.reserve(db, reservation(bob, 600n, project), budget)).toBeUndefined()
    // The project's day: 1,000 held.
    expect(await Ledger.reserve(db, reservation(carol, 1n, project), budget)).toEqual({
      rule: 'perDay',
      limit: 1_000n,
      committed: 1_000n,
    })
    // The next day has its own budget, not the total's: 1,000 of 1,500 are held.
    expect(await Ledger.reserve(db, reservation(bob, 501n, { ...project, day: day + 1 }), budget)).toEqual({
      rule: 'total',
      limit: 1_500n,
      committed: 1_000n,
    })
    const [spend] = await Ledger.spend(db, 'holds', day)
    expect(spend).toMatchObject({ total: { cost: 0n, operations: 0 }, today: { cost: 0n }, reserved: 1_000n })
    expect(spend?.senders.map(({ sender, reserved }) => [sender, reserved])).toEqual([
      [bob.toLowerCase(), 600n],
      [alice.toLowerCase(), 400n],
    ])
  })

  it('settles what the EntryPoint charged in place of the reservation, once, and lets the nonce’s other signatures go', async () => {
    const project = { projectId: 'settles' }
    const held = reservation(alice, 500n, project)
    const again = reservation(alice, 500n, { ...project, nonce: held.nonce })
    await Ledger.reserve(db, held, budget)
    expect(await Ledger.reserve(db, again, budget)).toEqual({
      rule: 'perSenderPerDay',
      limit: 600n,
      committed: 500n,
    })
    const other = reservation(bob, 300n, project)
    await Ledger.reserve(db, other, budget)

    expect(await Ledger.settle(db, chainId, included(held, 123n))).toBe(true)
    expect(await Ledger.settle(db, chainId, included(held, 123n))).toBe(false)
    // Signed by no reservation here: not this deployment's.
    expect(await Ledger.settle(db, chainId, included(reservation(bob, 1n), 999n))).toBe(false)

    const [spend] = await Ledger.spend(db, 'settles', day)
    expect(spend).toEqual({
      chainId,
      total: { cost: 123n, operations: 1 },
      today: { cost: 123n, operations: 1 },
      reserved: 300n,
      senders: [
        { sender: alice.toLowerCase(), cost: 123n, operations: 1, reserved: 0n },
        { sender: bob.toLowerCase(), cost: 0n, operations: 0, reserved: 300n },
      ],
    })
    // What was charged counts, not what was held: Alice has 477 of her 600 left.
    expect(await Ledger.reserve(db, reservation(alice, 477n, project), budget)).toBeUndefined()
    expect(await Ledger.reserve(db, reservation(alice, 1n, project), budget)).toMatchObject({
      rule: 'perSenderPerDay',
    })
  })

  it('releases reservations the chain is past, and no others', async () => {
    // A chain of this test's own.
    const held = { projectId: 'releases', chainId: 'eip155:7' }
    await Ledger.reserve(db, reservation(alice, 100n, { ...held, validUntil: 2_000 }), budget)
    await Ledger.reserve(db, reservation(bob, 100n, { ...held, validUntil: 3_000 }), budget)
    expect(await Ledger.release(db, 'eip155:7', 2_000)).toBe(0)
    expect(await Ledger.release(db, 'eip155:7', 2_001)).toBe(1)
    expect((await Ledger.spend(db, 'releases', day))[0]?.reserved).toBe(100n)
    expect(await Ledger.release(db, 'eip155:8', 5_000)).toBe(0)
  })

  it('lets concurrent signings take the budget once: of ten at once, the budget holds four', async () => {
    const tries = Array.from({ length: 10 }, (_, i) =>
      Ledger.reserve(db, reservation(i % 2 ? alice : bob, 250n, { projectId: 'races' }), budget),
    )
    const outcomes = await Promise.all(tries)
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(4)
    expect((await Ledger.spend(db, 'races', day))[0]?.reserved).toBe(1_000n)
  })
})

describe('two API processes on one PostgreSQL', () => {
  const skipped = !process.env.AIRLOCK_TEST_DATABASE_URL
  it.skipIf(skipped)(
    `never both spend the last wei of a budget${skipped ? ' (skipped: needs AIRLOCK_TEST_DATABASE_URL)' : ''}`,
    async () => {
      const shared = await sharedPostgres()
      if (!shared) throw new Error('no PostgreSQL')
      const [first, second] = [await shared.open(), await shared.open()]
      try {
        // Each process's pool holds several connections: 40 signings at once, 20 from each.
        const tries = Array.from({ length: 40 }, (_, i) =>
          Ledger.reserve(i % 2 ? first : second, reservation(i % 3 ? alice : bob, 100n), {
            perDay: 1_000n,
            total: 1_000n,
            perSenderPerDay: 1_000n,
          }),
        )
        const outcomes = await Promise.all(tries)
        expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(10)
        expect((await Ledger.spend(first, 'shop', day))[0]?.reserved).toBe(1_000n)
      } finally {
        await first.close()
        await second.close()
        await shared.drop()
      }
    },
  )
})
