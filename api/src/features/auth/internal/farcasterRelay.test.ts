import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as FarcasterRelay from './farcasterRelay.ts'

let relay: FarcasterRelay.Instance
let clock = Date.UTC(2026, 10, 22, 12)
const custody = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  relay = await FarcasterRelay.start({ port: 0, now: () => clock })
})
afterAll(() => relay?.stop())

const open = async (body: Record<string, unknown> = {}) => {
  const response = await fetch(`${relay.url}/v1/channel`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ siweUri: 'http://127.0.0.1:5174', domain: '127.0.0.1:5174', ...body }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}
const status = async (token: string) => {
  const response = await fetch(`${relay.url}/v1/channel/status`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('the development Farcaster relay', () => {
  it('opens a channel whose URL carries what the app needs, pending until the app answers', async () => {
    const opened = await open({ nonce: 'abcdefgh12345678', expirationTime: '2026-11-22T12:05:00.000Z' })
    expect(opened).toEqual({
      status: 201,
      body: {
        channelToken: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: expect.any(String),
        nonce: 'abcdefgh12345678',
      },
    })
    const url = new URL(opened.body.url ?? '')
    expect(`${url.protocol}//${url.host}`).toBe('farcaster://connect')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      channelToken: opened.body.channelToken,
      nonce: 'abcdefgh12345678',
      siweUri: 'http://127.0.0.1:5174',
      domain: '127.0.0.1:5174',
      expirationTime: '2026-11-22T12:05:00.000Z',
    })
    expect(await status(opened.body.channelToken ?? '')).toEqual({
      status: 202,
      body: { state: 'pending', nonce: 'abcdefgh12345678', url: opened.body.url },
    })
  })

  it('draws a nonce when the app gives none, and refuses a channel without its URI or domain', async () => {
    expect((await open()).body.nonce).toMatch(/^[0-9a-f]{24}$/)
    const refused = await open({ siweUri: undefined })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatch(/^Validation failed: siweUri/)
    expect((await open({ nonce: 'short' })).status).toBe(400)
  })

  it("completes a channel with the phone's signed message, once, for the app's key only", async () => {
    const { channelToken = '', url = '' } = (await open({ nonce: 'nonceOfTheApp1' })).body
    const message = FarcasterRelay.messageFor(url, { address: custody.address, fid: 4242 }, clock)
    const signature = await custody.signMessage({ message })
    const completion = { message, signature, fid: 4242, username: 'ada' }
    const wrongKey = await FarcasterRelay.authenticate(
      { ...relay, authKey: 'not the key' },
      channelToken,
      completion,
    )
    expect(wrongKey.status).toBe(401)
    expect((await status(channelToken)).status).toBe(202)
    expect((await FarcasterRelay.authenticate(relay, channelToken, completion)).status).toBe(201)
    expect(await status(channelToken)).toEqual({
      status: 200,
      body: {
        state: 'completed',
        nonce: 'nonceOfTheApp1',
        url,
        message,
        signature,
        fid: 4242,
        username: 'ada',
        verifications: [],
      },
    })
    const again = await FarcasterRelay.authenticate(relay, channelToken, { ...completion, fid: 1 })
    expect(again.status).toBe(409)
    expect((await status(channelToken)).body.fid).toBe(4242)
  })

  it('has the phone write a Sign In With Farcaster message for the channel', async () => {
    const { url = '' } = (await open({ nonce: 'nonceOfTheApp2', expirationTime: '2026-11-22T12:05:00.000Z' }))
      .body
    const message = FarcasterRelay.messageFor(url, { address: custody.address, fid: 7 }, clock)
    expect(parseSiweMessage(message)).toEqual({
      domain: '127.0.0.1:5174',
      address: custody.address,
      statement: 'Farcaster Auth',
      uri: 'http://127.0.0.1:5174',
      version: '1',
      chainId: 10,
      nonce: 'nonceOfTheApp2',
      issuedAt: new Date(clock),
      expirationTime: new Date('2026-11-22T12:05:00.000Z'),
      resources: ['farcaster://fid/7', 'farcaster://signer/type/custody'],
    })
  })

  it('forgets a channel 5 minutes on, and knows no token it did not give', async () => {
    const { channelToken = '' } = (await open()).body
    clock += FarcasterRelay.channelTtlMs - 1
    expect((await status(channelToken)).status).toBe(202)
    clock += 1
    expect(await status(channelToken)).toEqual({ status: 401, body: { error: 'Unauthorized' } })
    expect((await status('00000000-0000-0000-0000-000000000000')).status).toBe(401)
  })
})
