import { Siwx as Message } from '@airlock/bridge-protocol'
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64 } from '@scure/base'
import { address as bitcoinAddress } from 'bitcoinjs-lib'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './Database.ts'
import { closedPort } from './internal/closedPort.ts'
import { databases } from './internal/testing.ts'
import * as Projects from './Projects.ts'
import * as Siwx from './Siwx.ts'

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

    it('knows which Bitcoin addresses it can check', () => {
      expect(segwitAddress(hexToBytes(vectorKey), 'bc')).toBe(p2wpkh)
      expect(Siwx.isAddress(`${mainnet}:${p2wpkh}`)).toBe(true)
      expect(Siwx.isAddress(`${mainnet}:${p2tr}`)).toBe(true)
      expect(Siwx.isAddress(`${mainnet}:${p2pkh}`)).toBe(true)
      expect(Siwx.isAddress(`${testnet}:${p2wpkh}`)).toBe(false)
      expect(Siwx.isAddress(`${regtest}:${segwitAddress(new Uint8Array(32).fill(1), 'bcrt')}`)).toBe(true)
      // A checksum typo.
      expect(Siwx.isAddress(`${mainnet}:${p2wpkh.slice(0, -1)}m`)).toBe(false)
    })
  })

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

  describe('eip155', () => {
    const owner = privateKeyToAccount(generatePrivateKey())

    it('verifies an EOA signature without asking the chain', async () => {
      const rpcUrl = `http://127.0.0.1:${await closedPort()}`
      const account = `eip155:1:${owner.address}`
      const signature = await owner.signMessage({ message: 'Sign in' })
      expect(await Siwx.verify({ account, message: 'Sign in', signature, rpcUrl })).toBe(true)
      expect(
        await Siwx.verify({ account: account.toLowerCase(), message: 'Sign in', signature, rpcUrl }),
      ).toBe(true)
    })

    it('throws RpcError rather than guessing when a contract account needs an unreachable RPC', async () => {
      const rpcUrl = `http://127.0.0.1:${await closedPort()}`
      const account = 'eip155:1:0x0000000000000000000000000000000000000001'
      const signature = await owner.signMessage({ message: 'Sign in' })
      await expect(Siwx.verify({ account, message: 'Sign in', signature, rpcUrl })).rejects.toThrow(
        Siwx.RpcError,
      )
      await expect(Siwx.verify({ account, message: 'Sign in', signature })).rejects.toThrow(Siwx.RpcError)
      expect(await Siwx.verify({ account, message: 'Sign in', signature: 'not hex', rpcUrl })).toBe(false)
    })

    it('formats SIWE messages exactly as viem does, and viem parses ours', () => {
      const fields = {
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        chainId: 31337,
        domain: 'localhost:5173',
        nonce: 'a1B2c3D4e5F6g7H8',
        uri: 'http://localhost:5173/',
        version: '1',
        issuedAt: new Date(Date.UTC(2026, 10, 22)),
        expirationTime: new Date(Date.UTC(2026, 10, 23)),
        requestId: 'r1',
        resources: ['https://shop.example/terms'],
      } as const
      for (const statement of [undefined, 'Sign in to the shop']) {
        const ours = Message.format({
          domain: fields.domain,
          accountAddress: fields.address,
          chainId: 'eip155:31337',
          uri: fields.uri,
          version: '1',
          nonce: fields.nonce,
          issuedAt: fields.issuedAt.toISOString(),
          expirationTime: fields.expirationTime.toISOString(),
          requestId: fields.requestId,
          resources: [...fields.resources],
          statement,
        })
        expect(ours).toBe(createSiweMessage({ ...fields, resources: [...fields.resources], statement }))
        const parsed = parseSiweMessage(ours)
        expect(parsed).toMatchObject({ address: fields.address, nonce: fields.nonce, chainId: 31337 })
        expect(parsed.statement).toBe(statement)
      }
    })
  })

  it('keeps one spelling per account', () => {
    expect(Siwx.normalizeAccount('eip155:1:0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(
      'eip155:1:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    )
    expect(Siwx.normalizeAccount(`${mainnet}:${p2wpkh.toUpperCase()}`)).toBe(`${mainnet}:${p2wpkh}`)
    expect(Siwx.normalizeAccount(`${mainnet}:${p2pkh}`)).toBe(`${mainnet}:${p2pkh}`)
    const solana = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1'
    expect(Siwx.normalizeAccount(solana)).toBe(solana)
  })

  it('draws nonces of 24 letters and digits', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => Siwx.randomNonce()))
    expect(nonces.size).toBe(200)
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9]{24}$/)
  })
})

describe.each(databases())('Siwx storage on $engine', ({ open }) => {
  let db: Database
  const start = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
  })
  afterAll(() => db?.close())

  it('accepts a nonce once, for its project, within 5 minutes', async () => {
    const { nonce, expiresAt } = await Siwx.issueNonce(db, 'demo', start)
    expect(expiresAt).toBe(start + Siwx.nonceTtlMs)
    expect(await Siwx.consumeNonce(db, 'other', nonce, start)).toBe('unknown')
    expect(await Siwx.consumeNonce(db, 'demo', nonce, start + 1000)).toBe('valid')
    expect(await Siwx.consumeNonce(db, 'demo', nonce, start + 2000)).toBe('used')
    expect(await Siwx.consumeNonce(db, 'demo', 'madeUpNonce123', start)).toBe('unknown')
    const late = await Siwx.issueNonce(db, 'demo', start)
    expect(await Siwx.consumeNonce(db, 'demo', late.nonce, start + Siwx.nonceTtlMs)).toBe('expired')
    expect(await Siwx.consumeNonce(db, 'demo', late.nonce, start)).toBe('used')
  })

  it('lets only one of racing sign-ins have a nonce', async () => {
    const { nonce } = await Siwx.issueNonce(db, 'demo', start)
    const states = await Promise.all(
      Array.from({ length: 5 }, () => Siwx.consumeNonce(db, 'demo', nonce, start)),
    )
    expect(states.filter((state) => state === 'valid')).toHaveLength(1)
  })

  it('prunes the nonces of every project an hour after they expired, when it issues one', async () => {
    const stored = async (...nonces: string[]) =>
      (await db.query<{ nonce: string }>('select nonce from siwx_nonces where nonce = any($1)', [nonces]))
        .map((row) => row.nonce)
        .sort()
    const mine = await Siwx.issueNonce(db, 'demo', start)
    const theirs = await Siwx.issueNonce(db, 'other', start + 60_000)
    const expiredFor = (nonce: Siwx.Nonce, ms: number) => nonce.expiresAt + ms
    // Expired exactly an hour ago: still kept, so a late replay is told "already used".
    await Siwx.issueNonce(db, 'demo', expiredFor(mine, Siwx.nonceRetentionMs))
    expect(await stored(mine.nonce, theirs.nonce)).toEqual([mine.nonce, theirs.nonce].sort())
    await Siwx.issueNonce(db, 'demo', expiredFor(mine, Siwx.nonceRetentionMs + 1))
    expect(await stored(mine.nonce, theirs.nonce)).toEqual([theirs.nonce])
    expect(await Siwx.consumeNonce(db, 'demo', mine.nonce, start)).toBe('unknown')
    // Issuing for one project prunes another's too.
    await Siwx.issueNonce(db, 'demo', expiredFor(theirs, Siwx.nonceRetentionMs + 1))
    expect(await stored(theirs.nonce)).toEqual([])
  })

  describe('sessions', () => {
    const address = 'eip155:1:0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const base = { projectId: 'demo', address, message: 'm', signature: '0x00', issuedAt: start, now: start }

    it('lists active sessions only, and lets an operator revoke one', async () => {
      const { session: lasting } = await Siwx.createSession(db, base)
      const { session: brief } = await Siwx.createSession(db, { ...base, expiresAt: start + 60_000 })
      await Siwx.createSession(db, { ...base, projectId: 'other' })
      expect(lasting).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        projectId: 'demo',
        address: 'eip155:1:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        chainId: 'eip155:1',
        message: 'm',
        signature: '0x00',
        issuedAt: start,
        expiresAt: start + Siwx.maxSessionMs,
        revokedAt: null,
      })
      const ids = async (now: number) =>
        (await Siwx.activeSessions(db, 'demo', address, now)).map((s) => s.id)
      expect((await ids(start)).sort()).toEqual([lasting.id, brief.id].sort())
      expect(await ids(start + 60_000)).toEqual([lasting.id])
      expect(await Siwx.revoke(db, lasting.id, start + 1)).toBe(true)
      expect(await ids(start)).toEqual([brief.id])
      expect(await Siwx.revoke(db, lasting.id, start + 2)).toBe(true)
      expect((await Siwx.findSession(db, 'demo', lasting.id))?.revokedAt).toBe(start + 1)
      expect(await Siwx.findSession(db, 'other', lasting.id)).toBeUndefined()
      expect(await Siwx.revoke(db, crypto.randomUUID())).toBe(false)
      expect(await Siwx.revoke(db, 'not-a-uuid')).toBe(false)
    })

    it('caps a session at 30 days, with or without an expiration time', async () => {
      const cap = start + 30 * 86_400_000
      expect(Siwx.maxSessionMs).toBe(30 * 86_400_000)
      const endless = await Siwx.createSession(db, base)
      const distant = await Siwx.createSession(db, { ...base, expiresAt: start + 365 * 86_400_000 })
      const sooner = await Siwx.createSession(db, { ...base, expiresAt: cap - 1 })
      expect([endless, distant, sooner].map(({ session }) => session.expiresAt)).toEqual([cap, cap, cap - 1])
      const active = await Siwx.activeSessions(db, 'demo', address, cap - 1)
      expect(active.map((session) => session.id).sort()).toEqual(
        [endless.session.id, distant.session.id].sort(),
      )
      expect((await Siwx.activeSessions(db, 'demo', address, cap)).map((session) => session.id)).toEqual([])
    })

    it('draws a token per session, stores only its SHA-256, and finds the active session by it', async () => {
      const { session, token } = await Siwx.createSession(db, { ...base, expiresAt: start + 60_000 })
      const other = await Siwx.createSession(db, base)
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(other.token).not.toBe(token)
      const [row] = await db.query<{ token_hash: string }>(
        'select token_hash from siwx_sessions where id = $1',
        [session.id],
      )
      expect(row?.token_hash).toBe(bytesToHex(sha256(utf8ToBytes(token))))
      const leaks = await db.query('select 1 from siwx_sessions where token_hash = $1 or message = $1', [
        token,
      ])
      expect(leaks).toEqual([])
      expect(await Siwx.sessionByToken(db, 'demo', token, start)).toEqual(session)
      expect(await Siwx.sessionByToken(db, 'other', token, start)).toBeUndefined()
      expect(
        await Siwx.sessionByToken(db, 'demo', bytesToHex(sha256(utf8ToBytes(token))), start),
      ).toBeUndefined()
      expect(
        await Siwx.sessionByToken(
          db,
          'demo',
          `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
          start,
        ),
      ).toBeUndefined()
      expect(await Siwx.sessionByToken(db, 'demo', token, start + 60_000)).toBeUndefined()
      expect((await Siwx.sessionByToken(db, 'demo', other.token, start))?.id).toBe(other.session.id)
      await Siwx.revoke(db, other.session.id, start + 1)
      expect(await Siwx.sessionByToken(db, 'demo', other.token, start + 2)).toBeUndefined()
    })
  })
})
