import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type * as Contract from '@airlock/api/contract'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import * as Mail from '../../../../devnet/src/Mail.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import { manualClock } from '../../testing/clock.ts'
import * as Account from './Account.ts'
import * as Keys from './Keys.ts'
import * as Sealing from './Sealing.ts'
import * as Shares from './Shares.ts'
import * as Embedded from './testing.ts'

/** An API that takes requests and never answers them; `heard` counts them. */
function stalling() {
  const server = createServer(() => void stalled.heard++)
  const stalled = {
    heard: 0,
    url: '',
    stop: () => {
      server.closeAllConnections()
      server.close()
    },
  }
  return new Promise<typeof stalled>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      stalled.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resolve(stalled)
    }),
  )
}

let mail: Mail.Instance
let stack: Embedded.Stack
let stalled: Awaited<ReturnType<typeof stalling>>
beforeAll(async () => {
  mail = await Mail.start({ smtpPort: 0, webPort: 0 })
  stack = await Embedded.start({ smtp: mail.smtp })
  stalled = await stalling()
})
afterAll(async () => {
  stalled?.stop()
  await stack?.stop()
  await mail?.stop()
})

let serial = 0
const address = () => `visitor${++serial}@mail.example`
/** What a call failed with: an AccountError's message, status and wait. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    (value) => expect.fail(`expected a refusal, got ${JSON.stringify(value)}`),
    (error: unknown) => {
      if (!(error instanceof Account.AccountError)) return expect.fail(`expected an AccountError: ${error}`)
      return { message: error.message, status: error.status, retryAfter: error.retryAfter }
    },
  )

/** A new wallet's body as the vault posts it: its public side and shares (the recovery one sealed). */
async function walletOf(userId: string): Promise<Contract.WalletBody> {
  const secret = Keys.createSecret()
  const { device, auth, recovery } = await Shares.split(secret)
  const { eip155, solana } = await Keys.accountsOf(secret)
  const key = await Sealing.recoveryKey(crypto.getRandomValues(new Uint8Array(32)), userId)
  const sealed = await Sealing.sealShare(recovery, key, { userId, kind: 'recovery' })
  device.fill(0)
  return {
    fingerprint: Buffer.from(Keys.fingerprintOf(eip155.address)).toString('hex'),
    addresses: { eip155: eip155.address, solana: solana.address },
    authShare: base64.encode(auth),
    recovery: { method: 'password', sealed: base64.encode(sealed) },
  }
}

describe('the embedded wallet’s account client', () => {
  it('logs in with a mailed code, reads the session’s user, and logs out', async () => {
    const email = address()
    const { account } = stack
    expect(await account.sendCode(email)).toBe(30)
    const code = await mail.latestCode(email)
    const session = await account.verifyCode(email, code)
    expect(session).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user: { id: expect.any(String), email },
    })
    expect(await account.me(session.token)).toEqual(session.user)
    await account.logout(session.token)
    expect(await refusal(account.me(session.token))).toEqual({
      message: 'Invalid session',
      status: 401,
      retryAfter: undefined,
    })
  })

  it('fails with the API’s words, status and wait', async () => {
    const email = address()
    const { account } = stack
    await account.sendCode(email)
    expect(await refusal(account.sendCode(email))).toEqual({
      message: expect.stringMatching(/^Please try again after \d+ seconds$/),
      status: 429,
      retryAfter: expect.any(Number),
    })
    const code = await mail.latestCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    expect(await refusal(account.verifyCode(email, wrong))).toEqual({
      message: 'Invalid code',
      status: 401,
      retryAfter: undefined,
    })
  })

  it('stores the wallet once and hands it back to its session only, from the modal origin only', async () => {
    const { account } = stack
    const session = await stack.login('ada')
    expect(await account.wallet(session.token)).toBeUndefined()
    const body = await walletOf(session.user.id)
    expect(await account.storeWallet(session.token, body)).toEqual({
      fingerprint: body.fingerprint,
      addresses: body.addresses,
    })
    const { recovery, ...rest } = body
    expect(await account.wallet(session.token)).toEqual({ ...rest, recoveries: [recovery] })
    expect(await refusal(account.storeWallet(session.token, await walletOf(session.user.id)))).toMatchObject({
      message: 'This account already has a wallet',
      status: 409,
    })
    // Another visitor's session sees no wallet; a made-up token and another origin get nothing.
    expect(await account.wallet((await stack.login('eve')).token)).toBeUndefined()
    expect(await refusal(account.wallet('T'.repeat(43)))).toMatchObject({ status: 401 })
    const elsewhere = Account.create({ endpoint: stack.api.endpoint })
    expect(await refusal(elsewhere.wallet(session.token))).toMatchObject({
      message: 'Wallet shares are only served to the modal origin',
      status: 403,
    })
  })

  it('waits the product’s 30 s (docs/behaviour.md §9) for an answer: still waiting at 29.999 s, given up with ‘Request was aborted’ at 30 s', async () => {
    const clock = manualClock()
    const account = Account.create({
      endpoint: (path) => `${stalled.url}${path}?projectId=demo`,
      timers: clock.timers,
    })
    let settled = false
    const sending = refusal(account.sendCode(address())).finally(() => {
      settled = true
    })
    await vi.waitFor(() => expect(stalled.heard).toBe(1))
    clock.advance(29_999)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
    clock.advance(1)
    expect(await sending).toEqual({ message: 'Request was aborted', status: 0, retryAfter: undefined })
  })

  it('clears its time limit once the API answered', async () => {
    const clock = manualClock()
    const account = Account.create({ endpoint: stack.api.endpoint, fetch: stack.fetch, timers: clock.timers })
    await account.socialProviders()
    expect(clock.waiting()).toEqual([])
  })

  it('fails with status 0 when the API cannot be reached', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`
    const account = Account.create({ endpoint: (path) => `${dead}${path}?projectId=demo` })
    expect(await refusal(account.sendCode(address()))).toEqual({
      message: 'The Airlock service could not be reached. Check your connection and try again.',
      status: 0,
      retryAfter: undefined,
    })
  })
})
