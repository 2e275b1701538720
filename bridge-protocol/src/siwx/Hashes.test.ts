import { sha256 as nobleSha256 } from '@noble/hashes/sha2'
import { keccak_256 } from '@noble/hashes/sha3'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import { describe, expect, it } from 'vitest'
import { keccak256, sha256 } from './Hashes.ts'

describe('the address checks’ hashes', () => {
  it('give the published digests of the empty text and "abc"', () => {
    expect(bytesToHex(keccak256(new Uint8Array()))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    )
    expect(bytesToHex(sha256(utf8ToBytes('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  // Every length across three blocks of each (136 bytes for keccak-256, 64 for SHA-256), padding edges
  // included, against an audited implementation.
  it('agree with @noble/hashes on every length up to three blocks', () => {
    for (let length = 0; length <= 3 * 136 + 1; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 167 + length * 13) & 0xff)
      expect(bytesToHex(keccak256(bytes)), `keccak ${length}`).toBe(bytesToHex(keccak_256(bytes)))
      expect(bytesToHex(sha256(bytes)), `sha256 ${length}`).toBe(bytesToHex(nobleSha256(bytes)))
    }
  })
})
