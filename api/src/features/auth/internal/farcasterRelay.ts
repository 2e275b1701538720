/**
 * The development Farcaster relay: a stand-in for `relay.farcaster.xyz` speaking its protocol (AuthKit's
 * relay, v1), in memory, on loopback. An app opens a channel (`POST /v1/channel` → 201 `{ channelToken,
 * url, nonce }`) and asks its status (`GET /v1/channel/status`, the token as a bearer → 202 `pending`, then
 * 200 `completed` with the signed message and the profile); the visitor's Farcaster app completes it
 * (`POST /v1/channel/authenticate`, the token as a bearer and, as at the real relay, the app's relay key
 * in `X-Farcaster-Auth-Relay-Key`). Channels live 5 minutes. Like the real relay it checks no signature:
 * the app that asked does.
 *
 * {@link signIn} is the visitor's phone: it builds the Sign In With Farcaster message a Farcaster app builds
 * for a channel's URL, signs it with the custody key and completes the channel. It lives with the API
 * (exported through `@airlock/api/oidc-dev`) so the API's tests and the dev stack run the same relay.
 */
import type { AddressInfo } from 'node:net'
import * as S from '@airlock/bridge-protocol/Shape'
import { serve } from '@hono/node-server'
import { type Context, Hono } from 'hono'
import type { Address, LocalAccount } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import * as Hmac from '../Hmac.ts'

export const defaultPort = 8796

/** How long a channel lives, completed or not: the real relay's. */
export const channelTtlMs = 5 * 60_000

/** The most channels kept at once: a loop opening channels fills memory no further. */
const maxChannels = 10_000

export type StartOptions = {
  /** 0 picks a free one. @default 8796 */
  port?: number
  /** Interface it binds; its URL is on 127.0.0.1 either way. @default '127.0.0.1' */
  host?: string
  /** The key a Farcaster app completes channels with. @default a random one */
  authKey?: string
  /** The clock of channel expiry (tests move it). @default Date.now */
  now?: () => number
}

export type Instance = {
  /** `http://127.0.0.1:<port>`, what the API's `farcaster.relayUrl` names. */
  url: string
  /** The key {@link signIn} completes channels with. */
  authKey: string
  stop(): Promise<void>
}

const isoTime = S.string(40, 20, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)
const channelBody = S.object({
  siweUri: S.string(2048, 1, /^https?:\/\/\S+$/),
  domain: S.string(260, 1, /^[A-Za-z0-9.[\]:-]+$/),
  nonce: S.optional(S.string(128, 8, /^[A-Za-z0-9]+$/)),
  notBefore: S.optional(isoTime),
  expirationTime: S.optional(isoTime),
  requestId: S.optional(S.string(256, 1)),
})
type Request = S.Infer<typeof channelBody> & { nonce: string }

const text = (max: number) => S.optional(S.string(max, 1))
const authenticateBody = S.object({
  message: S.string(8192, 1),
  signature: S.string(2050, 4, /^0x(?:[0-9a-fA-F]{2})+$/),
  fid: S.check(S.number(1, Number.MAX_SAFE_INTEGER), Number.isInteger, 'fid: expected a whole number'),
  username: text(256),
  displayName: text(256),
  bio: text(1024),
  pfpUrl: text(2048),
  custody: S.optional(S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)),
  verifications: S.optional(S.array(S.string(128, 1), 50)),
})
type Completion = S.Infer<typeof authenticateBody>

type Channel = { request: Request; url: string; expiresAt: number; completion?: Completion }

/**
 * @example
 * const relay = await FarcasterRelay.start({ port: 0 })
 * const config = { ...apiConfig, farcaster: { relayUrl: relay.url, idRegistry } }
 * await relay.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const now = options.now ?? Date.now
  const authKey = options.authKey ?? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('hex')
  const channels = new Map<string, Channel>()
  const app = new Hono()

  const fail = (c: Context, status: 400 | 401 | 409, error: string) => c.json({ error }, status)
  const channelOf = (c: Context) => {
    const token = /^Bearer +(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? ''
    const channel = channels.get(token)
    if (channel && channel.expiresAt <= now()) channels.delete(token)
    return channel && channel.expiresAt > now() ? channel : undefined
  }
  const body = async <T>(c: Context, shape: S.Shape<T>) => {
    const parsed = S.parse(shape, await c.req.json().catch(() => undefined))
    return parsed.ok ? parsed : { ok: false as const, message: `Validation failed: ${parsed.message}` }
  }
  const statusOf = ({ request, url, completion }: Channel) =>
    completion
      ? { state: 'completed' as const, nonce: request.nonce, url, ...completion }
      : { state: 'pending' as const, nonce: request.nonce, url }

  app.post('/v1/channel', async (c) => {
    const parsed = await body(c, channelBody)
    if (!parsed.ok) return fail(c, 400, parsed.message)
    for (const [token, channel] of channels) if (channel.expiresAt <= now()) channels.delete(token)
    if (channels.size >= maxChannels) return c.json({ error: 'Too many channels' }, 429)
    const channelToken = crypto.randomUUID()
    const request = { ...parsed.value, nonce: parsed.value.nonce ?? randomNonce() }
    const url = `farcaster://connect?${new URLSearchParams({ channelToken, ...request })}`
    channels.set(channelToken, { request, url, expiresAt: now() + channelTtlMs })
    return c.json({ channelToken, url, nonce: request.nonce }, 201)
  })

  app.get('/v1/channel/status', (c) => {
    const channel = channelOf(c)
    if (!channel) return fail(c, 401, 'Unauthorized')
    const status = statusOf(channel)
    return c.json(status, status.state === 'completed' ? 200 : 202)
  })

  app.post('/v1/channel/authenticate', async (c) => {
    const channel = channelOf(c)
    const key = c.req.header('X-Farcaster-Auth-Relay-Key') ?? ''
    if (!channel || !Hmac.equal(hex(key), hex(authKey))) return fail(c, 401, 'Unauthorized')
    if (channel.completion) return fail(c, 409, 'The channel is already completed')
    const parsed = await body(c, authenticateBody)
    if (!parsed.ok) return fail(c, 400, parsed.message)
    channel.completion = { verifications: [], ...parsed.value }
    return c.json(statusOf(channel), 201)
  })

  const port = options.port ?? defaultPort
  const host = options.host ?? '127.0.0.1'
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started))
    started.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new Error(`Farcaster relay port ${port} is already in use`) : error,
      ),
    )
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    // Reached on loopback whichever interface it binds (all of them inside a container), as the sign-in
    // provider's issuer is: the API's configuration takes no other http URL.
    url: `http://127.0.0.1:${bound}`,
    authKey,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

/** A Farcaster account as its app holds it: the custody key, the fid it owns, and the name it shows. */
export type Account = {
  custody: Pick<LocalAccount, 'address' | 'signMessage'>
  fid: number
  username?: string
}

/**
 * The Sign In With Farcaster message a Farcaster app builds for a channel's URL (FIP-11): EIP-4361 with
 * statement `Farcaster Auth`, chain 10, and resources naming the fid and the custody signer.
 * @example const message = FarcasterRelay.messageFor(channel.url, { address, fid: 4242 })
 */
export function messageFor(url: string, signer: { address: Address; fid: number }, now = Date.now()): string {
  const params = new URL(url).searchParams
  const time = (name: string) => (params.get(name) ? new Date(params.get(name) ?? '') : undefined)
  return createSiweMessage({
    domain: params.get('domain') ?? '',
    address: signer.address,
    statement: 'Farcaster Auth',
    uri: params.get('siweUri') ?? '',
    version: '1',
    chainId: 10,
    nonce: params.get('nonce') ?? '',
    issuedAt: new Date(now),
    expirationTime: time('expirationTime'),
    notBefore: time('notBefore'),
    requestId: params.get('requestId') ?? undefined,
    resources: [`farcaster://fid/${signer.fid}`, 'farcaster://signer/type/custody'],
  })
}

/**
 * Completes a channel as a Farcaster app does, with whatever it is given (tests send tampered messages).
 * @example const response = await FarcasterRelay.authenticate(relay, token, { message, signature, fid })
 */
export function authenticate(
  relay: Pick<Instance, 'url' | 'authKey'>,
  channelToken: string,
  completion: Completion,
): Promise<Response> {
  return fetch(`${relay.url}/v1/channel/authenticate`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${channelToken}`,
      'X-Farcaster-Auth-Relay-Key': relay.authKey,
    },
    body: JSON.stringify(completion),
  })
}

/**
 * The visitor's phone: reads the channel's URL, signs its message with the custody key and completes the
 * channel at the relay.
 * @example await FarcasterRelay.signIn(relay, channel.url, { custody: privateKeyToAccount(key), fid: 4242 })
 */
export async function signIn(
  relay: Pick<Instance, 'url' | 'authKey'>,
  url: string,
  account: Account,
  now = Date.now(),
): Promise<void> {
  const { custody, fid, username } = account
  const message = messageFor(url, { address: custody.address, fid }, now)
  const signature = await custody.signMessage({ message })
  const channelToken = new URL(url).searchParams.get('channelToken') ?? ''
  const completion = { message, signature, fid, custody: custody.address, ...(username ? { username } : {}) }
  const response = await authenticate(relay, channelToken, completion)
  if (response.status !== 201)
    throw new Error(`the relay refused: ${response.status} ${await response.text()}`)
}

/** Hex of a string, for a constant-time comparison of keys. */
function hex(value: string): string {
  return Buffer.from(value, 'utf8').toString('hex')
}

function randomNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('hex')
}
