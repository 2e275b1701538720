import { ed25519 } from '@noble/curves/ed25519'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import * as Siwx from '../Accounts.ts'

const verify = (account: string, message: string, signature: string) =>
  Siwx.verify({ account, message, signature })

describe('Siwx', () => {
  describe('solana', () => {
    const seed = ed25519.utils.randomPrivateKey()
    const account = `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:${base58.encode(ed25519.getPublicKey(seed))}`
    const signature = ed25519.sign(utf8ToBytes('Sign in'), seed)

    it('verifies ed25519 signatures in base58, hex and base64', async () => {
      for (const text of [
        base58.encode(signature),
        bytesToHex(signature),
        `0x${bytesToHex(signature)}`,
        bytesToHex(signature).toUpperCase(),
        base64.encode(signature),
      ])
        expect(await verify(account, 'Sign in', text), text).toBe(true)
    })

    it('refuses another message, another key and garbage', async () => {
      expect(await verify(account, 'Sign out', base58.encode(signature))).toBe(false)
      const stranger = base58.encode(ed25519.getPublicKey(ed25519.utils.randomPrivateKey()))
      expect(
        await verify(
          `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:${stranger}`,
          'Sign in',
          base58.encode(signature),
        ),
      ).toBe(false)
      expect(await verify(account, 'Sign in', 'abc')).toBe(false)
      expect(Siwx.isAddress(account)).toBe(true)
      expect(Siwx.isAddress('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:1111')).toBe(false)
    })
  })
})
