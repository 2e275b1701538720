import type { Request } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { Batches } from '../../connectors/Connector.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import { setup } from './runtime.ts'

const devnet = find('eip155:31337') as Network
const other = { ...devnet, id: 'eip155:31338', name: 'Devnet B' } as Network
const account = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const connection: Connection = {
  wallet: { id: 'w', namespace: 'eip155', name: 'W', icon: '', chains: ['eip155:31337'] },
  accounts: [{ address: account }],
  chainId: 'eip155:31337',
}
const batch = (overrides: Record<string, unknown> = {}) => ({
  version: '2.0.0',
  chainId: '0x7a69',
  atomicRequired: false,
  calls: [
    { to: token, data: '0x095ea7b3', value: '0x0' },
    { to: account, value: '0x1' },
  ],
  ...overrides,
})
const eip155 = (method: string, params: unknown[]): Request => ({ namespace: 'eip155', method, params })

/** The calls feature on a kernel whose wallet answers with `wallet`, batching itself when `batches` says. */
function start(wallet: (request: Request) => Promise<unknown>, batches?: Batches) {
  const asked: Request[] = []
  const router = { send: vi.fn(), view: () => 'CallsStatus', isOpen: () => true }
  const kernel = {
    networks: () => [devnet, other],
    configured: (id?: string) => [devnet, other].find((network) => network.id === id),
    origin: () => 'http://localhost:5173',
    api: {},
    router,
    // Receipts are never looked for again: the fallback stops after its first look.
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    changed: vi.fn(),
    transacted: vi.fn(),
    walletRequest: (_: Connection, request: Request) => {
      asked.push(request)
      return wallet(request)
    },
    batchesOf: () => batches,
  } as unknown as Kernel
  const runtime = setup(kernel)
  const answer = (request: Request) => runtime.answer?.(request, connection) as Promise<unknown>
  return { answer, asked, router, runtime }
}

const refuses = () => Promise.reject(Object.assign(new Error('Unsupported method'), { code: 4200 }))

describe('calls for a wallet that cannot batch', () => {
  it('answers atomic: unsupported for each configured chain asked, leaving out the others', async () => {
    const { answer } = start(refuses)
    await expect(answer(eip155('wallet_getCapabilities', [account, ['0x7a69', '0x1']]))).resolves.toEqual({
      '0x7a69': { atomic: { status: 'unsupported' } },
    })
    await expect(answer(eip155('wallet_getCapabilities', [account]))).resolves.toEqual({
      '0x7a69': { atomic: { status: 'unsupported' } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
    await expect(answer(eip155('wallet_getCapabilities', [token]))).rejects.toMatchObject({ code: 4100 })
  })

  it('refuses atomicRequired with 5760 and a batch for another chain than the wallet’s with 4901, asking nothing', async () => {
    const { answer, asked } = start(refuses)
    await expect(answer(eip155('wallet_sendCalls', [batch({ atomicRequired: true })]))).rejects.toMatchObject(
      {
        code: 5760,
      },
    )
    await expect(answer(eip155('wallet_sendCalls', [batch({ chainId: '0x7a6a' })]))).rejects.toMatchObject({
      code: 4901,
      message: 'The wallet is on another chain. Switch it to Devnet B before sending calls there.',
    })
    expect(asked).toEqual([])
  })

  it('sends the first call as a plain eth_sendTransaction and answers with the batch id once it is sent', async () => {
    const hash = `0x${'11'.repeat(32)}`
    const { answer, asked } = start(async (request) =>
      request.method === 'eth_sendTransaction' ? hash : refuses(),
    )
    await expect(answer(eip155('wallet_sendCalls', [batch({ id: 'mine' })]))).resolves.toEqual({ id: 'mine' })
    expect(asked.at(-1)).toEqual(
      eip155('eth_sendTransaction', [{ from: account, to: token, data: '0x095ea7b3', value: '0x0' }]),
    )
    await expect(answer(eip155('wallet_getCallsStatus', ['mine']))).resolves.toEqual({
      version: '2.0.0',
      id: 'mine',
      chainId: '0x7a69',
      status: 100,
      atomic: false,
    })
    await expect(answer(eip155('wallet_sendCalls', [batch({ id: 'mine' })]))).rejects.toMatchObject({
      code: 5720,
    })
  })

  it('rejects with the wallet’s refusal of the first call and forgets the id', async () => {
    const declined = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const { answer } = start(async (request) =>
      request.method === 'eth_sendTransaction' ? Promise.reject(declined) : refuses(),
    )
    await expect(answer(eip155('wallet_sendCalls', [batch({ id: 'again' })]))).rejects.toBe(declined)
    await expect(answer(eip155('wallet_getCallsStatus', ['again']))).rejects.toMatchObject({ code: 5730 })
  })

  it('opens the calls view for its own batch, and refuses an unknown one with 5730', async () => {
    const { answer, router } = start(async (request) =>
      request.method === 'eth_sendTransaction' ? `0x${'22'.repeat(32)}` : refuses(),
    )
    await answer(eip155('wallet_sendCalls', [batch({ id: 'shown' })]))
    await expect(answer(eip155('wallet_showCallsStatus', ['shown']))).resolves.toBeNull()
    expect(router.send).toHaveBeenCalledWith({ type: 'OPEN', view: 'CallsStatus' })
    await expect(answer(eip155('wallet_showCallsStatus', ['nope']))).rejects.toMatchObject({ code: 5730 })
  })
})

describe('calls for a wallet that batches', () => {
  const batching: Batches = {
    capabilities: async () => ({
      '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } },
    }),
    showsStatus: false,
  }

  it('passes its capabilities on for the chains it names, the fallback’s for the others', async () => {
    const { answer } = start(refuses, batching)
    await expect(answer(eip155('wallet_getCapabilities', [account]))).resolves.toEqual({
      '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
  })

  it('forwards the dApp’s request unchanged, after checking it, and asks the wallet for its status', async () => {
    const status = { version: '2.0.0', id: 'w-1', chainId: '0x7a69', status: 200, atomic: true, receipts: [] }
    const { answer, asked } = start(async (request) =>
      request.method === 'wallet_sendCalls' ? { id: 'w-1' } : status,
    )
    const { answer: answerBatching, asked: askedBatching } = start(
      async (request) => (request.method === 'wallet_sendCalls' ? { id: 'w-1' } : status),
      batching,
    )
    const sponsored = eip155('wallet_sendCalls', [
      batch({ atomicRequired: true, capabilities: { paymasterService: { url: 'https://pm' } } }),
    ])
    await expect(answerBatching(sponsored)).resolves.toEqual({ id: 'w-1' })
    expect(askedBatching.at(-1)).toBe(sponsored)
    await expect(answerBatching(eip155('wallet_getCallsStatus', ['w-1']))).resolves.toEqual(status)
    const flow = eip155('wallet_sendCalls', [batch({ capabilities: { flowControl: {} } })])
    await expect(answerBatching(flow)).rejects.toMatchObject({ code: 5700 })
    // The same sponsored batch, to a wallet without batches: nobody could honour the paymaster.
    await expect(answer(sponsored)).rejects.toMatchObject({ code: 5700 })
    expect(asked.map((request) => request.method)).not.toContain('wallet_sendCalls')
  })
})
