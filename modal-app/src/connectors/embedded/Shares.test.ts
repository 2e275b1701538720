import { describe, expect, it } from 'vitest'
import * as Keys from './Keys.ts'
import * as Shares from './Shares.ts'

const names = ['device', 'auth', 'recovery'] as const
const pairs = names.flatMap((a) => names.filter((b) => b !== a).map((b) => [a, b] as const))

describe('split / combine', () => {
  it.each(pairs)('gives the secret back from the %s and %s shares', async (a, b) => {
    const secret = Keys.createSecret()
    const shares = await Shares.split(secret)
    expect(await Shares.combine(shares[a], shares[b])).toEqual(secret)
  })

  it('splits an imported 12-word secret too', async () => {
    const secret = Keys.secretOf('test test test test test test test test test test test junk')
    const { device, recovery } = await Shares.split(secret)
    expect(device).toHaveLength(1 + 8 + 17)
    expect(await Shares.combine(recovery, device)).toEqual(secret)
  })

  it('carries the wallet’s fingerprint in every share', async () => {
    const secret = Keys.createSecret()
    const { eip155 } = await Keys.accountsOf(secret)
    const shares = await Shares.split(secret)
    for (const name of names)
      expect(Shares.fingerprintOf(shares[name])).toEqual(Keys.fingerprintOf(eip155.address))
  })

  it('draws new shares on each split, none of which holds the secret', async () => {
    const secret = Keys.createSecret()
    const [first, second] = await Promise.all([Shares.split(secret), Shares.split(secret)])
    for (const name of names) {
      expect(first[name]).not.toEqual(second[name])
      expect(first[name].subarray(9, 41)).not.toEqual(secret)
    }
  })

  it('refuses one share given twice', async () => {
    const { auth } = await Shares.split(Keys.createSecret())
    await expect(Shares.combine(auth, auth)).rejects.toThrow(Shares.ShareMismatchError)
    await expect(Shares.combine(auth, auth.slice())).rejects.toThrow(/not two different shares/)
  })

  it('refuses shares of two wallets', async () => {
    const [one, other] = await Promise.all([
      Shares.split(Keys.createSecret()),
      Shares.split(Keys.createSecret()),
    ])
    await expect(Shares.combine(one.device, other.auth)).rejects.toThrow(
      'These shares belong to different wallets.',
    )
  })

  it('refuses shares of two splits of the same wallet, which interpolate to another secret', async () => {
    const secret = Keys.createSecret()
    const [one, other] = await Promise.all([Shares.split(secret), Shares.split(secret)])
    await expect(Shares.combine(one.device, other.auth)).rejects.toThrow(Shares.ShareMismatchError)
  })

  it('refuses a share with any byte of its Shamir part altered', async () => {
    const secret = Keys.createSecret()
    const { device, auth } = await Shares.split(secret)
    // Byte 9 is the first of the secret's part, 41 the x coordinate.
    for (const at of [9, 20, 40, 41]) {
      const altered = auth.slice()
      altered[at] = (altered[at] ?? 0) ^ 0x01
      await expect(Shares.combine(device, altered), `byte ${at}`).rejects.toThrow(Shares.ShareMismatchError)
    }
  })

  it('refuses an altered fingerprint, an unknown version and bytes of the wrong length', async () => {
    const { device, auth } = await Shares.split(Keys.createSecret())
    const tag = auth.slice()
    tag[3] = (tag[3] ?? 0) ^ 0xff
    await expect(Shares.combine(device, tag)).rejects.toThrow('These shares belong to different wallets.')
    const versioned = auth.slice()
    versioned[0] = 2
    await expect(Shares.combine(device, versioned)).rejects.toThrow('Not a share of this version.')
    await expect(Shares.combine(device, auth.subarray(0, 40))).rejects.toThrow('Not a share of this version.')
    await expect(Shares.combine(device, new Uint8Array(0))).rejects.toThrow('Not a share of this version.')
  })
})
