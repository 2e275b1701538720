import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Identities from './Identities.ts'
import * as Users from './Users.ts'

describe.each(databases())('identities without email on $engine', ({ open }) => {
  let db: Database
  const start = Date.UTC(2026, 10, 22)
  const usersWithoutEmail = async () =>
    Number((await db.query<{ n: string }>('select count(*) as n from users where email is null'))[0]?.n)

  beforeAll(async () => {
    db = await open()
  })
  afterAll(() => db?.close())

  it('makes a user without email at the first login, and finds it again with its latest username', async () => {
    const before = await usersWithoutEmail()
    const first = await Identities.userOfAccount(db, 'farcaster', '4242', 'ada', start)
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: null, createdAt: start })
    const again = await Identities.userOfAccount(db, 'farcaster', '4242', 'ada.eth', start + 1)
    expect(again).toEqual(first)
    expect(await Identities.of(db, first.id)).toEqual({
      provider: 'farcaster',
      subject: '4242',
      username: 'ada.eth',
    })
    const other = await Identities.userOfAccount(db, 'farcaster', '4243', undefined, start)
    expect(other.id).not.toBe(first.id)
    expect(await Identities.of(db, other.id)).toEqual({
      provider: 'farcaster',
      subject: '4243',
      username: undefined,
    })
    // Any number of users without email: the address stays unique only among those who have one.
    expect(await usersWithoutEmail()).toBe(before + 2)
    expect(await Users.findOrCreate(db, 'ada@mail.example', start)).toMatchObject({
      email: 'ada@mail.example',
    })
  })

  it('ends two first logins at once with one user, and leaves no user behind', async () => {
    const before = await usersWithoutEmail()
    const both = await Promise.all([
      Identities.userOfAccount(db, 'farcaster', '77', 'bo', start),
      Identities.userOfAccount(db, 'farcaster', '77', 'bo', start),
    ])
    expect(both[1]).toEqual(both[0])
    expect(await usersWithoutEmail()).toBe(before + 1)
  })

  it('knows no identity of an email user who logged in by code alone', async () => {
    const user = await Users.findOrCreate(db, 'cy@mail.example', start)
    expect(await Identities.of(db, user.id)).toBeUndefined()
  })
})
