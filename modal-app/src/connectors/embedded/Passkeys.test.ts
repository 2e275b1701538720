import * as Authenticator from '@airlock/api/passkey-testing'
import { type Address, bytesToHex, hexToBytes } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as base64 from '../../shared/encoding/base64.ts'
import { prfSalt } from '../../shared/webauthn/Ceremony.ts'
import type * as Account from './Account.ts'
import * as Keys from './Keys.ts'
import * as Protection from './Protection.ts'
import * as Sealing from './Sealing.ts'
import * as Secrets from './Secrets.ts'
import * as Shares from './Shares.ts'
import * as Embedded from './testing.ts'
import * as Vault from './Vault.ts'

let stack: Embedded.Stack
beforeAll(async () => {
  stack = await Embedded.start()
})
afterAll(() => stack?.stop())

/** A browser's store of shares, with no storage of its own: a new one is a browser that knows nothing. */
const browser = () =>
  Secrets.create(
    () => 'https://shop.example',
    () => undefined,
  )
const password = 'correct horse battery staple'
const self = { location: { hostname: 'airlock.localhost' } } as Window

/** A visitor who logged in, registered a passkey and created a wallet it protects, on `store`'s browser. */
async function withPasskey(store = browser()) {
  const session = await stack.login('ada')
  const device = Authenticator.create(Embedded.modalOrigin)
  const { response, prf } = device.register(
    await stack.account.passkey.registerOptions(session.token),
    prfSalt,
  )
  const credentialId = await stack.account.passkey.register(session.token, response)
  const unlock = { method: 'passkey', credentialId, prf } as const
  const wallet = await Vault.create({ account: stack.account, store }, session, unlock)
  return { session, device, credentialId, wallet, store }
}

/** What the passkey gives when a browser asks it to unlock `stored`. */
function unlockWith(device: Authenticator.Authenticator, stored: Vault.Found & { kind: 'recover' }) {
  const { options } = Protection.unlockRequest(stored.stored, self)
  const { response, prf } = device.assert(options, prfSalt)
  return { method: 'passkey', credentialId: response.id, prf } as const
}

async function recovering(session: Account.Session, store = browser()) {
  const found = await Vault.find({ account: stack.account, store }, session)
  if (found.kind !== 'recover') return expect.fail(`expected recover, found ${found.kind}`)
  return found
}

/**
 * An attacker with `holdings` (bytes and texts) and a list of password guesses: tries every pair of shares it
 * can read, and every sealed recovery copy under every key it can derive (a password from the guesses, a PRF
 * output from any 32 bytes it holds); answers the secret whose EVM address is `target`, if any.
 */
async function rebuild(
  holdings: { shares: Uint8Array[]; sealed: Uint8Array[]; bytes: Uint8Array[]; userId: string },
  guesses: string[],
  target: Address,
): Promise<Uint8Array | undefined> {
  const context = { userId: holdings.userId, kind: 'recovery' } as const
  const keys: CryptoKey[] = []
  for (const guess of guesses)
    keys.push(await Sealing.passwordKey(guess.padEnd(Sealing.passwordMin, ' '), holdings.userId))
  for (const bytes of holdings.bytes)
    for (let at = 0; at + 32 <= bytes.length; at += 32)
      keys.push(await Sealing.recoveryKey(bytes.slice(at, at + 32), holdings.userId))
  const shares = [...holdings.shares]
  for (const sealed of holdings.sealed)
    for (const key of keys)
      shares.push(
        ...(await Sealing.openShare(sealed, key, context).then(
          (s) => [s],
          () => [],
        )),
      )
  for (const [i, a] of shares.entries())
    for (const b of shares.slice(i + 1)) {
      const secret = await Shares.combine(a, b).catch(() => undefined)
      if (secret && (await Keys.accountsOf(secret)).eip155.address === target) return secret
    }
  return undefined
}

/** Everything the API holds of `userId` (its database's rows, as bytes and text) with `wallet.key`, and what a session of theirs reads. */
async function everythingTheApiHolds(session: Account.Session) {
  const rows: unknown[] = []
  for (const table of [
    'users',
    'auth_sessions',
    'auth_passkeys',
    'embedded_wallets',
    'embedded_wallet_recoveries',
  ])
    rows.push(...(await stack.db.query(`select * from ${table}`)))
  const stored = await stack.account.wallet(session.token)
  if (!stored) return expect.fail('no wallet stored')
  const bytes = rows.flatMap((row) =>
    Object.values(row as object).filter((v): v is Uint8Array => v instanceof Uint8Array),
  )
  return {
    userId: session.user.id,
    // The session hands out the auth share in clear; the database holds it sealed under wallet.key.
    shares: [base64.decode(stored.authShare)],
    sealed: stored.recoveries.map((copy) => base64.decode(copy.sealed)),
    bytes: [hexToBytes(`0x${stack.walletKey}`), ...bytes.map((b) => new Uint8Array(b))],
    texts: JSON.stringify(rows),
  }
}

describe('a wallet a passkey protects', () => {
  it('opens on a new browser with a login and the passkey, and with nothing else', async () => {
    const { session, device, credentialId, wallet } = await withPasskey()
    const found = await recovering(session)
    expect(found.stored.recoveries).toEqual([{ method: 'passkey', credentialId, sealed: expect.any(String) }])
    // Another passkey of the same visitor's relying party gives other bytes: nothing opens, nothing is kept.
    const stranger = Authenticator.create(Embedded.modalOrigin)
    const other = stranger.register(await stack.account.passkey.registerOptions(session.token), prfSalt)
    const store = browser()
    const wrong = { method: 'passkey', credentialId, prf: other.prf } as const
    await expect(Vault.recover({ store }, session, found.stored, wrong)).rejects.toThrow(
      Vault.WrongPasskeyError,
    )
    expect(store.share(session.user.id)).toBeUndefined()
    // No password opens it: there is none to guess.
    await expect(
      Vault.recover({ store }, session, found.stored, { method: 'password', password }),
    ).rejects.toThrow(Sealing.WrongPasswordError)
    const opened = await Vault.recover({ store }, session, found.stored, unlockWith(device, found))
    expect(opened.addresses).toEqual(wallet.addresses)
  })

  it('cannot be rebuilt from everything the API holds (database, wallet.key) and a session; a password-sealed one can, once guessed', async () => {
    const { session, wallet } = await withPasskey()
    const holdings = await everythingTheApiHolds(session)
    const guesses = [
      '123456',
      'password',
      password,
      session.user.email ?? '',
      'airlock',
      holdings.texts.slice(0, 64),
    ]
    expect(await rebuild(holdings, guesses, wallet.addresses.eip155 as Address)).toBeUndefined()
    // The same attacker against a wallet sealed under a password it guesses: the gap a passkey closes.
    const other = await stack.login('bob')
    const sealedByPassword = await Vault.create({ account: stack.account, store: browser() }, other, {
      method: 'password',
      password,
    })
    const secret = await rebuild(
      await everythingTheApiHolds(other),
      guesses,
      sealedByPassword.addresses.eip155 as Address,
    )
    expect(secret && bytesToHex(secret)).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('opens with the passkey alone: its assertion signs in, its PRF output unlocks, no email involved', async () => {
    const { session, device, wallet } = await withPasskey()
    const { response, prf } = device.assert(await stack.account.passkey.loginOptions(), prfSalt)
    const signedIn = await stack.account.passkey.login(response)
    // The passkey's user, as `GET /v1/auth/me` names them (the provider was the other login's).
    expect(signedIn.user).toEqual({ id: session.user.id, email: session.user.email })
    const found = await recovering(signedIn)
    const opened = await Vault.recover({ store: browser() }, signedIn, found.stored, {
      method: 'passkey',
      credentialId: response.id,
      prf,
    })
    expect(opened.addresses).toEqual(wallet.addresses)
  })
})

describe('a wallet moving from its password to a passkey', () => {
  it('keeps its address, then drops the password; a session alone may do neither', async () => {
    const session = await stack.login('carol')
    const wallet = await Vault.create({ account: stack.account, store: browser() }, session, {
      method: 'password',
      password,
    })
    const stored = (await recovering(session)).stored
    const device = Authenticator.create(Embedded.modalOrigin)
    const { response, prf } = device.register(
      await stack.account.passkey.registerOptions(session.token),
      prfSalt,
    )
    const credentialId = await stack.account.passkey.register(session.token, response)
    const passkey = { method: 'passkey', credentialId, prf } as const

    // A session alone (someone reading the visitor's mail) cannot add or drop: the wallet's key did not sign.
    const forged = { issuedAt: Date.now(), signature: `0x${'11'.repeat(65)}` }
    const sealed = stored.recoveries[0]?.sealed ?? ''
    for (const attempt of [
      stack.account.recovery.add(session.token, {
        recovery: { method: 'passkey', credentialId, sealed },
        ...forged,
      }),
      stack.account.recovery.dropPassword(session.token, { method: 'password', ...forged }),
    ])
      await expect(attempt).rejects.toMatchObject({
        status: 401,
        message: "The wallet's key did not sign this change",
      })
    // Nor can a passkey copy be dropped-to while none exists.
    await expect(Vault.dropPassword({ account: stack.account }, session, wallet)).rejects.toMatchObject({
      status: 409,
    })

    await expect(
      Vault.addPasskey(
        { account: stack.account },
        session,
        wallet,
        stored,
        'not the password at all',
        passkey,
      ),
    ).rejects.toThrow(Sealing.WrongPasswordError)
    expect(
      await Vault.addPasskey({ account: stack.account }, session, wallet, stored, password, passkey),
    ).toEqual({
      recoveries: [{ method: 'password' }, { method: 'passkey', credentialId }],
    })
    const moved = await recovering(session)
    expect(
      (await Vault.recover({ store: browser() }, session, moved.stored, unlockWith(device, moved))).addresses,
    ).toEqual(wallet.addresses)

    expect(await Vault.dropPassword({ account: stack.account }, session, wallet)).toEqual({
      recoveries: [{ method: 'passkey', credentialId }],
    })
    const passkeyOnly = await recovering(session)
    await expect(
      Vault.recover({ store: browser() }, session, passkeyOnly.stored, { method: 'password', password }),
    ).rejects.toThrow(Sealing.WrongPasswordError)
    expect(
      (
        await Vault.recover(
          { store: browser() },
          session,
          passkeyOnly.stored,
          unlockWith(device, passkeyOnly),
        )
      ).addresses,
    ).toEqual(wallet.addresses)
  })
})

describe('the recovery password where no passkey gives a PRF output', () => {
  it('is refused when easy to guess, with the reason, and creates nothing', async () => {
    const session = await stack.login('dave')
    let recovery: Protection.Recovery | undefined = { mode: 'create', busy: false, password: true }
    let opened: Vault.Wallet | undefined
    const protection = Protection.create({
      kernel: { changed: () => {}, shake: () => {} },
      account: stack.account,
      secrets: browser(),
      custody: () => import('./custody.ts'),
      session: () => session,
      recovery: () => recovery,
      setRecovery: (next) => {
        recovery = next
      },
      ready: (wallet) => {
        opened = wallet
      },
    })
    await protection.submitRecovery('password1234')
    expect(recovery?.error).toBe(
      'This password is too easy to guess. This is similar to a commonly used password.',
    )
    await protection.submitRecovery(`${session.user.email}`.slice(0, 10).padEnd(10, '1'))
    expect(recovery?.error).toMatch(/^This password is too easy to guess\./)
    expect(opened).toBeUndefined()
    expect(await stack.account.wallet(session.token)).toBeUndefined()
    await protection.submitRecovery(password)
    expect(opened?.addresses.eip155).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })
})
