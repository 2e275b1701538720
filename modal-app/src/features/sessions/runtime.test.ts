import { decodePci, grantedMessage } from '@airlock/api/contract'
import { Errors, type Request, Siwx } from '@airlock/bridge-protocol'
import {
  decodeFunctionData,
  encodeAbiParameters,
  parseAbi,
  parseAbiParameters,
  parseEther,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import * as Snackbar from '../../core/Snackbar.ts'
import * as Permissions from './Permissions.ts'
import { type SessionsSlice, type SessionsUi, setup } from './runtime.ts'
import { sessionTexts } from './texts.ts'

const account = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const dapp = privateKeyToAccount(generatePrivateKey())
const abi = parseAbi([
  'function grantSession(address key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance)',
  'function revokeSession(address key)',
])

const sessionShape = parseAbiParameters('(address, bytes4, uint48, uint128, uint128, uint128, uint128)')
const live = [
  token,
  '0xa9059cbb',
  Math.floor(Date.now() / 1000) + 3600,
  parseEther('10'),
  parseEther('6'),
  parseEther('0.01'),
  0n,
] as const
const revoked = [zeroAddress, '0x00000000', 0, 0n, 0n, 0n, 0n] as const

const grantRequest = (expiry = Math.floor(Date.now() / 1000) + 3600): Request =>
  ({
    namespace: 'eip155',
    method: 'wallet_grantPermissions',
    params: [
      {
        chainId: '0x7a69',
        expiry,
        signer: { type: 'account', data: { address: dapp.address } },
        permissions: [
          { type: 'erc20-token-transfer', data: { address: token, allowance: toHex(parseEther('10')) } },
        ],
      },
    ],
  }) as Request

/**
 * The runtime with a kernel whose wallet is `walletId` with an account that runs batches atomically or not;
 * the wallet's requests are recorded and answered as a smart account's would be (a signature refused, if
 * `refusesSigning`).
 */
function start({
  walletId = 'embedded',
  atomic = 'supported',
  refusesSigning = false,
  refusesOperation = false,
  // What `sessionOf` answers on chain for every key.
  onChain = 'live' as 'live' | 'revoked',
} = {}) {
  const connection: Connection = {
    wallet: { id: walletId, namespace: 'eip155', name: 'W', icon: '', chains: ['eip155:31337'] },
    accounts: [{ address: account }],
    chainId: 'eip155:31337',
  }
  const router = { send: vi.fn(), view: vi.fn(() => 'GrantPermissions'), isOpen: () => true }
  const asked: Request[] = []
  let polls = 0
  const walletRequest = vi.fn(async (_connection: Connection, request: Request) => {
    asked.push(request)
    switch (request.method) {
      case 'eth_call': {
        const { data } = (request.params as [{ data: string }])[0]
        if (data.startsWith(toFunctionSelector('sessionOf(address)')))
          return encodeAbiParameters(sessionShape, [onChain === 'live' ? live : revoked])
        // symbol() then decimals(), as abi-encoded answers.
        return data === '0x95d89b41'
          ? encodeAbiParameters([{ type: 'string' }], ['ALT'])
          : toHex(18, { size: 32 })
      }
      case 'wallet_sendCalls':
        if (refusesOperation) throw new Errors.UserRejectedRequestError()
        return { id: 'batch-1' }
      case 'wallet_getCallsStatus':
        polls += 1
        return { status: polls < 2 ? 100 : 200 }
      case 'personal_sign':
        if (refusesSigning) throw new Errors.UserRejectedRequestError()
        return '0x1234'
    }
    throw new Error(`unexpected ${request.method}`)
  })
  const kernel = {
    connectionOf: () => connection,
    origin: () => 'http://localhost:5173',
    now: () => Date.now(),
    api: { endpoint: (path: string) => `http://127.0.0.1:9${path}` },
    router,
    snackbar: Snackbar.create({ onChange: () => {} }),
    timers: Snackbar.realTimers,
    changed: vi.fn(),
    walletRequest,
    batchesOf: () => ({
      showsStatus: false,
      capabilities: async () => ({ '0x7a69': { atomic: { status: atomic } } }),
    }),
  } as unknown as Kernel
  const runtime = setup(kernel)
  const ui = runtime.ui as unknown as SessionsUi
  const snapshot = () => (runtime.snapshot?.() as SessionsSlice | undefined)?.smartSessions
  const answer = (request: Request) => runtime.answer?.(request, connection)
  return { runtime, ui, snapshot, answer, router, asked, connection }
}

afterEach(() => vi.unstubAllGlobals())

describe('wallet_grantPermissions', () => {
  it('leaves a page wallet’s request to the wallet, unchanged', () => {
    const { answer } = start({ walletId: 'io.metamask' })
    expect(answer(grantRequest())).toBeUndefined()
  })

  it('refuses on the embedded wallet’s plain EOA with 4200, saying a smart account is needed', async () => {
    const { answer } = start({ atomic: 'unsupported' })
    await expect(answer(grantRequest())).rejects.toMatchObject({
      code: 4200,
      message: sessionTexts.needsSmartAccount(),
    })
  })

  it('shows the session in words, grants it with the account’s own call, and answers with its context', async () => {
    const { answer, ui, snapshot, router, asked } = start()
    const granted = answer(grantRequest()) as Promise<Record<string, unknown>[]>
    await vi.waitFor(() => expect(snapshot()?.grant).toBeDefined())
    expect(router.send).toHaveBeenCalledWith({ type: 'PUSH', view: 'GrantPermissions' })
    expect(snapshot()?.grant).toMatchObject({
      origin: 'http://localhost:5173',
      token: { symbol: 'ALT', decimals: 18 },
      session: { key: dapp.address, target: token, limit: parseEther('10') },
    })
    await ui.grantSession()
    const [answered] = await granted
    const sent = asked.find((request) => request.method === 'wallet_sendCalls')
    const [batch] = (sent?.params ?? []) as [
      { atomicRequired: boolean; calls: { to: string; data: `0x${string}` }[] },
    ]
    expect(batch.atomicRequired).toBe(true)
    expect(batch.calls).toHaveLength(1)
    expect(batch.calls[0]?.to).toBe(account)
    const call = decodeFunctionData({ abi, data: batch.calls[0]?.data ?? '0x' })
    expect(call.functionName).toBe('grantSession')
    expect(call.args?.[0]).toBe(dapp.address)
    // Answered only once the operation was on chain (status 200 after a pending 100).
    expect(asked.filter((request) => request.method === 'wallet_getCallsStatus')).toHaveLength(2)
    expect(decodePci(answered?.context as string)).toEqual({
      account: account.toLowerCase(),
      key: dapp.address.toLowerCase(),
      chainId: 31337,
    })
    expect(answered?.permissionsContext).toBe(answered?.context)
    expect(snapshot()?.grant).toBeUndefined()
    // The modal was open already: back to where the visitor was.
    expect(router.send).toHaveBeenLastCalledWith({ type: 'BACK' })
  })

  it('records at the API the page it was granted to, the handshake’s origin signed by the account, before answering', async () => {
    const { answer, ui, snapshot, asked } = start()
    const posted: { url: string; body: unknown }[] = []
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      posted.push({ url, body: JSON.parse(String(init.body)) })
      return new Response(JSON.stringify({ success: true }), { status: 200 })
    })
    // The origin is the kernel's, as the browser reported it at the handshake: a request carries none.
    const granted = answer(grantRequest()) as Promise<Record<string, unknown>[]>
    await vi.waitFor(() => expect(snapshot()?.grant).toBeDefined())
    await ui.grantSession()
    const [answered] = await granted
    const pci = answered?.context as string
    const methods = asked.map((request) => request.method)
    // Signed once the grant was on chain (its last status poll), and only then.
    expect(methods.indexOf('personal_sign')).toBeGreaterThan(methods.lastIndexOf('wallet_getCallsStatus'))
    const sign = asked.find((request) => request.method === 'personal_sign')
    expect(sign?.params).toEqual([toHex(grantedMessage(pci, 'http://localhost:5173')), account])
    expect(posted).toEqual([
      {
        url: `http://127.0.0.1:9/v1/sessions/${account}/granted`,
        body: { pci, origin: 'http://localhost:5173', signature: '0x1234' },
      },
    ])
  })

  it('answers the dApp when the record fails (the session is on chain): the list only lacks the page', async () => {
    for (const failure of ['refused signature', 'API down'] as const) {
      const { answer, ui, snapshot } = start({ refusesSigning: failure === 'refused signature' })
      const posted: string[] = []
      vi.stubGlobal('fetch', async (url: string) => {
        posted.push(url)
        return new Response(JSON.stringify({ message: 'Bad gateway' }), { status: 502 })
      })
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
      const granted = answer(grantRequest()) as Promise<Record<string, unknown>[]>
      await vi.waitFor(() => expect(snapshot()?.grant).toBeDefined())
      await ui.grantSession()
      await expect(granted).resolves.toHaveLength(1)
      expect(snapshot()?.grant).toBeUndefined()
      expect(warned).toHaveBeenCalledOnce()
      expect(posted).toHaveLength(failure === 'API down' ? 1 : 0)
      warned.mockRestore()
    }
  })

  it('rejects with 4001 when the visitor rejects or closes the modal, and sends nothing', async () => {
    for (const leave of ['reject', 'close'] as const) {
      const { answer, ui, runtime, snapshot, asked } = start()
      const granted = answer(grantRequest()) as Promise<unknown>
      await vi.waitFor(() => expect(snapshot()?.grant).toBeDefined())
      if (leave === 'reject') ui.rejectGrant()
      else runtime.closed?.()
      await expect(granted).rejects.toBeInstanceOf(Errors.UserRejectedRequestError)
      expect(asked.some((request) => request.method === 'wallet_sendCalls')).toBe(false)
    }
  })
})

describe('wallet_revokePermissions', () => {
  const pci = () =>
    Permissions.sessionOf(grantRequest().params, {
      chainId: 'eip155:31337',
      account,
      now: Math.floor(Date.now() / 1000),
    }).pci
  const revokeRequest = (permissionContext: string) =>
    ({
      namespace: 'eip155',
      method: 'wallet_revokePermissions',
      params: [{ permissionContext }],
    }) as Request
  /** Records what the modal posts to the API, answering each with success. */
  function posts() {
    const posted: { url: string; body: unknown }[] = []
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      posted.push({ url, body: JSON.parse(String(init.body)) })
      return new Response(JSON.stringify({ success: true }), { status: 200 })
    })
    return posted
  }

  it('sends revokeSession(key) on chain first, then has the account sign the API’s record of it', async () => {
    const { answer, asked } = start()
    const posted = posts()
    await expect(answer(revokeRequest(pci()))).resolves.toEqual({})
    const sent = asked.find((request) => request.method === 'wallet_sendCalls')
    const [batch] = (sent?.params ?? []) as [{ calls: { data: `0x${string}` }[] }]
    expect(decodeFunctionData({ abi, data: batch.calls[0]?.data ?? '0x' }).args).toEqual([dapp.address])
    const methods = asked.map((request) => request.method)
    // Signed once the revocation was on chain (its last status poll), and only then.
    expect(methods.indexOf('personal_sign')).toBeGreaterThan(methods.lastIndexOf('wallet_getCallsStatus'))
    const sign = asked.find((request) => request.method === 'personal_sign')
    expect((sign?.params as string[] | undefined)?.[0]).toBe(toHex(Siwx.revokeMessage(pci())))
    expect(posted).toEqual([
      { url: `http://127.0.0.1:9/v1/sessions/${account}/revoke`, body: { pci: pci(), signature: '0x1234' } },
    ])
  })

  it('records nothing when the revocation does not reach the chain: the wallet’s refusal stands', async () => {
    const { answer, asked } = start({ refusesOperation: true })
    const posted = posts()
    await expect(answer(revokeRequest(pci()))).rejects.toBeInstanceOf(Errors.UserRejectedRequestError)
    expect(asked.some((request) => request.method === 'personal_sign')).toBe(false)
    expect(posted).toEqual([])
  })

  it('refuses a session the chain does not hold live (-32602), sending nothing', async () => {
    const { answer, asked } = start({ onChain: 'revoked' })
    await expect(answer(revokeRequest(pci()))).rejects.toMatchObject({
      code: -32602,
      message: sessionTexts.unknownSession(),
    })
    expect(asked.some((request) => request.method === 'wallet_sendCalls')).toBe(false)
  })

  it('refuses a context of another account (4100) and one that is none (-32602)', async () => {
    const { answer } = start()
    const other = Permissions.sessionOf(grantRequest().params, {
      chainId: 'eip155:31337',
      account: `0x${'2'.repeat(40)}`,
      now: Math.floor(Date.now() / 1000),
    }).pci
    const revoke = (permissionContext: string) => answer(revokeRequest(permissionContext))
    await expect(revoke(other)).rejects.toMatchObject({ code: 4100 })
    await expect(Promise.resolve().then(() => revoke('0x12'))).rejects.toMatchObject({ code: -32602 })
  })
})

describe('the Sessions list', () => {
  /** The API's answer: one session of the account, with the status the API gives it. */
  function apiSays(status: 'active' | 'revoked') {
    const session = Permissions.sessionOf(grantRequest().params, {
      chainId: 'eip155:31337',
      account,
      now: Math.floor(Date.now() / 1000),
    })
    const record = {
      pci: session.pci,
      chainId: 'eip155:31337',
      account,
      key: dapp.address,
      target: token,
      selector: '0xa9059cbb',
      limit: parseEther('10').toString(),
      spent: '0',
      gasAllowance: '0',
      gasSpent: '0',
      validUntil: session.validUntil,
      status,
      ...(status === 'revoked' ? { revokedAt: Date.now() } : {}),
    }
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ sessions: [], pci: [], smartSessions: [record] }), { status: 200 }),
    )
  }

  it('shows what sessionOf says on chain: recorded as revoked at the API but live there, it is listed', async () => {
    const { ui, snapshot } = start()
    apiSays('revoked')
    ui.showSessions()
    await vi.waitFor(() => expect(snapshot()?.list?.state).toBe('ready'))
    const list = snapshot()?.list
    const sessions = list?.state === 'ready' ? list.sessions : []
    // The chain's figures, not the API's: 6 ALT spent, a 0.01 ETH gas allowance.
    expect(sessions).toMatchObject([
      {
        key: dapp.address,
        status: 'active',
        spent: parseEther('6').toString(),
        gasAllowance: parseEther('0.01').toString(),
      },
    ])
  })

  it('leaves out a session revoked on chain, whatever the API says', async () => {
    const { ui, snapshot } = start({ onChain: 'revoked' })
    apiSays('active')
    ui.showSessions()
    await vi.waitFor(() => expect(snapshot()?.list?.state).toBe('ready'))
    expect(snapshot()?.list).toMatchObject({ state: 'ready', sessions: [] })
  })
})
