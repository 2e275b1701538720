import { secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base64 } from '@scure/base'
import { address as bitcoinAddress } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import * as Siwx from '../Accounts.ts'

const mainnet = 'bip122:000000000019d6689c085ae165831e93'
const testnet = 'bip122:000000000933ea01ad0ee984209779ba'
const regtest = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'

// BIP-322's test vectors (bitcoin/bips, bip-0322.mediawiki): key L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k.
const vectorKey = 'bb051cd0dda0246f33c5a9e133ebd8e7bc02a92af6c41adc131ccd7826c5b004'
const p2wpkh = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const bip322Vectors = [
  [
    '',
    'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  ],
  [
    '',
    'AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  ],
  [
    'Hello World',
    'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  ],
  [
    'Hello World',
    'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  ],
] as const
// Bitcoin Core's P2TR vector (src/test/util_tests.cpp) for the same key's key-path address.
const p2tr = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3'
const p2trSignature =
  'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ=='
// The P2SH-P2WPKH vector of bip322-js and rust-bitcoin's bip322 (key KwTbAxmBXjoZM3bzbXixEr9nxLhyYSM4vp2swet58i19bw9sqk5z).
const nested = '3HSVzEhCFuH9Z3wvoWTexy7BMVVp3PjS6f'
const nestedSignature =
  'AkgwRQIhAMd2wZSY3x0V9Kr/NClochoTXcgDaGl3OObOR17yx3QQAiBVWxqNSS+CKen7bmJTG6YfJjsggQ4Fa2RHKgBKrdQQ+gEhAxa5UDdQCHSQHfKQv14ybcYm1C9y6b12xAuukWzSnS+w'
// The legacy (BIP-137) "Hello World" vector of bip322-js, for the same key's P2PKH address.
const p2pkh = '14vV3aCHBeStb5bkenkNHbe2YAFinYdXgc'
const legacySignature =
  'IOW2xi+ebJLeBtr674l4QH76dqDoVjLV80R9EFKFQX5rBrlCXPIZaYs8Yuayg0ZqjyiCbLy9pzZIS7JWT65/nsU='

const verify = (account: string, message: string, signature: string) =>
  Siwx.verify({ account, message, signature })

/** Signs as e2e/wallets/keys.ts `signBitcoinMessage` does: BIP-137, header 39 + recovery (P2WPKH). */
function signBip137(message: string, privateKey: Uint8Array, header = 39): Uint8Array {
  const bytes = utf8ToBytes(message)
  const magic = utf8ToBytes('\x18Bitcoin Signed Message:\n')
  const hash = sha256(sha256(concatBytes(magic, Uint8Array.of(bytes.length), bytes)))
  const signature = secp256k1.sign(hash, privateKey, { lowS: true })
  return concatBytes(Uint8Array.of(header + signature.recovery), signature.toCompactRawBytes())
}

function segwitAddress(privateKey: Uint8Array, prefix: string): string {
  return bitcoinAddress.toBech32(ripemd160(sha256(secp256k1.getPublicKey(privateKey, true))), 0, prefix)
}

describe('Siwx', () => {
  describe('bip122', () => {
    it.each(bip322Vectors)('verifies the BIP-322 P2WPKH vector for %j', async (message, signature) => {
      expect(await verify(`${mainnet}:${p2wpkh}`, message, signature)).toBe(true)
      expect(await verify(`${mainnet}:${p2wpkh}`, `${message}!`, signature)).toBe(false)
      // Bech32 is caseless; an upper-case address is the same one.
      expect(await verify(`${mainnet}:${p2wpkh.toUpperCase()}`, message, signature)).toBe(true)
    })

    it('verifies the BIP-322 P2TR and P2SH-P2WPKH vectors', async () => {
      expect(await verify(`${mainnet}:${p2tr}`, 'Hello World', p2trSignature)).toBe(true)
      expect(await verify(`${mainnet}:${p2tr}`, 'Hello World -- This should fail', p2trSignature)).toBe(false)
      expect(await verify(`${mainnet}:${nested}`, 'Hello World', nestedSignature)).toBe(true)
      expect(await verify(`${mainnet}:${nested}`, 'Hello World - this should fail', nestedSignature)).toBe(
        false,
      )
    })

    it('refuses a vector for another address or network', async () => {
      const [message, signature] = bip322Vectors[2]
      expect(await verify(`${mainnet}:${p2tr}`, message, signature)).toBe(false)
      expect(await verify(`${mainnet}:${nested}`, message, signature)).toBe(false)
      expect(await verify(`${testnet}:${p2wpkh}`, message, signature)).toBe(false)
      expect(await verify(`bip122:00000000000000000000000000000000:${p2wpkh}`, message, signature)).toBe(
        false,
      )
    })

    it('verifies the legacy BIP-137 vector for the P2PKH address and the same key as P2WPKH', async () => {
      expect(await verify(`${mainnet}:${p2pkh}`, 'Hello World', legacySignature)).toBe(true)
      expect(await verify(`${mainnet}:${p2wpkh}`, 'Hello World', legacySignature)).toBe(true)
      expect(await verify(`${mainnet}:${p2pkh}`, 'Hello World!', legacySignature)).toBe(false)
      // A BIP-137 signature says nothing of a taproot output key.
      expect(await verify(`${mainnet}:${p2tr}`, 'Hello World', legacySignature)).toBe(false)
    })

    it('verifies BIP-137 signatures as the e2e wallet makes them, on regtest and testnet, base64 or hex', async () => {
      const key = secp256k1.utils.randomPrivateKey()
      for (const [chain, prefix] of [
        [regtest, 'bcrt'],
        [testnet, 'tb'],
      ] as const) {
        const account = `${chain}:${segwitAddress(key, prefix)}`
        const signature = signBip137('Sign in', key)
        expect(await verify(account, 'Sign in', base64.encode(signature))).toBe(true)
        expect(await verify(account, 'Sign in', bytesToHex(signature))).toBe(true)
        expect(await verify(account, 'Sign out', base64.encode(signature))).toBe(false)
        // The header's address type is not what makes it valid: the recovered key is.
        expect(await verify(account, 'Sign in', base64.encode(signBip137('Sign in', key, 31)))).toBe(true)
      }
      const other = segwitAddress(secp256k1.utils.randomPrivateKey(), 'bcrt')
      expect(await verify(`${regtest}:${other}`, 'Sign in', base64.encode(signBip137('Sign in', key)))).toBe(
        false,
      )
      expect(
        await verify(
          `${mainnet}:${segwitAddress(key, 'bcrt')}`,
          'Sign in',
          base64.encode(signBip137('Sign in', key)),
        ),
      ).toBe(false)
    })

    it('refuses garbage', async () => {
      for (const signature of ['', 'not base64!', 'AAAA', base64.encode(new Uint8Array(65)), 'AkcwRAIgM2gB'])
        expect(await verify(`${mainnet}:${p2wpkh}`, '', signature), signature).toBe(false)
    })

    it('takes the vectors’ key for the key of their P2WPKH and P2PKH addresses, and of no other', async () => {
      // Through the verifier, not a helper of this file: a signature by the key counts for its addresses.
      const signature = base64.encode(signBip137('Sign in', hexToBytes(vectorKey)))
      expect(await verify(`${mainnet}:${p2wpkh}`, 'Sign in', signature)).toBe(true)
      expect(await verify(`${mainnet}:${p2pkh}`, 'Sign in', signature)).toBe(true)
      expect(await verify(`${mainnet}:${nested}`, 'Sign in', signature)).toBe(false)
    })

    it('knows which Bitcoin addresses it can check', () => {
      expect(Siwx.isAddress(`${mainnet}:${p2wpkh}`)).toBe(true)
      expect(Siwx.isAddress(`${mainnet}:${p2tr}`)).toBe(true)
      expect(Siwx.isAddress(`${mainnet}:${p2pkh}`)).toBe(true)
      expect(Siwx.isAddress(`${testnet}:${p2wpkh}`)).toBe(false)
      expect(Siwx.isAddress(`${regtest}:${segwitAddress(new Uint8Array(32).fill(1), 'bcrt')}`)).toBe(true)
      // A checksum typo.
      expect(Siwx.isAddress(`${mainnet}:${p2wpkh.slice(0, -1)}m`)).toBe(false)
    })
  })
})
