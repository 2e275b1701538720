import * as S from '@airlock/bridge-protocol/Shape'
import { base64urlnopad } from '@scure/base'
import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Anvil from '../../../../../devnet/src/Anvil.ts'
import * as IdRegistry from '../../../../../devnet/src/farcaster/IdRegistry.ts'
import type * as Config from '../../../Config.ts'
import * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import { closedPort } from '../../../internal/closedPort.ts'
import { configOf, ether, modalOrigin, shop } from '../../../internal/testApi.ts'
import { databases } from '../../../internal/testing.ts'
import * as Service from '../../../Service.ts'
import * as Projects from '../../projects/Projects.ts'
import * as FarcasterRelay from '../internal/farcasterRelay.ts'

type Answer = { status: number; body: Record<string, unknown> & { message?: string } }
type Phone = FarcasterRelay.Account & { custody: ReturnType<typeof privateKeyToAccount> }

/** The chain of the IdRegistry, the relay and their clock: one for every database engine. */
let anvil: Anvil.Instance
let registry: Address
let relay: FarcasterRelay.Instance
let deadPort: number
let clock = Date.UTC(2026, 10, 22, 12)
let lastFid = 1_000

beforeAll(async () => {
  anvil = await Anvil.start({ port: 0, chainId: 31337 })
  registry = await IdRegistry.deploy(anvil.rpcUrl)
  relay = await FarcasterRelay.start({ port: 0, now: () => clock })
  deadPort = await closedPort()
})
afterAll(async () => {
  await relay?.stop()
  await anvil?.stop()
})

/** A new key that owns a new fid on the registry. */
async function owner(username?: string): Promise<Phone> {
  const custody = privateKeyToAccount(generatePrivateKey())
  const fid = ++lastFid
  await IdRegistry.register({ rpcUrl: anvil.rpcUrl, address: registry }, custody.address, BigInt(fid))
  return { custody, fid, ...(username ? { username } : {}) }
}

describe.each(databases())('Sign In With Farcaster on $engine', ({ open }) => {
  let db: Database
  /** The API; one whose relay is down; one whose registry chain is down; one without Farcaster login. */
  let api: Service.App
  let relayDown: Service.App
  let chainDown: Service.App
  let bare: Service.App
  const drawBinding = () => base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(16)))
  const binding = drawBinding()

  const configWith = (relayUrl: string, rpcUrl: string): Config.Config => ({
    ...configOf([{ id: 'eip155:31337', name: 'Devnet', rpcUrl, nativeCurrency: ether }]),
    // Never used to mail here: Farcaster login needs only its secret.
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 'f'.repeat(32) },
    farcaster: { relayUrl, idRegistry: { chainId: 'eip155:31337', address: registry } },
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', [shop])
    await Projects.add(db, 'other')
    const now = () => clock
    const dead = `http://127.0.0.1:${deadPort}`
    api = Service.create({ db, config: configWith(relay.url, anvil.rpcUrl), now }).api
    relayDown = Service.create({ db, config: configWith(dead, anvil.rpcUrl), now }).api
    chainDown = Service.create({ db, config: configWith(relay.url, dead), now }).api
    bare = Service.create({
      db,
      config: { ...configWith(relay.url, anvil.rpcUrl), farcaster: undefined },
      now,
    }).api
  })
  afterAll(() => db?.close())

  const post = async (
    path: string,
    body: unknown,
    { app = api, projectId = 'demo', token }: { app?: Service.App; projectId?: string; token?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: modalOrigin }
    if (token) headers.Authorization = `Bearer ${token}`
    const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }
    const response = await app.request(`${path}?projectId=${projectId}&st=airlock&sv=0.1.0`, init)
    return { status: response.status, body: (await response.json()) as Answer['body'] }
  }
  const channel = async (options: Parameters<typeof post>[2] = {}, withBinding = binding) => {
    const answer = await post('/v1/auth/farcaster/channel', { binding: withBinding }, options)
    expect(answer.status).toBe(200)
    return answer.body as Contract.FarcasterChannelAnswer
  }
  const status = (channelToken: string, options: Parameters<typeof post>[2] = {}, withBinding = binding) =>
    post('/v1/auth/farcaster/status', { channelToken, binding: withBinding }, options)
  const refused = (status: number, message: string): Answer => ({ status, body: { message } })
  /** The phone completes the channel with `message` (the right one unless told), signed by `signer`. */
  const complete = async (
    opened: Contract.FarcasterChannelAnswer,
    phone: Phone,
    { edit = (message: string) => message, signer = phone.custody, fid = phone.fid } = {},
  ) => {
    const message = edit(
      FarcasterRelay.messageFor(opened.url, { address: phone.custody.address, fid }, clock),
    )
    const signature = await signer.signMessage({ message })
    const response = await FarcasterRelay.authenticate(relay, opened.channelToken, {
      message,
      signature,
      fid,
    })
    expect(response.status).toBe(201)
  }

  it('signs in a custody key that owns its fid: channel, phone, status, then a session /me knows', async () => {
    const phone = await owner('ada')
    const opened = await channel()
    const params = Object.fromEntries(new URL(opened.url).searchParams)
    expect(params).toEqual({
      channelToken: opened.channelToken,
      nonce: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
      siweUri: modalOrigin,
      domain: '127.0.0.1:5174',
      expirationTime: new Date(clock + 5 * 60_000).toISOString(),
    })
    expect(S.parse(Contract.farcasterChannelAnswer, opened).ok).toBe(true)
    expect(await status(opened.channelToken)).toEqual({ status: 202, body: { state: 'pending' } })

    await FarcasterRelay.signIn(relay, opened.url, phone, clock)
    const answer = await status(opened.channelToken)
    expect(answer).toEqual({
      status: 200,
      body: {
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user: { id: expect.any(String), provider: 'farcaster', fid: phone.fid, username: 'ada' },
      },
    })
    expect(S.parse(Contract.farcasterSessionAnswer, answer.body).ok).toBe(true)
    const { token, user } = answer.body as Contract.FarcasterSessionAnswer
    const me = await post('/v1/auth/me', undefined, { token })
    expect(me).toEqual({ status: 200, body: { user } })
    expect(S.parse(Contract.sessionUserAnswer, me.body).ok).toBe(true)
    // The modal's email answer still needs an email: this user has none.
    expect(S.parse(Contract.emailUserAnswer, me.body).ok).toBe(false)
    expect(await post('/v1/auth/email/change', { email: 'ada@example.com' }, { token })).toEqual(
      refused(400, 'This account has no email'),
    )
    expect(await post('/v1/auth/logout', {}, { token })).toEqual({ status: 200, body: { success: true } })
    expect(await post('/v1/auth/me', undefined, { token })).toEqual(refused(401, 'Invalid session'))
  })

  it('finds the same user at the next login, with the name the relay now gives', async () => {
    const phone = await owner('ada')
    const first = await channel()
    await FarcasterRelay.signIn(relay, first.url, phone, clock)
    const { user } = (await status(first.channelToken)).body as Contract.FarcasterSessionAnswer
    const second = await channel()
    await FarcasterRelay.signIn(relay, second.url, { ...phone, username: 'ada-renamed' }, clock)
    const again = (await status(second.channelToken)).body as Contract.FarcasterSessionAnswer
    expect(again.user).toEqual({ ...user, username: 'ada-renamed' })
    expect((await post('/v1/auth/me', undefined, { token: again.token })).body).toEqual({ user: again.user })
  })

  it('refuses a signer whose fid on the IdRegistry is another, or who has none, and spends the sign-in', async () => {
    const phone = await owner()
    const opened = await channel()
    // The phone claims the next fid, which someone else owns; the message says it, the relay says it.
    const other = await owner()
    await complete(opened, phone, { fid: other.fid })
    expect(await status(opened.channelToken)).toEqual(refused(401, 'The signer does not own this fid'))
    expect(await status(opened.channelToken)).toEqual(refused(401, 'Invalid channel'))

    const stranger = { custody: privateKeyToAccount(generatePrivateKey()), fid: ++lastFid }
    const second = await channel()
    await complete(second, stranger)
    expect(await status(second.channelToken)).toEqual(refused(401, 'The signer does not own this fid'))
  })

  it.each([
    [
      'another domain',
      (m: string) => m.replace(/^127\.0\.0\.1:5174 /, 'evil.example '),
      'The signed message is for another domain',
    ],
    [
      'another URI',
      (m: string) => m.replace(`URI: ${modalOrigin}`, 'URI: https://evil.example'),
      'The signed message is for another URI',
    ],
    [
      'another nonce',
      (m: string) => m.replace(/Nonce: \w+/, 'Nonce: aaaaaaaaaaaaaaaa'),
      'The signed message is for another sign-in (its nonce)',
    ],
    [
      'another fid in its resources',
      (m: string) => m.replace(/farcaster:\/\/fid\/\d+/, 'farcaster://fid/1'),
      'The signed message is for another fid',
    ],
    [
      'a second fid in its resources',
      (m: string) => `${m}\n- farcaster://fid/1`,
      'The signed message is for another fid',
    ],
    [
      'an auth address signer',
      (m: string) => m.replace('type/custody', 'type/authAddress'),
      'Only a custody address signature is accepted',
    ],
    [
      'another statement',
      (m: string) => m.replace('Farcaster Auth', 'Sign in'),
      'The signed message is not a Sign In With Farcaster message',
    ],
    [
      'another chain',
      (m: string) => m.replace('Chain ID: 10', 'Chain ID: 1'),
      'The signed message is not a Sign In With Farcaster message',
    ],
    [
      'an expiry passed',
      (m: string) => m.replace(/Expiration Time: .+/, `Expiration Time: ${new Date(clock).toISOString()}`),
      'The signed message has expired',
    ],
    [
      'a start to come',
      (m: string) =>
        m.replace(/(Expiration Time: .+)/, `$1\nNot Before: ${new Date(clock + 60_000).toISOString()}`),
      'The signed message is not valid yet',
    ],
  ])('refuses a message signed by the owner for %s', async (_, edit, message) => {
    const phone = await owner()
    const opened = await channel()
    await complete(opened, phone, { edit })
    expect(await status(opened.channelToken)).toEqual(refused(401, message))
    expect(await status(opened.channelToken)).toEqual(refused(401, 'Invalid channel'))
  })

  it('refuses a signature of another key, and one that is no signature', async () => {
    const phone = await owner()
    const opened = await channel()
    await complete(opened, phone, { signer: privateKeyToAccount(generatePrivateKey()) })
    expect(await status(opened.channelToken)).toEqual(
      refused(401, 'The signature does not match the message'),
    )

    const second = await channel()
    const message = FarcasterRelay.messageFor(
      second.url,
      { address: phone.custody.address, fid: phone.fid },
      clock,
    )
    const signature: Hex = `0x${'00'.repeat(65)}`
    await FarcasterRelay.authenticate(relay, second.channelToken, { message, signature, fid: phone.fid })
    expect(await status(second.channelToken)).toEqual(
      refused(401, 'The signature does not match the message'),
    )
  })

  it('answers a completed sign-in once: its status replayed is refused', async () => {
    const opened = await channel()
    await FarcasterRelay.signIn(relay, opened.url, await owner(), clock)
    expect((await status(opened.channelToken)).status).toBe(200)
    expect(await status(opened.channelToken)).toEqual(refused(401, 'Invalid channel'))
  })

  it("refuses another binding than the channel's and spends the channel, even while pending", async () => {
    const opened = await channel()
    expect(await status(opened.channelToken, {}, drawBinding())).toEqual(refused(401, 'Invalid binding'))
    await FarcasterRelay.signIn(relay, opened.url, await owner(), clock)
    expect(await status(opened.channelToken)).toEqual(refused(401, 'Invalid channel'))
  })

  it('refuses a channel of another project, and a token it never gave', async () => {
    const opened = await channel()
    expect(await status(opened.channelToken, { projectId: 'other' })).toEqual(refused(401, 'Invalid channel'))
    expect(await status(opened.channelToken)).toEqual({ status: 202, body: { state: 'pending' } })
    expect(await status(crypto.randomUUID())).toEqual(refused(401, 'Invalid channel'))
  })

  it('lets a sign-in expire 5 minutes after its channel opened', async () => {
    const opened = await channel()
    await FarcasterRelay.signIn(relay, opened.url, await owner(), clock)
    clock += 5 * 60_000
    expect(await status(opened.channelToken)).toEqual(refused(401, 'The Farcaster sign-in has expired'))
    expect(await status(opened.channelToken)).toEqual(refused(401, 'Invalid channel'))
  })

  it('answers 502 while the relay is down, and spends nothing', async () => {
    expect(await post('/v1/auth/farcaster/channel', { binding }, { app: relayDown })).toEqual(
      refused(502, 'The Farcaster relay is unavailable'),
    )
    const opened = await channel()
    expect(await status(opened.channelToken, { app: relayDown })).toEqual(
      refused(502, 'The Farcaster relay is unavailable'),
    )
    await FarcasterRelay.signIn(relay, opened.url, await owner(), clock)
    expect((await status(opened.channelToken)).status).toBe(200)
  })

  it("answers 502 when the IdRegistry's chain cannot be read", async () => {
    const opened = await channel({ app: chainDown })
    await FarcasterRelay.signIn(relay, opened.url, await owner(), clock)
    expect(await status(opened.channelToken, { app: chainDown })).toEqual(
      refused(502, 'The RPC of eip155:31337 is unavailable'),
    )
  })

  it('refuses malformed bodies, and answers 404 without a farcaster block', async () => {
    expect(await post('/v1/auth/farcaster/channel', { binding: 'short' })).toEqual(
      refused(400, 'Invalid binding'),
    )
    expect(await post('/v1/auth/farcaster/status', { channelToken: 'a b', binding })).toEqual(
      refused(400, 'Invalid channel token'),
    )
    expect(await post('/v1/auth/farcaster/channel', { binding }, { app: bare })).toEqual(
      refused(404, 'Farcaster login is not configured'),
    )
  })

  it('is named in the providers list the modal reads', async () => {
    const response = await api.request('/v1/auth/social?projectId=demo&st=airlock&sv=0.1.0')
    expect(await response.json()).toMatchObject({ farcaster: true })
  })

  it("answers the modal origin only, not the project's pages", async () => {
    const response = await api.request('/v1/auth/farcaster/channel?projectId=demo&st=airlock&sv=0.1.0', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: shop },
      body: JSON.stringify({ binding }),
    })
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })
})
