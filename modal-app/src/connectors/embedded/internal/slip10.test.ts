import { ed25519 } from '@noble/curves/ed25519'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils'
import { describe, expect, it } from 'vitest'
import { derive, parsePath } from './slip10.ts'

// https://github.com/satoshilabs/slips/blob/master/slip-0010.md, "Test vector 1 for ed25519" (public keys
// are written with a leading 00 there).
const vector1 = {
  seed: '000102030405060708090a0b0c0d0e0f',
  chains: [
    {
      path: 'm',
      chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      key: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
      publicKey: 'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    },
    {
      path: "m/0'",
      chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      key: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
      publicKey: '8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    },
    {
      path: "m/0'/1'",
      chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      key: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
      publicKey: '1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
    },
    {
      path: "m/0'/1'/2'",
      chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      key: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
      publicKey: 'ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
    },
    {
      path: "m/0'/1'/2'/2'",
      chainCode: '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
      key: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
      publicKey: '8abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
    },
    {
      path: "m/0'/1'/2'/2'/1000000000'",
      chainCode: '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
      key: '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
      publicKey: '3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
    },
  ],
}

// Same document, "Test vector 2 for ed25519": a 64-byte seed and the largest hardened index.
const vector2 = {
  seed: 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
  path: "m/0'/2147483647'/1'/2147483646'/2'",
  chainCode: '5d70af781f3a37b829f0d060924d5e960bdc02e85423494afc0b1a41bbe196d4',
  key: '551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d',
}

describe('SLIP-10 ed25519', () => {
  it.each(vector1.chains)('derives $path of test vector 1', ({ path, chainCode, key, publicKey }) => {
    const node = derive(hexToBytes(vector1.seed), parsePath(path))
    expect(bytesToHex(node.key)).toBe(key)
    expect(bytesToHex(node.chainCode)).toBe(chainCode)
    expect(bytesToHex(ed25519.getPublicKey(node.key))).toBe(publicKey)
  })

  it('derives the deepest chain of test vector 2', () => {
    const node = derive(hexToBytes(vector2.seed), parsePath(vector2.path))
    expect(bytesToHex(node.key)).toBe(vector2.key)
    expect(bytesToHex(node.chainCode)).toBe(vector2.chainCode)
  })

  it('reads hardened steps written with an apostrophe, h or H', () => {
    expect(parsePath("m/44'/501h/0H")).toEqual([0x8000002c, 0x800001f5, 0x80000000])
    expect(parsePath('m')).toEqual([])
  })

  it('refuses non-hardened steps, indexes past 2³¹ and paths not from m', () => {
    for (const path of ["m/44'/0", "m/2147483648'", "44'/501'", "m/44'/", "m/-1'", "m/1.5'"])
      expect(() => parsePath(path), path).toThrow()
  })
})
