import {
  Errors,
  type PageWallet,
  type Request,
  type Schema,
  Siwx,
  type State,
} from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type * as Api from '../../api/Api.ts'
import { compose as create } from '../../compose.ts'
import type { Host } from '../../connectors/Connector.ts'
import type { Config } from '../../core/Config.ts'
import { create as createStorage, memory, type Storage } from '../../core/Storage.ts'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const account = `eip155:31337:${address.toLowerCase()}`
const wallet: PageWallet = {
  id: 'eip6963:test',
  namespace: 'eip155',
  name: 'Test Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.test',
  chains: [],
}

type Options = { storage?: Storage; now?: () => number; identity?: Api.Client['identity'] }

function setup(siwx: NonNullable<Config['siwx']>, options: Options = {}) {
  const wallet$ = { chainId: 31337, authorized: false, reject: false }
  const signed: string[] = []
  const states: State[] = []
  const host = {
    listWallets: vi.fn(async () => [wallet]),
    walletRequest: vi.fn(async ({ request }: { walletId: string; request: Request }) => {
      const params = 'params' in request ? (request.params as unknown[]) : []
      switch (request.method) {
        case 'eth_requestAccounts':
          wallet$.authorized = true
          return [address]
        case 'eth_accounts':
          return wallet$.authorized ? [address] : []
        case 'eth_chainId':
          return `0x${wallet$.chainId.toString(16)}`
        case 'wallet_switchEthereumChain':
          wallet$.chainId = Number((params[0] as { chainId: string }).chainId)
          return null
        case 'personal_sign':
          if (wallet$.reject) throw new Errors.UserRejectedRequestError()
          signed.push(Buffer.from((params[0] as string).slice(2), 'hex').toString())
          return '0xsignature'
      }
      return null
    }),
    setState: vi.fn(async (state: State) => void states.push(state)),
    resize: vi.fn(async () => undefined),
    ping: vi.fn(async () => 'pong' as const),
  }
  const issued: Schema.Session[] = []
  const api = {
    balances: async () => [],
    wallets: async () => ({ count: 0, data: [] }),
    imageUrl: () => '',
    track: vi.fn(async () => {}),
    analyticsEnabled: async () => true,
    nonce: vi.fn(async () => 'n0nce12345'),
    signIn: vi.fn(async (message: string, signature: string) => {
      const parsed = Siwx.parse(message)
      if (signature !== '0xsignature') throw new Error('HTTP status code: 401: Invalid signature')
      const session = {
        id: `s${issued.length + 1}`,
        address: `${parsed.chainId}:${parsed.accountAddress.toLowerCase()}`,
        chainId: parsed.chainId,
        message,
        signature,
        issuedAt: parsed.issuedAt,
        ...(parsed.expirationTime ? { expiresAt: parsed.expirationTime } : {}),
        token: `token-of-session-${issued.length + 1}`,
      }
      issued.push(session)
      return session
    }),
    sessions: vi.fn(async (key: string) => issued.filter((session) => session.address === key)),
    ...(options.identity ? { identity: options.identity } : {}),
  }
  const storage = options.storage ?? createStorage(memory())
  const modal = create({
    // The visitor's consent, as a host with its own consent banner passes it: events are sent at once.
    config: { networks: ['eip155:31337', 'eip155:31338'], siwx, features: { analyticsConsent: true } },
    storage,
    loadRegistry: () => import('../../shared/networks.ts'),
    loadChainClient: async () => ({ waitForReceipt: async () => {} }),
    loadMessage: () => import('./message.ts'),
    api,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    walletGrace: 20,
    now: options.now,
  })
  const start = () => modal.start({ host: host as unknown as Host, origin: 'http://localhost:5173' })
  return { modal, host, api, storage, signed, states, wallet$, issued, start }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

async function connected(siwx: NonNullable<Config['siwx']>, options: Options = {}) {
  const context = setup(siwx, options)
  await context.start()
  context.modal.api.open(undefined)
  context.modal.ui.selectWallet(wallet)
  await vi.waitFor(() => expect(context.modal.getSnapshot().view).not.toBe('ConnectingExternal'))
  await settle()
  return context
}

describe('sign in with X in the modal', () => {
  it('asks after connecting, signs a message for the page that the API turns into a session', async () => {
    const { modal, signed, api, states, storage } = await connected({ statement: 'Welcome back.' })
    expect(modal.getSnapshot().view).toBe('SIWXSignMessage')
    await modal.ui.signIn()
    const message = Siwx.parse(signed[0] ?? '')
    expect(message).toMatchObject({
      domain: 'localhost:5173',
      uri: 'http://localhost:5173',
      accountAddress: address,
      chainId: 'eip155:31337',
      nonce: 'n0nce12345',
      statement: 'Welcome back.',
    })
    expect(api.signIn).toHaveBeenCalledWith(signed[0], '0xsignature')
    expect(modal.getSnapshot().open).toBe(false)
    expect(states.at(-1)?.session).toMatchObject({ id: 's1', address: account })
    // Kept for this page only: the same account on another site of the project signs in there anew.
    expect(storage.getSession(`http://localhost:5173 ${account}`)?.id).toBe('s1')
    expect(storage.getSession(account)).toBeUndefined()
    expect(api.track).toHaveBeenCalledWith(
      { event: 'SIWX_AUTH_SUCCESS', properties: { network: 'eip155:31337' } },
      'http://localhost:5173',
    )
  })

  it('shows the name the API knows for the account, without waiting for it; the message names the address', async () => {
    const identity = vi.fn(async () => ({ name: 'alice.eth', avatar: null }))
    const named = await connected({}, { identity })
    expect(named.modal.getSnapshot()).toMatchObject({
      view: 'SIWXSignMessage',
      account: { profileName: 'alice.eth' },
    })
    expect(identity).toHaveBeenCalledTimes(1)
    await named.modal.ui.signIn()
    expect(Siwx.parse(named.signed[0] ?? '').accountAddress).toBe(address)
    expect(named.signed[0]).not.toContain('alice.eth')
    // An identity route that never answers delays nothing.
    const slow = await connected({}, { identity: () => new Promise(() => {}) })
    expect(slow.modal.getSnapshot().account).not.toHaveProperty('profileName', expect.any(String))
    await slow.modal.ui.signIn()
    expect(slow.modal.getSnapshot().open).toBe(false)
  })

  it('writes the configured resources, and an expiry expiresIn seconds after issuance, into the message the wallet signs', async () => {
    const issued = Date.UTC(2026, 10, 22, 12, 0, 0)
    const resources = [
      'https://shop.example/terms',
      'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
    ]
    const { modal, signed } = await connected({ resources, expiresIn: 3_600 }, { now: () => issued })
    await modal.ui.signIn()
    const text = signed[0] ?? ''
    const message = Siwx.parse(text)
    expect(message.resources).toEqual(resources)
    expect(message.issuedAt).toBe('2026-11-22T12:00:00.000Z')
    expect(message.expirationTime).toBe('2026-11-22T13:00:00.000Z')
    expect(Siwx.toTime(message.expirationTime ?? '') - Siwx.toTime(message.issuedAt)).toBe(3_600 * 1000)
    expect(text.split('\n').slice(-4)).toEqual([
      'Expiration Time: 2026-11-22T13:00:00.000Z',
      'Resources:',
      `- ${resources[0]}`,
      `- ${resources[1]}`,
    ])
  })

  it('previews, before signing, the message the wallet will sign: domain, address, statement, chain, issued and expiry', async () => {
    const issued = Date.UTC(2026, 10, 22, 12, 0, 0)
    const { modal, signed } = await connected(
      { statement: 'Welcome back.', expiresIn: 3_600 },
      { now: () => issued },
    )
    const { preview } = modal.getSnapshot().signIn
    expect(preview).toEqual({
      domain: 'localhost:5173',
      address,
      statement: 'Welcome back.',
      chainId: 'eip155:31337',
      chainName: expect.any(String),
      issuedAt: issued,
      expiresAt: issued + 3_600_000,
    })
    await modal.ui.signIn()
    const message = Siwx.parse(signed[0] ?? '')
    expect(message).toMatchObject({
      domain: preview.domain,
      accountAddress: preview.address,
      statement: preview.statement,
      chainId: preview.chainId,
      issuedAt: new Date(preview.issuedAt).toISOString(),
      expirationTime: new Date(preview.expiresAt).toISOString(),
    })
  })

  it('lets a session last a day when the dApp sets no expiresIn, and lists no resources when it sets none', async () => {
    const issued = Date.UTC(2026, 10, 22, 12, 0, 0)
    const { modal, signed } = await connected({}, { now: () => issued })
    await modal.ui.signIn()
    const message = Siwx.parse(signed[0] ?? '')
    expect(message.expirationTime).toBe('2026-11-23T12:00:00.000Z')
    expect(message).not.toHaveProperty('resources')
    expect(signed[0]).not.toContain('Resources:')
  })

  it("a declined signature reopens the view with 'Signature declined', once: in the view, not also in a snackbar", async () => {
    const { modal, wallet$, api } = await connected({})
    wallet$.reject = true
    await modal.ui.signIn()
    expect(modal.getSnapshot().view).toBe('SIWXSignMessage')
    expect(modal.getSnapshot().signIn).toMatchObject({ status: 'declined', error: 'Signature declined' })
    expect(modal.getSnapshot().snackbar).toBeUndefined()
    expect(api.track).toHaveBeenCalledWith(
      { event: 'SIWX_AUTH_ERROR', properties: { network: 'eip155:31337', message: 'Signature declined' } },
      'http://localhost:5173',
    )
    wallet$.reject = false
    await modal.ui.signIn()
    expect(modal.getSnapshot().open).toBe(false)
  })

  it('shows a wallet refusal other than a decline', async () => {
    const { modal, host } = await connected({})
    host.walletRequest.mockRejectedValueOnce(
      new Errors.UnauthorizedError('This page did not ask for that request.'),
    )
    await modal.ui.signIn()
    expect(modal.getSnapshot().signIn).toMatchObject({
      status: 'failed',
      error: 'This page did not ask for that request.',
    })
  })

  it("shows the API's refusal", async () => {
    const { modal, api } = await connected({})
    api.signIn.mockRejectedValueOnce(new Error('HTTP status code: 401: Invalid signature'))
    await modal.ui.signIn()
    expect(modal.getSnapshot().signIn).toMatchObject({
      status: 'failed',
      error: 'HTTP status code: 401: Invalid signature',
    })
  })

  it('required: the view cannot be closed, and cancelling disconnects back to Connect', async () => {
    const { modal, states } = await connected({ required: true })
    expect(modal.getSnapshot().closable).toBe(false)
    modal.ui.close()
    modal.api.close(undefined)
    expect(modal.getSnapshot()).toMatchObject({ open: true, view: 'SIWXSignMessage' })
    await modal.ui.cancelSignIn()
    await settle()
    expect(states.at(-1)?.status).toBe('disconnected')
    expect(modal.getSnapshot().view).toBe('Connect')
  })

  it('opens the sign-in view for a host only where it can be used', async () => {
    const disconnected = setup({})
    await disconnected.start()
    disconnected.modal.api.open({ view: 'SIWXSignMessage' })
    expect(disconnected.modal.getSnapshot().view).toBe('Connect')
    const { modal } = await connected({})
    await modal.ui.cancelSignIn()
    modal.api.open({ view: 'ConnectingSiwe' })
    expect(modal.getSnapshot().view).toBe('Account')
    modal.api.close(undefined)
    modal.api.open({ view: 'SIWXSignMessage' })
    expect(modal.getSnapshot().view).toBe('SIWXSignMessage')
  })

  it('refuses the sign-in view before anything has loaded, as after', () => {
    const { modal } = setup({})
    modal.api.open({ view: 'SIWXSignMessage' })
    expect(modal.getSnapshot().view).toBe('Connect')
  })

  it('optional: cancelling closes and keeps the connection', async () => {
    const { modal, states } = await connected({})
    expect(modal.getSnapshot().closable).toBe(true)
    await modal.ui.cancelSignIn()
    expect(modal.getSnapshot().open).toBe(false)
    expect(states.at(-1)?.status).toBe('connected')
  })

  it('a reload keeps the session the API still has; one it revoked asks again', async () => {
    const storage = createStorage(memory())
    const first = await connected({}, { storage })
    await first.modal.ui.signIn()
    const kept = setup({}, { storage })
    kept.wallet$.authorized = true
    kept.api.sessions.mockResolvedValue(first.issued)
    await kept.start()
    await settle()
    expect(kept.modal.getSnapshot().open).toBe(false)
    expect(kept.states.at(-1)?.session?.id).toBe('s1')
    const revoked = setup({}, { storage })
    revoked.wallet$.authorized = true
    revoked.api.sessions.mockResolvedValue([])
    await revoked.start()
    await settle()
    expect(revoked.modal.getSnapshot()).toMatchObject({ open: true, view: 'SIWXSignMessage' })
    expect(revoked.states.at(-1)?.session).toBeUndefined()
  })

  it('switching to a chain without a session asks again', async () => {
    const { modal } = await connected({})
    await modal.ui.signIn()
    await modal.api.switchNetwork({ caipNetworkId: 'eip155:31338' })
    await settle()
    expect(modal.getSnapshot()).toMatchObject({ open: true, view: 'SIWXSignMessage' })
  })

  it('signOut ends the session; with required sign-in it also disconnects', async () => {
    const optional = await connected({})
    await optional.modal.ui.signIn()
    await optional.modal.api.signOut(undefined)
    expect(optional.states.at(-1)).toMatchObject({ status: 'connected' })
    expect(optional.states.at(-1)?.session).toBeUndefined()
    const required = await connected({ required: true })
    await required.modal.ui.signIn()
    await required.modal.api.signOut(undefined)
    await settle()
    expect(required.states.at(-1)?.status).toBe('disconnected')
  })

  it("refuses signOut with 'SIWX is not enabled' when sign-in is off", async () => {
    const off = create({
      config: { networks: ['eip155:31337'] },
      storage: createStorage(memory()),
      loadRegistry: () => import('../../shared/networks.ts'),
      loadChainClient: async () => ({ waitForReceipt: async () => {} }),
      api: {} as never,
    })
    await expect(off.api.signOut(undefined)).rejects.toThrow('SIWX is not enabled')
  })
})
