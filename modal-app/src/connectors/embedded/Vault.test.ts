import { type Address, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as base64 from '../../shared/encoding/base64.ts'
import * as Account from './Account.ts'
import * as Keys from './Keys.ts'
import * as Sealing from './Sealing.ts'
import * as Secrets from './Secrets.ts'
import * as Shares from './Shares.ts'
import * as Embedded from './testing.ts'
import * as Vault from './Vault.ts'

const password = 'correct horse battery staple'
const byPassword = { method: 'password', password } as const

let stack: Embedded.Stack
beforeAll(async () => {
  stack = await Embedded.start()
})
afterAll(() => stack?.stop())

/** A browser's store of shares: the real one, with no storage of its own, so it lasts the test. */
const noStorage = () => undefined
const browser = () => Secrets.create(() => 'https://shop.example', noStorage)

/** A visitor who logged in and created a wallet on `store`'s browser. */
async function created(store = browser()) {
  const session = await stack.login('ada')
  const vault = { account: stack.account, store }
  const wallet = await Vault.create(vault, session, byPassword)
  return { session, vault, wallet }
}

async function opened(found: Vault.Found): Promise<Vault.Wallet> {
  if (found.kind !== 'open') return expect.fail(`expected the wallet open, found ${found.kind}`)
  return found.wallet
}

const publicSide = (wallet: Vault.Wallet) => ({
  fingerprint: wallet.fingerprint,
  addresses: wallet.addresses,
})

describe('the vault', () => {
  it('creates a wallet on the first login, stores it at the API and opens it again on this browser', async () => {
    const session = await stack.login('ada')
    const store = browser()
    const vault = { account: stack.account, store }
    expect(await Vault.find(vault, session)).toEqual({ kind: 'create' })

    const wallet = await Vault.create(vault, session, byPassword)
    expect(wallet.addresses.eip155).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(wallet.fingerprint).toBe(
      Buffer.from(Keys.fingerprintOf(wallet.addresses.eip155 as Address)).toString('hex'),
    )
    const stored = await stack.account.wallet(session.token)
    expect(stored).toMatchObject(publicSide(wallet))
    const kept = store.share(session.user.id)
    expect(kept && base64.encode(kept)).not.toBe(stored?.authShare)
    expect(kept && Shares.fingerprintOf(kept)).toEqual(Keys.fingerprintOf(wallet.addresses.eip155 as Address))

    const again = await opened(await Vault.find(vault, session))
    expect(publicSide(again)).toEqual(publicSide(wallet))
    expect(again.solanaKey).toEqual(wallet.solanaKey)
  })

  it('recovers on a new browser with the password only, and keeps nothing for a wrong one', async () => {
    const { session, wallet } = await created()
    const fresh = browser()
    const vault = { account: stack.account, store: fresh }
    const found = await Vault.find(vault, session)
    if (found.kind !== 'recover') return expect.fail(`expected recover, found ${found.kind}`)
    expect(found.stored).toMatchObject(publicSide(wallet))

    await expect(
      Vault.recover(vault, session, found.stored, {
        method: 'password',
        password: 'not the password at all',
      }),
    ).rejects.toThrow(Sealing.WrongPasswordError)
    expect(fresh.share(session.user.id)).toBeUndefined()
    expect((await Vault.find(vault, session)).kind).toBe('recover')

    const recovered = await Vault.recover(vault, session, found.stored, byPassword)
    expect(publicSide(recovered)).toEqual(publicSide(wallet))
    expect(fresh.share(session.user.id)).toBeDefined()
    // From now on this browser opens the wallet without the password.
    expect(publicSide(await opened(await Vault.find(vault, session)))).toEqual(publicSide(wallet))
  })

  it('does not open one visitor’s recovery share for another, even with the same password', async () => {
    const { session } = await created()
    const stored = await stack.account.wallet(session.token)
    if (!stored) return expect.fail('no wallet stored')
    const other = await stack.login('eve')
    const store = browser()
    await expect(Vault.recover({ store }, other, stored, byPassword)).rejects.toThrow(
      Sealing.WrongPasswordError,
    )
    expect(store.share(other.user.id)).toBeUndefined()
  })

  it('asks for the password when this browser keeps a share of another wallet, or bytes not a share', async () => {
    const { session, wallet } = await created()
    const elsewhere = await created()
    const store = browser()
    const vault = { account: stack.account, store }
    // Another wallet's share under this visitor's id: an earlier wallet's, or a store someone altered.
    const foreign = elsewhere.vault.store.share(elsewhere.session.user.id)
    if (!foreign) return expect.fail('no share kept')
    store.keep(session.user.id, foreign)
    const found = await Vault.find(vault, session)
    expect(found.kind).toBe('recover')
    if (found.kind === 'recover') expect(found.stored).toMatchObject(publicSide(wallet))

    for (const bytes of [new Uint8Array(0), new Uint8Array([1, 2, 3]), new Uint8Array(42)]) {
      store.keep(session.user.id, bytes)
      expect((await Vault.find(vault, session)).kind).toBe('recover')
    }
  })

  it('asks for the password when the share kept here has the wallet’s tag but is altered, or is the auth share', async () => {
    const { session, vault } = await created()
    const kept = vault.store.share(session.user.id)
    const stored = await stack.account.wallet(session.token)
    if (!kept || !stored) return expect.fail('no wallet')
    const altered = kept.slice()
    altered[12] = (altered[12] ?? 0) ^ 0xff
    for (const share of [altered, base64.decode(stored.authShare)]) {
      vault.store.keep(session.user.id, share)
      expect((await Vault.find(vault, session)).kind).toBe('recover')
    }
  })

  it('lends a secret that signs for the wallet’s address, and zeroes it when the call settles', async () => {
    const { wallet } = await created()
    const lent: Uint8Array[] = []
    const message = 'Sign in to the shop'
    const signature = await wallet.withSecret(async (secret) => {
      lent.push(secret)
      expect(secret.some((byte) => byte !== 0)).toBe(true)
      const { eip155 } = await Keys.accountsOf(secret)
      return privateKeyToAccount(eip155.privateKey).signMessage({ message })
    })
    expect(await verifyMessage({ address: wallet.addresses.eip155 as Address, message, signature })).toBe(
      true,
    )

    await expect(
      wallet.withSecret(async (secret) => {
        lent.push(secret)
        throw new Error('the signer failed')
      }),
    ).rejects.toThrow('the signer failed')
    expect(lent).toHaveLength(2)
    for (const secret of lent) {
      expect(secret).toHaveLength(32)
      expect(secret.every((byte) => byte === 0)).toBe(true)
    }
    // Each call rebuilds the secret: the zeroed one is not what the next call gets.
    await wallet.withSecret(async (secret) => expect(secret.some((byte) => byte !== 0)).toBe(true))
  })

  it('sends the API nothing that opens the wallet without the recovery password', async () => {
    const sent: string[] = []
    const recording: typeof fetch = async (input, init) => {
      sent.push(`${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`)
      return stack.fetch(input, init)
    }
    const store = browser()
    const session = await stack.login('ada')
    const account = Account.create({ endpoint: stack.api.endpoint, fetch: recording })
    const wallet = await Vault.create({ account, store }, session, byPassword)
    const stored = await stack.account.wallet(session.token)
    if (!stored) return expect.fail('no wallet stored')
    const device = store.share(session.user.id)
    if (!device) return expect.fail('no share kept')

    const sealed = base64.decode(stored.recoveries[0]?.sealed ?? '')
    const context = { userId: session.user.id, kind: 'recovery' } as const
    await expect(
      Sealing.openShare(
        sealed,
        await Sealing.passwordKey('another password entirely', session.user.id),
        context,
      ),
    ).rejects.toThrow(Sealing.SealedShareError)
    const recovery = await Sealing.openShare(
      sealed,
      await Sealing.passwordKey(password, session.user.id),
      context,
    )
    // The recovery share is a share of this wallet, yet neither it nor the device share nor the password
    // went to the API in clear: the auth share alone is what the API can use.
    const secret = await Shares.combine(recovery, base64.decode(stored.authShare))
    expect((await Keys.accountsOf(secret)).eip155.address).toBe(wallet.addresses.eip155)
    const posted = sent.filter((line) => line.includes('/v1/wallet'))
    expect(posted).toHaveLength(1)
    for (const clear of [base64.encode(device), base64.encode(recovery), password, Keys.mnemonicOf(secret)])
      for (const line of sent) expect(line).not.toContain(clear)
  })

  it('keeps no share when the API refuses the wallet (the account has one already)', async () => {
    const { session } = await created()
    const store = browser()
    await expect(Vault.create({ account: stack.account, store }, session, byPassword)).rejects.toMatchObject({
      name: 'AccountError',
      status: 409,
    })
    expect(store.share(session.user.id)).toBeUndefined()
  })
})
