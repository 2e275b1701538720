import { bytesToHex } from '@noble/hashes/utils'
import { Keypair } from '@solana/web3.js'
import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import * as base58 from '../../shared/encoding/base58.ts'
import * as Keys from './Keys.ts'

const anvil = 'test test test test test test test test test test test junk'
// trustwallet/wallet-core tests/common/Keystore/StoredKeyTests.cpp (CreateWithMnemonicAlternativeDerivation):
// this mnemonic's key at m/44'/501'/0'/0', the path Phantom and Solflare use.
const trust = {
  mnemonic: 'team engine square letter hero song dizzy scrub tornado fabric divert saddle',
  address: 'CgWJeEWkiYqosy1ba7a3wn9HAQuHyK48xs3LM4SSDc1C',
  privateKey: 'd49a5fa7f77593534c7afd2ba8dc8e9d8b007bc6ec65fe8df25ffe6fafc57151',
  publicKey: 'ad8f57924dce62f9040f93b4f6ce3c3d39afde7e29bcb4013dad59db7913c4c7',
}

describe('createSecret', () => {
  it('draws 32 fresh random bytes each time', () => {
    const a = Keys.createSecret()
    const b = Keys.createSecret()
    expect(a).toHaveLength(32)
    expect(bytesToHex(a)).not.toBe(bytesToHex(b))
  })
})

describe('mnemonicOf / secretOf', () => {
  it('writes a new secret as 24 words and reads them back', () => {
    const secret = Keys.createSecret()
    const mnemonic = Keys.mnemonicOf(secret)
    expect(mnemonic.split(' ')).toHaveLength(24)
    expect(Keys.secretOf(mnemonic)).toEqual(secret)
  })

  it('follows the BIP-39 vectors', () => {
    expect(Keys.mnemonicOf(new Uint8Array(16))).toBe(`${'abandon '.repeat(11)}about`)
    expect(Keys.mnemonicOf(new Uint8Array(32))).toBe(`${'abandon '.repeat(23)}art`)
    expect(Keys.mnemonicOf(new Uint8Array(16).fill(0x7f))).toBe(
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    )
  })

  it('forgives case and extra spaces', () => {
    expect(Keys.secretOf(`  Test test  TEST test test test test test test test test\njunk `)).toEqual(
      Keys.secretOf(anvil),
    )
  })

  it('refuses a failed checksum, an unknown word and a wrong count, naming no word', () => {
    expect(() => Keys.secretOf('abandon '.repeat(12))).toThrow(/does not check out/)
    expect(() => Keys.secretOf(anvil.replace('junk', 'junky'))).toThrow(
      'Word 12 is not in the BIP-39 English word list.',
    )
    expect(() => Keys.secretOf('test test test')).toThrow(/this one has 3/)
    expect(() => Keys.secretOf(anvil.replace('junk', 'junky'))).toThrow(Keys.InvalidMnemonicError)
  })

  it('refuses a secret that is no BIP-39 entropy length', () => {
    for (const length of [0, 15, 17, 33, 64])
      expect(() => Keys.mnemonicOf(new Uint8Array(length))).toThrow(RangeError)
  })
})

describe('accountsOf', () => {
  it("gives anvil's account 0 for anvil's mnemonic", async () => {
    const { eip155 } = await Keys.accountsOf(Keys.secretOf(anvil))
    expect(eip155.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(eip155.privateKey).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  })

  it("gives the Solana key other wallets derive at m/44'/501'/0'/0'", async () => {
    const { solana } = await Keys.accountsOf(Keys.secretOf(trust.mnemonic))
    expect(solana.address).toBe(trust.address)
    expect(bytesToHex(solana.secretKey)).toBe(trust.privateKey + trust.publicKey)
  })

  it('holds the Solana keypair as @solana/web3.js reads it', async () => {
    const { solana } = await Keys.accountsOf(Keys.createSecret())
    expect(solana.secretKey).toHaveLength(64)
    expect(Keypair.fromSecretKey(solana.secretKey).publicKey.toBase58()).toBe(solana.address)
    expect(base58.decode(solana.address)).toEqual(solana.secretKey.slice(32))
  })

  it('gives an EIP-55 address that matches its key', async () => {
    const { eip155 } = await Keys.accountsOf(Keys.createSecret())
    expect(eip155.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(eip155.address).not.toBe(eip155.address.toLowerCase())
    expect(privateKeyToAddress(eip155.privateKey)).toBe(eip155.address)
  })

  it('gives distinct secrets distinct addresses', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => Keys.accountsOf(Keys.createSecret())))
    expect(new Set(accounts.map((a) => a.eip155.address)).size).toBe(8)
    expect(new Set(accounts.map((a) => a.solana.address)).size).toBe(8)
  })

  it('is the same for the same secret', async () => {
    const secret = Keys.createSecret()
    const [a, b] = await Promise.all([Keys.accountsOf(secret), Keys.accountsOf(secret)])
    expect(a).toEqual(b)
  })
})

describe('fingerprint', () => {
  it('is the first 8 bytes of SHA-256 over the EVM address', async () => {
    const secret = Keys.secretOf(anvil)
    const tag = await Keys.fingerprint(secret)
    expect(tag).toEqual(Keys.fingerprintOf('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'))
    // Computed apart: printf f39f…2266 | xxd -r -p | openssl dgst -sha256
    expect(bytesToHex(tag)).toBe('96e6760225b23fdf')
  })
})
