import { Async, Errors, type PageWallet, type Request, type State } from '@airlock/bridge-protocol'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { describe, expect, it, vi } from 'vitest'
import type { TokenBalance } from '../api/Api.ts'
import { compose as create, type Options } from '../compose.ts'
import type { Host } from '../connectors/Connector.ts'
import { balanceRetryBlockMs } from '../features/account/Balances.ts'
import { transactionAsMessage } from '../shared/solana/Message.ts'
import { manualClock } from '../testing/clock.ts'
import type { Config } from './Config.ts'
import type { Timers } from './Snackbar.ts'
import { create as createStorage, memory, type Storage } from './Storage.ts'

const origin = 'http://localhost:5173'
const icon = 'data:image/svg+xml,<svg/>'
const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solAddress = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
// docs/behaviour.md §9, written out: a test that read the code's own constants would pass whatever they became.
const shakeMs = 500
const swapDelay = 150

const btcAddress = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
const publicKey = new Uint8Array(32).fill(7)

const evmWallet: PageWallet = {
  id: 'eip6963:1',
  namespace: 'eip155',
  name: 'Test EVM',
  icon,
  rdns: 'dev.airlock.evm',
  chains: [],
}
const otherEvm: PageWallet = {
  id: 'eip6963:2',
  namespace: 'eip155',
  name: 'Other EVM',
  icon,
  rdns: 'dev.other',
  chains: [],
}
const solWallet: PageWallet = {
  id: 'standard:sol',
  namespace: 'solana',
  name: 'Test Solana',
  icon,
  chains: ['solana:devnet'],
}
const btcWallet: PageWallet = {
  id: 'standard:btc',
  namespace: 'bip122',
  name: 'Test Bitcoin',
  icon,
  chains: ['bitcoin:regtest'],
}

const config: Config = {
  networks: [
    'eip155:31337',
    'eip155:31338',
    'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
  ],
}

/** A page wallet as the host SDK runs it: approves or rejects, knows some chains. */
function pageWallets(mode: { reject?: boolean } = {}) {
  const evm = { authorized: false, chainId: 31337, known: new Set([31337]) }
  const standard = { solana: false, bip122: false }
  const calls: { walletId: string; method: string; params?: unknown }[] = []
  const handle = async (walletId: string, request: Request): Promise<unknown> => {
    calls.push({
      walletId,
      method: request.method,
      ...('params' in request ? { params: request.params } : {}),
    })
    const reject = () => {
      throw new Errors.UserRejectedRequestError()
    }
    switch (request.method) {
      // Lowercase, as MetaMask answers; the modal checksums.
      case 'eth_requestAccounts':
        if (mode.reject) reject()
        evm.authorized = true
        return [evmAddress.toLowerCase()]
      case 'eth_accounts':
        return evm.authorized ? [evmAddress.toLowerCase()] : []
      case 'eth_chainId':
        return `0x${evm.chainId.toString(16)}`
      case 'wallet_switchEthereumChain': {
        const [{ chainId }] = request.params as [{ chainId: string }]
        if (!evm.known.has(Number(chainId))) throw new Errors.UnrecognizedChainError()
        evm.chainId = Number(chainId)
        return null
      }
      case 'wallet_addEthereumChain': {
        const [{ chainId }] = request.params as [{ chainId: string }]
        evm.known.add(Number(chainId))
        return null
      }
      case 'personal_sign':
        if (mode.reject) reject()
        return '0xsignature'
      case 'eth_sendTransaction':
        return '0xhash'
      case 'standard:connect': {
        const silent = (request.params as { silent?: boolean } | undefined)?.silent
        if (silent && !standard.solana) return { accounts: [] }
        if (mode.reject) reject()
        standard.solana = true
        return { accounts: [{ address: solAddress, publicKey, chains: ['solana:devnet'] }] }
      }
      case 'bitcoin:connect': {
        const silent = (request.params as { silent?: boolean } | undefined)?.silent
        if (silent && !standard.bip122) return { accounts: [] }
        if (mode.reject) reject()
        standard.bip122 = true
        return { accounts: [{ address: btcAddress, publicKey, chains: ['bitcoin:regtest'] }] }
      }
      case 'standard:disconnect':
        return undefined
      case 'solana:signMessage':
        return { signedMessage: new Uint8Array([1]), signature: new Uint8Array([2]) }
      default:
        throw new Errors.UnsupportedMethodError()
    }
  }
  return { evm, standard, calls, handle }
}

const ether = {
  name: 'Ether',
  symbol: 'ETH',
  value: 29_999_998.74,
  price: 3000,
  quantity: { decimals: '18', numeric: '9999.99958' },
  iconUrl: '',
}
const alt = {
  name: 'Airlock Test Token',
  symbol: 'ALT',
  value: 1_250_000,
  price: 1.25,
  quantity: { decimals: '18', numeric: '1000000' },
  iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
}

type Setup = {
  wallets?: PageWallet[]
  storage?: Storage
  config?: Config
  configError?: string
  reject?: boolean
  start?: boolean
  timers?: Timers
  now?: () => number
  loadRegistry?: Options['loadRegistry']
  track?: Options['api']['track']
  analyticsEnabled?: () => Promise<boolean>
  identity?: Options['api']['identity']
}

async function setup(options: Setup = {}) {
  const page = pageWallets({ reject: options.reject ?? false })
  const states: State[] = []
  const host = {
    listWallets: vi.fn(async () => options.wallets ?? [evmWallet, solWallet, btcWallet]),
    walletRequest: vi.fn(async ({ walletId, request }: { walletId: string; request: Request }) =>
      page.handle(walletId, request),
    ),
    setState: vi.fn(async (state: State) => {
      states.push(state)
    }),
    resize: vi.fn(async () => undefined),
    ping: vi.fn(async () => 'pong' as const),
  }
  const chain = { waitForReceipt: vi.fn(async () => {}) }
  const balances = {
    balances: vi.fn(
      async (chainId: string, _address: string, _options?: { fresh?: boolean }): Promise<TokenBalance[]> => [
        { ...ether, chainId, quantity: { decimals: '18', numeric: '9999.99958' } },
        { ...alt, chainId, address: `${chainId}:0x5FbDB2315678afecb367f032d93F642f64180aa3` },
      ],
    ),
  }
  const storage = options.storage ?? createStorage(memory())
  const modalOptions: Options = {
    config: options.config ?? config,
    configError: options.configError,
    storage,
    loadRegistry: options.loadRegistry ?? (() => import('../shared/networks.ts')),
    loadChainClient: async () => chain,
    api: {
      ...balances,
      wallets: async () => ({ count: 0, data: [] }),
      imageUrl: () => '',
      track: options.track ?? (async () => {}),
      ...(options.analyticsEnabled ? { analyticsEnabled: options.analyticsEnabled } : {}),
      ...(options.identity ? { identity: options.identity } : {}),
      nonce: async () => 'n0nce1234',
      signIn: () => Promise.reject(new Error('not used')),
      sessions: async () => [],
    },
    now: options.now,
    timers: options.timers ?? { setTimeout: () => 0, clearTimeout: () => {} },
    walletGrace: 20,
  }
  const modal = create(modalOptions)
  if (options.start !== false) await modal.start({ host: host as unknown as Host, origin })
  const last = () => states.at(-1) as State
  return { modal, host, page, chain, balances, storage, states, last, api: modal.api }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
async function settle() {
  for (let i = 0; i < 5; i++) await tick()
}

async function connectEvm(context: Awaited<ReturnType<typeof setup>>) {
  const pending = context.api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
  await settle()
  context.modal.ui.selectWallet(evmWallet)
  await pending
  await settle()
}

describe('modal API: basics', () => {
  it('answers ping', async () => {
    const { api } = await setup()
    expect(await api.ping(undefined)).toBe('pong')
  })

  it('pushes its state to the host once started', async () => {
    const { last } = await setup()
    expect(last()).toEqual({
      open: false,
      view: 'Connect',
      status: 'disconnected',
      caipNetworkId: 'eip155:31337',
      networkName: 'Airlock Devnet A',
      namespaces: {},
    })
  })

  it('shows the host origin the browser reported', async () => {
    const { modal } = await setup()
    expect(modal.getSnapshot().origin).toBe(origin)
  })

  it('opens and closes, telling the host', async () => {
    const { api, last } = await setup()
    await api.open(undefined)
    expect(last()).toMatchObject({ open: true, view: 'Connect' })
    await api.close(undefined)
    expect(last()).toMatchObject({ open: false })
  })

  it('changes only `open` for the views when opening shows the view already drawn, so none renders again', async () => {
    const { api, modal } = await setup()
    const closed = modal.getSnapshot()
    await api.open(undefined)
    const opened = modal.getSnapshot()
    expect(opened).toMatchObject({ open: true, view: 'Connect' })
    for (const key of Object.keys(closed).filter((key) => key !== 'open'))
      expect(opened[key], key).toBe(closed[key])
    await api.close(undefined)
    expect(modal.getSnapshot()).toMatchObject({ open: false, wallets: opened.wallets })
    // Another view is a change the views must render: built afresh.
    await api.open({ view: 'Networks' })
    expect(modal.getSnapshot()).toMatchObject({ open: true, view: 'Networks' })
    expect(modal.getSnapshot().wallets).not.toBe(opened.wallets)
  })

  it('opens by the rule instead of views it cannot show yet', async () => {
    const { api, last } = await setup()
    await api.open({ view: 'Account' })
    expect(last().view).toBe('Connect')
    // WalletConnect is not configured here, so its views have nothing to show.
    await api.open({ view: 'AllWallets' })
    expect(last().view).toBe('Connect')
    await api.open({ view: 'Networks' })
    expect(last().view).toBe('Networks')
  })

  it('refuses a view that is not public with -32602, and keeps the view it shows', async () => {
    const { api, last } = await setup()
    await api.open({ view: 'Networks' })
    expect(() => api.open({ view: 'ApproveTransaction' })).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringContaining('Unknown view "ApproveTransaction"'),
      }),
    )
    expect(last().view).toBe('Networks')
  })

  it('reports internal screens to the host as the public view they belong to', async () => {
    const { api, modal, last } = await setup()
    const pending = api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
    await settle()
    modal.ui.selectWallet(evmWallet)
    expect(modal.getSnapshot().view).toBe('ConnectingExternal')
    expect(last().view).toBe('Connect')
    await pending
  })

  it('lists the page wallets of configured namespaces, recent first', async () => {
    const storage = createStorage(memory())
    storage.addRecentWallet({ namespace: 'solana', name: 'Test Solana' })
    const { modal } = await setup({
      storage,
      wallets: [evmWallet, solWallet, btcWallet],
      config: { networks: ['eip155:31337', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'] },
    })
    expect(modal.getSnapshot().wallets).toEqual([
      { wallet: solWallet, recent: true },
      { wallet: evmWallet, recent: false },
    ])
  })

  it('never lists Airlock’s own providers', async () => {
    const airlockEvm = { ...otherEvm, id: 'eip6963:self', name: 'Airlock', rdns: 'dev.airlock' }
    const airlockSol = { ...solWallet, id: 'standard:Airlock', name: 'Airlock' }
    const { api, modal } = await setup({ wallets: [airlockEvm, evmWallet, airlockSol] })
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet)).toEqual([evmWallet])
    await api.walletsChanged([airlockEvm, airlockSol, solWallet])
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet)).toEqual([solWallet])
  })

  it('re-renders Connect when the page wallets change', async () => {
    const { api, modal } = await setup({ wallets: [] })
    expect(modal.getSnapshot().wallets).toEqual([])
    await api.walletsChanged([otherEvm])
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet.name)).toEqual(['Other EVM'])
  })

  it('refuses requests and shows an alert when the config is invalid', async () => {
    const { api, modal } = await setup({ config: { networks: [] }, configError: 'Invalid config: networks' })
    await expect(api.request({ namespace: 'eip155', method: 'eth_accounts' })).rejects.toMatchObject({
      code: -32603,
    })
    expect(modal.getSnapshot().alerts).toMatchObject([
      { kind: 'invalidConfig', detail: 'Invalid config: networks' },
    ])
  })

  it('shows each alert once', async () => {
    const { modal } = await setup()
    modal.alert('invalidAppConfiguration')
    modal.alert('invalidAppConfiguration')
    expect(modal.getSnapshot().alerts).toHaveLength(1)
  })
})

describe('modal API: eip155 requests while disconnected', () => {
  it('answers eth_accounts with no accounts and eth_chainId from the active network', async () => {
    const { api, host } = await setup()
    expect(await api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([])
    expect(await api.request({ namespace: 'eip155', method: 'eth_chainId' })).toBe('0x7a69')
    expect(host.walletRequest).not.toHaveBeenCalled()
  })

  it('refuses other methods with 4100', async () => {
    const { api } = await setup()
    await expect(
      api.request({ namespace: 'eip155', method: 'personal_sign', params: ['0x00', evmAddress] }),
    ).rejects.toBeInstanceOf(Errors.UnauthorizedError)
  })

  it('opens Connect for eth_requestAccounts, narrowed to EVM wallets', async () => {
    const { api, modal, last } = await setup()
    void api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
    await settle()
    expect(last()).toMatchObject({ open: true, view: 'Connect' })
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet)).toEqual([evmWallet])
  })

  it('resolves eth_requestAccounts with the accounts once the user connects, and closes', async () => {
    const context = await setup()
    const { api, modal, last, page } = context
    const pending = api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
    await settle()
    modal.ui.selectWallet(evmWallet)
    expect(modal.getSnapshot().view).toBe('ConnectingExternal')
    expect(await pending).toEqual([evmAddress])
    expect(page.calls.map((call) => call.method)).toEqual(['eth_requestAccounts', 'eth_chainId'])
    await settle()
    expect(last()).toEqual({
      open: false,
      view: 'Account',
      status: 'connected',
      caipAddress: `eip155:31337:${evmAddress}`,
      address: evmAddress,
      caipNetworkId: 'eip155:31337',
      networkName: 'Airlock Devnet A',
      // The native balance the API read on connect, exact in base units (docs/behaviour.md §8's balance, balanceSymbol).
      balance: { value: '9999999580000000000000', decimals: 18, symbol: 'ETH' },
      // What the visitor saw on Connect, rdns included, so a dApp's library can tell the wallet from its own
      // announcement of it; never the page-side id.
      wallet: { name: 'Test EVM', icon, rdns: 'dev.airlock.evm' },
      namespaces: { eip155: { chainId: 'eip155:31337', accounts: [{ address: evmAddress }] } },
    })
  })

  it("mirrors the account's name and avatar (docs/behaviour.md §3's profileName, profileImage) once the API named it", async () => {
    const identity = vi.fn(async (_address: string) => ({
      name: 'alice.eth',
      avatar: 'https://example.com/alice.png',
    }))
    const { api, modal, last } = await setup({ identity })
    await api.open(undefined)
    modal.ui.selectWallet(evmWallet)
    await vi.waitFor(() =>
      expect(last().profile).toEqual({ name: 'alice.eth', image: 'https://example.com/alice.png' }),
    )
    expect(identity.mock.calls[0]?.[0]).toBe(evmAddress)
  })

  it('shows Account after a connect the visitor started from open()', async () => {
    const { api, modal, last } = await setup()
    await api.open(undefined)
    modal.ui.selectWallet(evmWallet)
    await settle()
    expect(last()).toMatchObject({ open: true, view: 'Account', status: 'connected' })
    expect(modal.getSnapshot().canGoBack).toBe(false)
  })

  it('reports EVM addresses EIP-55 checksummed though the wallet answers in lowercase', async () => {
    const context = await setup()
    await connectEvm(context)
    expect(context.page.calls[0]?.method).toBe('eth_requestAccounts')
    expect(context.last().namespaces.eip155?.accounts).toEqual([{ address: evmAddress }])
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([evmAddress])
  })

  it('rejects eth_requestAccounts with 4001 when the user closes the modal', async () => {
    const { api } = await setup()
    const pending = api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
    await settle()
    await api.close(undefined)
    await expect(pending).rejects.toBeInstanceOf(Errors.UserRejectedRequestError)
  })

  it('tells the user when the wallet declines, shakes, and lets them retry', async () => {
    const context = await setup({ reject: true })
    const { api, modal } = context
    const pending = api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
    await settle()
    modal.ui.selectWallet(evmWallet)
    await settle()
    const snapshot = modal.getSnapshot()
    expect(snapshot.view).toBe('ConnectingExternal')
    expect(snapshot.prompt).toMatchObject({ wallet: evmWallet, pending: false, failure: { code: 4001 } })
    expect(snapshot.snackbar).toMatchObject({ variant: 'error', message: 'User rejected the request.' })
    expect(snapshot.shake).toBe(true)
    modal.ui.back()
    expect(modal.getSnapshot().view).toBe('Connect')
    // The error spoke of the view left behind: it goes with it.
    expect(modal.getSnapshot().snackbar).toBeUndefined()
    await api.close(undefined)
    await expect(pending).rejects.toMatchObject({ code: 4001 })
  })

  it('answers wallet_requestPermissions with the eth_accounts permission', async () => {
    const { api, modal } = await setup()
    const pending = api.request({
      namespace: 'eip155',
      method: 'wallet_requestPermissions',
      params: [{ eth_accounts: {} }],
    })
    await settle()
    modal.ui.selectWallet(evmWallet)
    expect(await pending).toEqual([{ parentCapability: 'eth_accounts' }])
  })

  it('remembers the wallet and a recent wallet after connecting', async () => {
    const context = await setup()
    await connectEvm(context)
    expect(context.storage.getConnections('eip155')).toEqual([
      { namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM', connector: 'injected' },
    ])
    expect(context.storage.getRecentWallets()[0]).toMatchObject({ rdns: 'dev.airlock.evm' })
  })
})

describe('modal API: eip155 requests while connected', () => {
  it('answers eth_accounts and eth_requestAccounts from state', async () => {
    const context = await setup()
    await connectEvm(context)
    context.host.walletRequest.mockClear()
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([evmAddress])
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })).toEqual([
      evmAddress,
    ])
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_chainId' })).toBe('0x7a69')
    expect(context.host.walletRequest).not.toHaveBeenCalled()
  })

  it('forwards other methods to the connected wallet unchanged', async () => {
    const context = await setup()
    await connectEvm(context)
    const request: Request = {
      namespace: 'eip155',
      method: 'personal_sign',
      params: ['0x68656c6c6f', evmAddress],
    }
    expect(await context.api.request(request)).toBe('0xsignature')
    expect(context.host.walletRequest).toHaveBeenLastCalledWith({ walletId: evmWallet.id, request })
  })

  it('passes the wallet’s errors back with their code', async () => {
    const context = await setup()
    await connectEvm(context)
    await expect(context.api.request({ namespace: 'eip155', method: 'eth_getWork' })).rejects.toMatchObject({
      code: 4200,
    })
    context.host.walletRequest.mockRejectedValueOnce(new Errors.UserRejectedRequestError())
    await expect(
      context.api.request({ namespace: 'eip155', method: 'personal_sign', params: ['0x00', evmAddress] }),
    ).rejects.toMatchObject({ code: 4001 })
  })

  it('waits for the receipt after eth_sendTransaction and refreshes the balance', async () => {
    const context = await setup()
    await connectEvm(context)
    expect(context.modal.getSnapshot().account?.balance).toBe('9,999.999 ETH')
    const balanceReads = context.balances.balances.mock.calls.length
    const hash = await context.api.request({
      namespace: 'eip155',
      method: 'eth_sendTransaction',
      params: [{}],
    })
    expect(hash).toBe('0xhash')
    await settle()
    expect(context.chain.waitForReceipt).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'eip155:31337' }),
      '0xhash',
    )
    expect(context.balances.balances.mock.calls.length).toBeGreaterThan(balanceReads)
    // After a transaction the API's own cache is stale too.
    expect(context.balances.balances.mock.calls.at(-1)?.[2]).toEqual({ fresh: true })
  })

  it('shows the native balance and the tokens the API reports', async () => {
    const context = await setup()
    await connectEvm(context)
    expect(context.balances.balances).toHaveBeenCalledWith('eip155:31337', evmAddress, { fresh: false })
    expect(context.modal.getSnapshot().account?.tokens).toEqual([
      {
        symbol: 'ALT',
        name: 'Airlock Test Token',
        amount: '1,000,000.000',
        fiat: '$1,250,000.00',
        iconUrl: alt.iconUrl,
      },
    ])
  })

  it("shows 'Token Balance Unavailable' when balances fail, and blocks retries for 30 s", async () => {
    let time = 1_000
    const clock = manualClock()
    const context = await setup({ now: () => time, timers: clock.timers })
    context.balances.balances.mockRejectedValue(new Error('HTTP status code: 502'))
    await connectEvm(context)
    clock.advance(200)
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'error',
      message: 'Token Balance Unavailable',
    })
    expect(context.modal.getSnapshot().account?.balance).toBe('0.000 ETH')
    const reads = context.balances.balances.mock.calls.length
    context.api.open(undefined)
    await settle()
    time += balanceRetryBlockMs - 1
    context.api.open(undefined)
    await settle()
    expect(context.balances.balances.mock.calls.length).toBe(reads)
    context.balances.balances.mockReset()
    context.balances.balances.mockResolvedValue([{ ...ether, chainId: 'eip155:31337' }])
    time += 2
    context.api.open(undefined)
    await settle()
    expect(context.balances.balances).toHaveBeenCalledTimes(1)
    expect(context.modal.getSnapshot().account?.balance).toBe('9,999.999 ETH')
  })

  it('refuses to switch to a chain that is not configured with 4902', async () => {
    const context = await setup()
    await connectEvm(context)
    await expect(
      context.api.request({
        namespace: 'eip155',
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: '0x1' }],
      }),
    ).rejects.toBeInstanceOf(Errors.UnrecognizedChainError)
  })

  it('adds the chain when the wallet does not know it, then switches', async () => {
    const context = await setup()
    await connectEvm(context)
    context.page.calls.length = 0
    const result = await context.api.request({
      namespace: 'eip155',
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x7a6a' }],
    })
    expect(result).toBeNull()
    expect(context.page.calls).toEqual([
      { walletId: evmWallet.id, method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] },
      {
        walletId: evmWallet.id,
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId: '0x7a6a',
            chainName: 'Airlock Devnet B',
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            rpcUrls: ['http://127.0.0.1:8546'],
          },
        ],
      },
      { walletId: evmWallet.id, method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] },
    ])
    await settle()
    expect(context.last()).toMatchObject({
      caipNetworkId: 'eip155:31338',
      namespaces: { eip155: { chainId: 'eip155:31338' } },
    })
    expect(context.storage.getActiveNetwork()).toBe('eip155:31338')
  })

  it('switches the network through the API the same way', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.switchNetwork({ caipNetworkId: 'eip155:31338' })
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_chainId' })).toBe('0x7a6a')
    await expect(context.api.switchNetwork({ caipNetworkId: 'eip155:1' })).rejects.toMatchObject({
      code: 4902,
    })
  })

  it('disconnects all namespaces', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.disconnect(undefined)
    await settle()
    expect(context.last()).toMatchObject({ status: 'disconnected', namespaces: {} })
    expect(context.last().wallet).toBeUndefined()
    expect(context.storage.getConnections('eip155')).toEqual([])
  })
})

describe('modal API: wallet events', () => {
  it('disconnects when the wallet reports no accounts', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'accountsChanged', accounts: [] })
    await settle()
    expect(context.last()).toMatchObject({ status: 'disconnected', namespaces: {} })
  })

  it('follows the wallet’s account', async () => {
    const context = await setup()
    await connectEvm(context)
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    await context.api.walletEvent({
      walletId: evmWallet.id,
      type: 'accountsChanged',
      accounts: [other.toLowerCase()],
    })
    await settle()
    expect(context.last()).toMatchObject({ address: other, caipAddress: `eip155:31337:${other}` })
  })

  it('shows UnsupportedChain when the wallet moves to a network that is not configured, and closes once back', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'chainChanged', chainId: '0x1' })
    await settle()
    expect(context.last()).toMatchObject({ open: true, view: 'UnsupportedChain', caipNetworkId: 'eip155:1' })
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_chainId' })).toBe('0x1')
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'chainChanged', chainId: '0x7a6a' })
    await settle()
    expect(context.last()).toMatchObject({ open: false, caipNetworkId: 'eip155:31338' })
  })

  it('disconnects on the wallet’s disconnect event', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'disconnect' })
    await settle()
    expect(context.last().status).toBe('disconnected')
  })

  it('ignores events from wallets that are not connected', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: otherEvm.id, type: 'accountsChanged', accounts: [] })
    await settle()
    expect(context.last().status).toBe('connected')
  })
})

describe('modal: several accounts', () => {
  it('shows another namespace’s account without reconnecting, and disconnects one account or all', async () => {
    const context = await setup()
    const { modal, api, last } = context
    await connectEvm(context)
    const pending = api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    modal.ui.selectWallet(solWallet)
    await pending
    await settle()
    expect(modal.getSnapshot().account?.namespace).toBe('solana')
    expect(modal.getSnapshot().otherAccounts.map((account) => account.namespace)).toEqual(['eip155'])
    const requests = context.host.walletRequest.mock.calls.length

    modal.ui.showAccount('eip155')
    expect(modal.getSnapshot().account).toMatchObject({ namespace: 'eip155', address: evmAddress })
    expect(modal.getSnapshot().otherAccounts.map((account) => account.namespace)).toEqual(['solana'])
    await settle()
    expect(last()).toMatchObject({ caipNetworkId: 'eip155:31337', address: evmAddress })
    // Nothing asked of either wallet: both stay connected as they were.
    expect(context.host.walletRequest.mock.calls.length).toBe(requests)
    expect(Object.keys(last().namespaces).sort()).toEqual(['eip155', 'solana'])

    await modal.ui.disconnect('account')
    await settle()
    expect(Object.keys(last().namespaces)).toEqual(['solana'])
    expect(modal.getSnapshot().account?.namespace).toBe('solana')
    expect(last().status).toBe('connected')

    await modal.ui.disconnect()
    await settle()
    expect(last()).toMatchObject({ status: 'disconnected', namespaces: {} })
  })
})

describe('modal API: Solana and Bitcoin', () => {
  it('connects Solana through Connect narrowed to Solana wallets', async () => {
    const { api, modal, last } = await setup()
    const pending = api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet)).toEqual([solWallet])
    modal.ui.selectWallet(solWallet)
    expect(await pending).toEqual({
      accounts: [{ address: solAddress, publicKey, chains: ['solana:devnet'] }],
    })
    await settle()
    expect(last()).toMatchObject({
      status: 'connected',
      caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      address: solAddress,
      namespaces: {
        solana: {
          chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
          accounts: [{ address: solAddress, publicKey }],
        },
      },
    })
  })

  it('answers a silent connect with no accounts when not connected, without opening', async () => {
    const { api, last } = await setup()
    expect(
      await api.request({ namespace: 'solana', method: 'standard:connect', params: { silent: true } }),
    ).toEqual({
      accounts: [],
    })
    expect(last().open).toBe(false)
  })

  it('connects Bitcoin and forwards signing to the connected wallet', async () => {
    const { api, modal, host } = await setup()
    const pending = api.request({ namespace: 'bip122', method: 'bitcoin:connect' })
    await settle()
    modal.ui.selectWallet(btcWallet)
    expect(await pending).toMatchObject({ accounts: [{ address: btcAddress, chains: ['bitcoin:regtest'] }] })
    const request: Request = {
      namespace: 'bip122',
      method: 'bitcoin:signMessage',
      params: { address: btcAddress, message: new Uint8Array([1]) },
    }
    await expect(api.request(request)).rejects.toMatchObject({ code: 4200 })
    expect(host.walletRequest).toHaveBeenLastCalledWith({ walletId: btcWallet.id, request })
  })

  it('forwards Solana signing and disconnects the namespace on standard:disconnect', async () => {
    const { api, modal, last, page } = await setup()
    const pending = api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    modal.ui.selectWallet(solWallet)
    await pending
    const signed = await api.request({
      namespace: 'solana',
      method: 'solana:signMessage',
      params: { address: solAddress, message: new Uint8Array([1]) },
    })
    expect(signed).toEqual({ signedMessage: new Uint8Array([1]), signature: new Uint8Array([2]) })
    await api.request({ namespace: 'solana', method: 'standard:disconnect' })
    await settle()
    expect(page.calls.at(-1)).toMatchObject({ walletId: solWallet.id, method: 'standard:disconnect' })
    expect(last()).toMatchObject({ status: 'disconnected', namespaces: {} })
  })

  it('never asks a Solana wallet to sign, as a message, bytes that are a transaction’s message (-32602)', async () => {
    const { api, modal, page } = await setup()
    const pending = api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    modal.ui.selectWallet(solWallet)
    await pending
    const transfer = new Transaction({ feePayer: new PublicKey(solAddress), recentBlockhash: solAddress })
      .add(
        SystemProgram.transfer({
          fromPubkey: new PublicKey(solAddress),
          toPubkey: PublicKey.default,
          lamports: 1,
        }),
      )
      .serializeMessage()
    const asked = page.calls.length
    await expect(
      api.request({
        namespace: 'solana',
        method: 'solana:signMessage',
        params: { address: solAddress, message: transfer },
      }),
    ).rejects.toMatchObject({ code: -32602, message: transactionAsMessage })
    expect(page.calls.slice(asked)).toEqual([])
  })

  it('refuses Solana signing while Solana is not connected', async () => {
    const { api } = await setup()
    await expect(
      api.request({
        namespace: 'solana',
        method: 'solana:signMessage',
        params: { address: solAddress, message: new Uint8Array() },
      }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  it('says Failed to disconnect when the wallet fails to', async () => {
    const context = await setup()
    const pending = context.api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    context.modal.ui.selectWallet(solWallet)
    await pending
    context.host.walletRequest.mockRejectedValueOnce(new Error('boom'))
    vi.spyOn(console, 'error').mockImplementationOnce(() => {})
    await expect(context.api.disconnect(undefined)).rejects.toMatchObject({ message: 'Failed to disconnect' })
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'error',
      message: 'Failed to disconnect',
    })
  })
})

describe('modal: reconnect at startup', () => {
  it('reconnects a stored wallet by rdns without a prompt, though its id changed', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const first = await setup({ storage, start: false })
    first.page.evm.authorized = true
    await first.modal.start({ host: first.host as unknown as Host, origin })
    expect(first.page.calls.map((call) => call.method)).toEqual(['eth_accounts', 'eth_chainId'])
    expect(first.last()).toMatchObject({
      status: 'connected',
      address: evmAddress,
      view: 'Account',
      open: false,
    })
  })

  it('tries stored wallets most recent first and ends connected when one succeeds', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.other', name: 'Other EVM' })
    const context = await setup({ storage, start: false, wallets: [evmWallet, otherEvm] })
    context.page.evm.authorized = true
    context.host.walletRequest.mockImplementation(async ({ walletId, request }) => {
      if (walletId === otherEvm.id) return []
      return context.page.handle(walletId, request)
    })
    await context.modal.start({ host: context.host as unknown as Host, origin })
    expect(context.host.walletRequest.mock.calls.map(([call]) => call.walletId)).toEqual([
      otherEvm.id,
      evmWallet.id,
      evmWallet.id,
    ])
    expect(context.last().status).toBe('connected')
  })

  it('ends disconnected and forgets when no stored wallet still answers', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const context = await setup({ storage })
    expect(context.last().status).toBe('disconnected')
    expect(storage.getConnections('eip155')).toEqual([])
  })

  it('reconnects Solana silently', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'solana', name: 'Test Solana' })
    const context = await setup({ storage, start: false })
    context.page.standard.solana = true
    await context.modal.start({ host: context.host as unknown as Host, origin })
    expect(context.page.calls).toEqual([
      { walletId: solWallet.id, method: 'standard:connect', params: { silent: true } },
    ])
    expect(context.last()).toMatchObject({ status: 'connected', address: solAddress })
  })

  it('waits briefly for a stored wallet that announces itself late', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const context = await setup({ storage, start: false, wallets: [] })
    context.page.evm.authorized = true
    const started = context.modal.start({ host: context.host as unknown as Host, origin })
    await tick()
    await context.api.walletsChanged([evmWallet])
    await started
    expect(context.last().status).toBe('connected')
  })

  it('gives up on a stored wallet that never appears when the grace period ends: disconnected, no connection', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const clock = manualClock()
    const context = await setup({ storage, start: false, wallets: [], timers: clock.timers })
    let settled = false
    const started = context.modal.start({ host: context.host as unknown as Host, origin }).then(() => {
      settled = true
    })
    // A dApp's question meanwhile waits for the reconnect to settle, whichever way it goes.
    const accounts = context.api.request({ namespace: 'eip155', method: 'eth_accounts' })
    // The clock is the test's: only it can end the wait for the wallet (setup's grace is 20 ms).
    await vi.waitFor(() => expect(clock.waiting()).toEqual([20]))
    clock.advance(19)
    await settle()
    expect(settled).toBe(false)
    expect(context.last().status).toBe('connecting')
    clock.advance(1)
    await started
    expect(context.last()).toMatchObject({ status: 'disconnected', namespaces: {} })
    expect(context.modal.getSnapshot().account).toBeUndefined()
    expect(await accounts).toEqual([])
    expect(context.host.walletRequest).not.toHaveBeenCalled()
  })

  it('gives up on a stored wallet whose silent reconnect never answers after 10 s, and forgets it', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const clock = manualClock()
    const context = await setup({ storage, start: false, timers: clock.timers })
    context.host.walletRequest.mockImplementation(() => new Promise(() => {}))
    let settled = false
    const started = context.modal.start({ host: context.host as unknown as Host, origin }).then(() => {
      settled = true
    })
    await vi.waitFor(() => expect(clock.waiting()).toEqual([10_000]))
    expect(context.last().status).toBe('reconnecting')
    clock.advance(9_999)
    await settle()
    expect(settled).toBe(false)
    clock.advance(1)
    await started
    expect(context.last()).toMatchObject({ status: 'disconnected', namespaces: {} })
    expect(storage.getConnections('eip155')).toEqual([])
  })

  it('holds requests until the reconnect has settled', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const context = await setup({ storage, start: false })
    context.page.evm.authorized = true
    const accounts = context.api.request({ namespace: 'eip155', method: 'eth_accounts' })
    await context.modal.start({ host: context.host as unknown as Host, origin })
    expect(await accounts).toEqual([evmAddress])
  })

  it('keeps the stored active network when the wallet is on it', async () => {
    const storage = createStorage(memory())
    storage.setActiveNetwork('eip155:31338')
    const context = await setup({ storage })
    expect(context.last().caipNetworkId).toBe('eip155:31338')
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_chainId' })).toBe('0x7a6a')
  })
})

describe('modal: views’ actions', () => {
  it('switches networks from the Networks view with loading and success snackbars', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.showNetworks()
    expect(context.modal.getSnapshot().view).toBe('Networks')
    expect(context.modal.getSnapshot().networks.map((network) => network.name)).toEqual([
      'Airlock Devnet A',
      'Airlock Devnet B',
    ])
    await context.modal.ui.switchNetwork('eip155:31338')
    const snapshot = context.modal.getSnapshot()
    expect(snapshot.view).toBe('Account')
    expect(snapshot.account?.network?.name).toBe('Airlock Devnet B')
  })

  it('shows the switch error and shakes', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.showNetworks()
    context.host.walletRequest.mockRejectedValueOnce(new Errors.UserRejectedRequestError())
    await context.modal.ui.switchNetwork('eip155:31338')
    const snapshot = context.modal.getSnapshot()
    expect(snapshot.view).toBe('Networks')
    expect(snapshot.shake).toBe(true)
  })

  it('disconnects from the Account view and closes', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.open(undefined)
    await context.modal.ui.disconnect()
    await settle()
    expect(context.last()).toMatchObject({ open: false, status: 'disconnected', view: 'Connect' })
  })

  it('describes the connected account for the Account view', async () => {
    const context = await setup()
    await connectEvm(context)
    expect(context.modal.getSnapshot().account).toMatchObject({
      namespace: 'eip155',
      address: evmAddress,
      balance: '9,999.999 ETH',
      network: { name: 'Airlock Devnet A' },
      explorerUrl: undefined,
    })
  })
})

describe('modal: review fixes', () => {
  it('rests on the no-adapters view once the registry knows none of the configured networks', async () => {
    vi.spyOn(console, 'warn').mockImplementationOnce(() => {})
    const { last } = await setup({ config: { networks: ['eip155:424242'] } })
    expect(last().view).toBe('ConnectingWalletConnectBasic')
  })

  it('prompts a wallet picked while the stored one is still reconnecting', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.other', name: 'Other EVM' })
    const context = await setup({ storage, start: false, wallets: [evmWallet, otherEvm] })
    let answerReconnect: (accounts: string[]) => void = () => {}
    context.host.walletRequest.mockImplementation(async ({ walletId, request }) => {
      if (request.method === 'eth_accounts') return new Promise((resolve) => (answerReconnect = resolve))
      return context.page.handle(walletId, request)
    })
    const started = context.modal.start({ host: context.host as unknown as Host, origin })
    await settle()
    await context.api.open(undefined)
    context.modal.ui.selectWallet(evmWallet)
    expect(context.modal.getSnapshot()).toMatchObject({
      view: 'ConnectingExternal',
      prompt: { wallet: evmWallet },
    })
    await settle()
    answerReconnect([evmAddress])
    await started
    await settle()
    expect(context.modal.getSnapshot().account?.wallet).toBe(evmWallet)
  })

  it('reconnects Bitcoin silently', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'bip122', name: 'Test Bitcoin' })
    const context = await setup({ storage, start: false })
    context.page.standard.bip122 = true
    await context.modal.start({ host: context.host as unknown as Host, origin })
    expect(context.page.calls).toEqual([
      { walletId: btcWallet.id, method: 'bitcoin:connect', params: { silent: true } },
    ])
    expect(context.last()).toMatchObject({ status: 'connected', address: btcAddress })
  })

  it('opens on UnsupportedChain after reconnecting onto a chain that is not configured', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM' })
    const context = await setup({ storage, start: false })
    context.page.evm.authorized = true
    context.page.evm.chainId = 1
    await context.modal.start({ host: context.host as unknown as Host, origin })
    await settle()
    await context.api.open(undefined)
    expect(context.last()).toMatchObject({ open: true, view: 'UnsupportedChain', status: 'connected' })
  })

  it('opens UnsupportedChain on request only while connected on an unconfigured chain', async () => {
    const context = await setup()
    await context.api.open({ view: 'UnsupportedChain' })
    expect(context.last().view).toBe('Connect')
    await context.api.close(undefined)
    await connectEvm(context)
    await context.api.open({ view: 'UnsupportedChain' })
    expect(context.last().view).toBe('Account')
  })

  it('keeps the current connection when the newly picked wallet declines', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.open(undefined)
    context.host.walletRequest.mockRejectedValueOnce(new Errors.UserRejectedRequestError())
    context.modal.ui.selectWallet(otherEvm)
    await settle()
    expect(context.last()).toMatchObject({ status: 'connected', address: evmAddress })
    expect(await context.api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([evmAddress])
    context.modal.ui.back()
    await settle()
    expect(context.modal.getSnapshot().account?.wallet).toBe(evmWallet)
    expect(context.storage.getConnections('eip155')).toEqual([
      { namespace: 'eip155', rdns: 'dev.airlock.evm', name: 'Test EVM', connector: 'injected' },
    ])
  })

  it('replaces the connection once the newly picked wallet approves', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.selectWallet(otherEvm)
    await settle()
    expect(context.modal.getSnapshot().account?.wallet).toBe(otherEvm)
    expect(context.storage.getConnections('eip155')).toEqual([
      { namespace: 'eip155', rdns: 'dev.other', name: 'Other EVM', connector: 'injected' },
    ])
  })

  it('tells the replaced Solana wallet to disconnect once the new one approves', async () => {
    const otherSol: PageWallet = { ...solWallet, id: 'standard:sol2', name: 'Other Solana' }
    const context = await setup({ wallets: [evmWallet, solWallet, otherSol] })
    const first = context.api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    context.modal.ui.selectWallet(solWallet)
    await first
    await context.api.open(undefined)
    context.modal.ui.selectWallet(otherSol)
    await settle()
    expect(context.page.calls.filter((call) => call.method === 'standard:disconnect')).toEqual([
      { walletId: solWallet.id, method: 'standard:disconnect' },
    ])
  })

  it('narrows an open, unfiltered Connect to the namespace a dApp asks for', async () => {
    const { api, modal } = await setup()
    await api.open(undefined)
    expect(modal.getSnapshot().wallets).toHaveLength(3)
    void api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    expect(modal.getSnapshot().wallets.map((entry) => entry.wallet)).toEqual([solWallet])
  })

  it('ignores an EVM accountsChanged with a malformed address', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'accountsChanged', accounts: ['0x1234'] })
    await settle()
    expect(context.last()).toMatchObject({ status: 'connected', address: evmAddress })
  })

  it('ignores a Solana accountsChanged with an address that is not base58', async () => {
    const context = await setup()
    const pending = context.api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    context.modal.ui.selectWallet(solWallet)
    await pending
    await context.api.walletEvent({
      walletId: solWallet.id,
      type: 'accountsChanged',
      accounts: ['0OIl-not-a-solana-address-at-all-000000'],
    })
    await settle()
    expect(context.last()).toMatchObject({ status: 'connected', address: solAddress })
  })
})

describe('modal: snackbars and shake', () => {
  it('ends the shake after 500 ms', async () => {
    const clock = manualClock()
    const context = await setup({ reject: true, timers: clock.timers })
    void Promise.resolve(context.api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })).catch(
      () => {},
    )
    await settle()
    context.modal.ui.selectWallet(evmWallet)
    await settle()
    expect(context.modal.getSnapshot().shake).toBe(true)
    clock.advance(shakeMs - 1)
    expect(context.modal.getSnapshot().shake).toBe(true)
    clock.advance(1)
    expect(context.modal.getSnapshot().shake).toBe(false)
  })

  it('says which network it is switching to, then that it switched', async () => {
    const clock = manualClock()
    const context = await setup({ timers: clock.timers })
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.showNetworks()
    clock.advance(10_000)
    const switching = context.modal.ui.switchNetwork('eip155:31338')
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'loading',
      message: 'Switching to Airlock Devnet B…',
    })
    await switching
    clock.advance(swapDelay)
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'success',
      message: 'Switched to Airlock Devnet B',
    })
  })

  it('says Failed to switch network when the wallet gives no reason', async () => {
    const clock = manualClock()
    const context = await setup({ timers: clock.timers })
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.showNetworks()
    context.host.walletRequest.mockRejectedValueOnce({ code: -32000 })
    await context.modal.ui.switchNetwork('eip155:31338')
    clock.advance(swapDelay)
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'error',
      message: 'Failed to switch network',
    })
  })

  it('shows an error snackbar when the wallet refuses to add the chain', async () => {
    const clock = manualClock()
    const context = await setup({ timers: clock.timers })
    await connectEvm(context)
    await context.api.open(undefined)
    context.modal.ui.showNetworks()
    const handle = context.page.handle
    context.host.walletRequest.mockImplementation(async ({ walletId, request }) => {
      if (request.method === 'wallet_addEthereumChain') throw new Errors.UserRejectedRequestError()
      return handle(walletId, request)
    })
    await context.modal.ui.switchNetwork('eip155:31338')
    clock.advance(swapDelay)
    const snapshot = context.modal.getSnapshot()
    expect(snapshot.snackbar).toMatchObject({ variant: 'error', message: 'User rejected the request.' })
    expect(snapshot.account?.chainId).toBe('eip155:31337')
    const methods = context.host.walletRequest.mock.calls.map(([call]) => call.request.method)
    expect(methods).toContain('wallet_addEthereumChain')
  })

  it('confirms a copied address', async () => {
    const context = await setup()
    context.modal.ui.copied(true)
    expect(context.modal.getSnapshot().snackbar).toMatchObject({
      variant: 'success',
      message: 'Address copied',
    })
  })
})

describe('modal: Account and UnsupportedChain', () => {
  it('links the account to the network’s block explorer when it has one', async () => {
    const context = await setup()
    const pending = context.api.request({ namespace: 'solana', method: 'standard:connect' })
    await settle()
    context.modal.ui.selectWallet(solWallet)
    await pending
    expect(context.modal.getSnapshot().account?.explorerUrl).toBe(
      `https://explorer.solana.com/address/${solAddress}?cluster=devnet`,
    )
  })

  it('disconnects from UnsupportedChain and closes', async () => {
    const context = await setup()
    await connectEvm(context)
    await context.api.walletEvent({ walletId: evmWallet.id, type: 'chainChanged', chainId: '0x1' })
    await settle()
    expect(context.last().view).toBe('UnsupportedChain')
    await context.modal.ui.disconnect()
    await settle()
    expect(context.last()).toMatchObject({ open: false, status: 'disconnected', view: 'Connect' })
  })
})

describe('modal: start-up in order', () => {
  it('reaches the page’s wallets as soon as the host is attached, before the network registry is in', async () => {
    const registry = Async.deferred<Awaited<ReturnType<Options['loadRegistry']>>>()
    const context = await setup({ start: false, loadRegistry: () => registry.promise })
    const starting = context.modal.start({ host: context.host as unknown as Host, origin })
    await settle()
    context.modal.api.walletsChanged([evmWallet])
    context.modal.ui.selectWallet(evmWallet)
    await settle()
    expect(context.modal.getSnapshot().account?.wallet).toBe(evmWallet)
    registry.resolve(await import('../shared/networks.ts'))
    await starting
    expect(context.last()).toMatchObject({ status: 'connected', address: evmAddress })
  })
})

describe('analytics in the modal', () => {
  it('records nothing until its notice has been shown, then a page wallet’s connect', async () => {
    const track = vi.fn(async () => {})
    const { modal, api } = await setup({
      wallets: [evmWallet, otherEvm],
      track,
      analyticsEnabled: async () => true,
    })
    api.open(undefined)
    await settle()
    expect(modal.getSnapshot().analyticsNotice).toBe(true)
    modal.ui.selectWallet(evmWallet)
    await vi.waitFor(() => expect(modal.getSnapshot().account?.wallet.id).toBe(evmWallet.id))
    expect(track).not.toHaveBeenCalled()
    // The card rendered the notice in the open modal.
    modal.ui.analyticsNoticeShown()
    modal.ui.selectWallet(otherEvm)
    await vi.waitFor(() => expect(modal.getSnapshot().account?.wallet.id).toBe(otherEvm.id))
    expect(track.mock.calls).toEqual([
      [{ event: 'CONNECT_STARTED', properties: { method: 'browser', name: 'Other EVM' } }, origin],
      [{ event: 'CONNECT_SUCCESS', properties: { method: 'browser', name: 'Other EVM' } }, origin],
    ])
  })

  it('keeps the visitor’s Don’t share in its storage: after a reload no notice shows and nothing is recorded', async () => {
    const track = vi.fn(async () => {})
    const storage = createStorage(memory())
    const first = await setup({ storage, track, analyticsEnabled: async () => true })
    first.api.open(undefined)
    await settle()
    expect(first.modal.getSnapshot().analyticsNotice).toBe(true)
    first.modal.ui.declineAnalytics()
    const reloaded = await setup({ storage, track, analyticsEnabled: async () => true })
    reloaded.api.open(undefined)
    await settle()
    expect(reloaded.modal.getSnapshot().analyticsNotice).toBe(false)
    reloaded.modal.ui.analyticsNoticeShown()
    reloaded.modal.ui.selectWallet(evmWallet)
    await vi.waitFor(() => expect(reloaded.modal.getSnapshot().account?.wallet.id).toBe(evmWallet.id))
    expect(track).not.toHaveBeenCalled()
  })

  it('shows no notice and records nothing where the project did not enable analytics', async () => {
    const track = vi.fn(async () => {})
    const { modal, api } = await setup({ track, analyticsEnabled: async () => false })
    api.open(undefined)
    await settle()
    expect(modal.getSnapshot().analyticsNotice).toBe(false)
    modal.ui.analyticsNoticeShown()
    modal.ui.selectWallet(evmWallet)
    await vi.waitFor(() => expect(modal.getSnapshot().account?.wallet.id).toBe(evmWallet.id))
    expect(track).not.toHaveBeenCalled()
  })
})
