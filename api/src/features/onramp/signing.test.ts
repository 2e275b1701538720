/**
 * The providers' signatures, each against its public documentation: MoonPay's widget URL signing example
 * (https://dev.moonpay.com/docs/on-ramp-enhance-security-using-signed-urls: `pk_test_key`, `sk_test_key`,
 * `currencyCode=eth`, `walletAddress=0xde0b…7bae`, base64 HMAC-SHA256 of `new URL(url).search`) and its
 * `Moonpay-Signature-V2` webhooks; CDP's JWT (https://docs.cdp.coinbase.com/get-started/authentication/jwt-authentication:
 * ES256 or EdDSA, `kid`, `nonce`, `iss: cdp`, `sub`, two minutes, the route in `uris`); and the Hook0 signature
 * of CDP's webhooks (https://docs.cdp.coinbase.com/webhooks/verify-signatures: `t`, `h`, `v1` over
 * `t.h.headerValues.body`).
 */
import { createHmac, generateKeyPairSync, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signJwt } from './CdpJwt.ts'
import * as Moonpay from './Moonpay.ts'
import * as Signature from './Signature.ts'

describe('MoonPay', () => {
  it('signs the widget URL of its docs’ example as the docs do', () => {
    const originalUrl =
      'https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae'
    // The docs' own procedure, and the value it gives.
    const documented = createHmac('sha256', 'sk_test_key')
      .update(new URL(originalUrl).search)
      .digest('base64')
    expect(documented).toBe('o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA=')
    const url = Moonpay.signedUrl(
      'https://buy-sandbox.moonpay.com',
      new URLSearchParams({
        apiKey: 'pk_test_key',
        currencyCode: 'eth',
        walletAddress: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
      }),
      'sk_test_key',
    )
    expect(url).toBe(`${originalUrl.replace('.com?', '.com/?')}&signature=${encodeURIComponent(documented)}`)
  })

  it('verifies Moonpay-Signature-V2 (t, s = hex HMAC of `t.body`) and refuses a changed body, another key, an old one', () => {
    const body = '{"type":"transaction_updated","data":{"id":"tx"}}'
    const t = 1_700_000_000
    const header = `t=${t},s=${createHmac('sha256', 'wk_test_key').update(`${t}.${body}`).digest('hex')}`
    const at = t * 1000 + 60_000
    expect(Signature.verify(header, body, 'wk_test_key', at)).toBe('ok')
    expect(Signature.verify(header, body.replace('tx', 'ty'), 'wk_test_key', at)).toBe('invalid')
    expect(Signature.verify(header, body, 'wk_other_key', at)).toBe('invalid')
    expect(Signature.verify(header, body, 'wk_test_key', t * 1000 + 5 * 60_000 + 1)).toBe('stale')
    expect(Signature.verify(undefined, body, 'wk_test_key', at)).toBe('invalid')
  })
})

describe('Coinbase (CDP)', () => {
  const url = new URL('https://api.developer.coinbase.com/onramp/v1/token')
  const decode = (part: string | undefined) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString())

  it('signs an ES256 JWT for one route, two minutes, with an EC key in PEM', () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const secret = key.privateKey.export({ type: 'sec1', format: 'pem' }).toString()
    const jwt = signJwt({
      keyId: 'organizations/o/apiKeys/k',
      secret,
      method: 'POST',
      url,
      nowS: 1_700_000_000,
    })
    const [head, body, signature] = jwt.split('.')
    expect(decode(head)).toMatchObject({ alg: 'ES256', kid: 'organizations/o/apiKeys/k', typ: 'JWT' })
    expect(decode(head).nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(decode(body)).toEqual({
      sub: 'organizations/o/apiKeys/k',
      iss: 'cdp',
      nbf: 1_700_000_000,
      exp: 1_700_000_120,
      uris: ['POST api.developer.coinbase.com/onramp/v1/token'],
    })
    const input = Buffer.from(`${head}.${body}`)
    const raw = Buffer.from(signature ?? '', 'base64url')
    expect(raw).toHaveLength(64)
    expect(verify('sha256', input, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true)
  })

  it('signs an EdDSA JWT with an Ed25519 key given as the portal gives it (base64 of seed and public key)', () => {
    const key = generateKeyPairSync('ed25519')
    const seed = key.privateKey.export({ type: 'pkcs8', format: 'der' }).subarray(-32)
    const publicRaw = key.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32)
    const secret = Buffer.concat([seed, publicRaw]).toString('base64')
    const jwt = signJwt({ keyId: 'key-id', secret, method: 'GET', url, nowS: 1 })
    const [head, body, signature] = jwt.split('.')
    expect(decode(head).alg).toBe('EdDSA')
    expect(
      verify(null, Buffer.from(`${head}.${body}`), key.publicKey, Buffer.from(signature ?? '', 'base64url')),
    ).toBe(true)
  })

  it('verifies X-Hook0-Signature over `t.h.values.body` and refuses a changed body or signed header, another secret, an old one', () => {
    const body = '{"eventType":"onramp.transaction.success"}'
    const t = 1_728_394_718
    const names = 'content-type x-hook0-id'
    const v1 = createHmac('sha256', 'whsec')
      .update(`${t}.${names}.application/json.evt_1.${body}`)
      .digest('hex')
    const headers = (id = 'evt_1') =>
      new Headers({
        'content-type': 'application/json',
        'x-hook0-id': id,
        'x-hook0-signature': `t=${t},h=${names},v1=${v1}`,
      })
    const at = t * 1000 + 1000
    expect(Signature.verifyHook0(headers(), body, 'whsec', at)).toBe('ok')
    expect(Signature.verifyHook0(headers(), `${body} `, 'whsec', at)).toBe('invalid')
    expect(Signature.verifyHook0(headers('evt_2'), body, 'whsec', at)).toBe('invalid')
    expect(Signature.verifyHook0(headers(), body, 'other', at)).toBe('invalid')
    expect(Signature.verifyHook0(headers(), body, 'whsec', t * 1000 + 6 * 60_000)).toBe('stale')
  })
})
