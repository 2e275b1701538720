import type { PageWallet } from '@airlock/bridge-protocol'
import type { Wallet } from '@wallet-standard/base'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAirlock } from '../Airlock.ts'
import type { ExternalWallet } from '../ExternalWallet.ts'
import { pageWallets } from './pageWallets.ts'
import { type FakeIframe, installPage, serveModal } from './testPage.ts'

afterEach(() => vi.unstubAllGlobals())

const icon = 'data:image/svg+xml,<svg/>'

/** An EIP-1193 provider that records what it was asked. */
function provider(name = 'provider') {
  const asked: { method: string; params?: unknown }[] = []
  return {
    name,
    asked,
    request: async (args: { method: string; params?: unknown }) => {
      asked.push(args)
      return `${name}:${args.method}`
    },
  }
}

/** A page wallet announcing itself the way EIP-6963 says: now, and whenever a dApp asks. */
function announceOnRequest(info: Record<string, unknown>, provider: unknown, signal: AbortSignal) {
  const post = () =>
    dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider } }))
  addEventListener('eip6963:requestProvider', post, { signal })
  post()
}

/** A Wallet Standard wallet with these chains and a connect feature. */
function standardWallet(name: string, chains: `${string}:${string}`[]): Wallet {
  return {
    version: '1.0.0',
    name,
    icon: icon as Wallet['icon'],
    chains,
    accounts: [],
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => ({
          accounts: [{ address: `${name}-1`, publicKey: new Uint8Array([1, 2]), chains, features: [] }],
        }),
      },
    },
  }
}

/** A wallet that loads after the app: it registers through the Wallet Standard's register-wallet event. */
function registerLate(wallet: Wallet) {
  const callback = (api: { register(wallet: Wallet): unknown }) => api.register(wallet)
  dispatchEvent(Object.assign(new Event('wallet-standard:register-wallet'), { detail: callback }))
}

/** A wallet as `@wallet-standard/wallet`'s registerWallet makes it: it registers now and on app-ready. */
function registerWallet(wallet: Wallet, signal: AbortSignal) {
  const callback = (api: { register(wallet: Wallet): unknown }) => api.register(wallet)
  dispatchEvent(Object.assign(new Event('wallet-standard:register-wallet'), { detail: callback }))
  addEventListener(
    'wallet-standard:app-ready',
    ((event: CustomEvent) => callback(event.detail)) as EventListener,
    {
      signal,
    },
  )
}

function discover(own: WeakSet<object> = new WeakSet(), external: ExternalWallet[] = []) {
  const stop = new AbortController()
  let changes = 0
  const wallets = pageWallets(
    own,
    stop.signal,
    () => changes++,
    () => {},
    external,
  )
  return { wallets, stop, changes: () => changes }
}

const names = (list: PageWallet[]) => list.map((wallet) => `${wallet.namespace} ${wallet.name}`)

describe('the page’s EIP-6963 wallets', () => {
  it('lists a provider announced before discovery, when discovery asks', () => {
    installPage()
    const signal = new AbortController().signal
    const metamask = provider('metamask')
    announceOnRequest({ uuid: 'u-1', name: 'MetaMask', icon, rdns: 'io.metamask' }, metamask, signal)
    const { wallets } = discover()
    expect(wallets.list()).toEqual([
      { id: 'eip6963:u-1', namespace: 'eip155', name: 'MetaMask', icon, rdns: 'io.metamask', chains: [] },
    ])
  })

  it('accepts each uuid once: a second announcement under it changes nothing', () => {
    installPage()
    const { wallets, changes } = discover()
    const first = provider('first')
    const impostor = provider('impostor')
    const announce = (name: string, p: unknown) =>
      dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: { info: { uuid: 'same', name, icon, rdns: 'x.y' }, provider: p },
        }),
      )
    announce('First', first)
    announce('Impostor', impostor)
    expect(names(wallets.list())).toEqual(['eip155 First'])
    expect(changes()).toBe(1)
  })

  it('runs a request on the provider that first announced the uuid', async () => {
    installPage()
    const { wallets } = discover()
    const first = provider('first')
    for (const p of [first, provider('impostor')])
      dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: { info: { uuid: 'same', name: 'W', icon }, provider: p },
        }),
      )
    const result = await wallets.run('eip6963:same', { namespace: 'eip155', method: 'eth_chainId' })
    expect(result).toBe('first:eth_chainId')
  })

  it('ignores a provider without request, an announcement without info, and a badly described one', () => {
    installPage()
    const { wallets } = discover()
    const post = (detail: unknown) => dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    post({ info: { uuid: 'a', name: 'No request', icon }, provider: {} })
    post({ info: { uuid: 'b', name: 'Request is no function', icon }, provider: { request: 'x' } })
    post({ provider: provider() })
    post(undefined)
    post({ info: { uuid: 'c', name: '', icon }, provider: provider() })
    post({
      info: { uuid: 'd', name: 'Remote icon', icon: 'https://evil.example/i.png' },
      provider: provider(),
    })
    post({ info: { uuid: 'e', name: 'Good', icon }, provider: provider() })
    expect(names(wallets.list())).toEqual(['eip155 Good'])
  })

  it('never lists Airlock’s own provider', () => {
    installPage()
    const mine = provider('airlock')
    const { wallets } = discover(new WeakSet([mine]))
    dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: 'own', name: 'Airlock', icon }, provider: mine },
      }),
    )
    expect(wallets.list()).toEqual([])
  })

  it('stops listening when Airlock goes', () => {
    installPage()
    const { wallets, stop } = discover()
    stop.abort()
    dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: 'late', name: 'Late', icon }, provider: provider() },
      }),
    )
    expect(wallets.list()).toEqual([])
  })
})

describe('the dApp’s own providers (externalWallets)', () => {
  it('lists them first, marked external, and the same provider announced on the page only once', async () => {
    installPage()
    const signal = new AbortController().signal
    const signer = provider('signer')
    announceOnRequest({ uuid: 'u-9', name: 'Signer on the page', icon, rdns: 'x.signer' }, signer, signal)
    const { wallets } = discover(new WeakSet(), [
      { id: 'team-signer', name: 'Team Signer', icon, rdns: 'x.signer', provider: signer },
    ])
    expect(wallets.list()).toEqual([
      {
        id: 'external:team-signer',
        namespace: 'eip155',
        name: 'Team Signer',
        icon,
        rdns: 'x.signer',
        chains: [],
        external: true,
      },
    ])
    expect(await wallets.run('external:team-signer', { namespace: 'eip155', method: 'eth_accounts' })).toBe(
      'signer:eth_accounts',
    )
    expect(signer.asked).toEqual([{ method: 'eth_accounts', params: undefined }])
  })

  it('leaves out one it cannot describe to the modal, saying why, and lists the others', () => {
    installPage()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { wallets } = discover(new WeakSet(), [
      { id: 'bad', name: 'Bad Icon', icon: 'https://x.example/icon.png', provider: provider('bad') },
      { id: 'good', name: 'Good', icon, provider: provider('good') },
    ])
    expect(names(wallets.list())).toEqual(['eip155 Good'])
    expect(errors).toHaveBeenCalledWith(
      expect.stringMatching(/^Airlock: externalWallets: bad is left out: .*icon/),
    )
    errors.mockRestore()
  })
})

describe('the page’s Wallet Standard wallets', () => {
  it('classifies wallets by their chains: solana:, bitcoin: and bip122: ones; others are left out', () => {
    installPage()
    const { wallets } = discover()
    registerLate(standardWallet('Sol', ['solana:devnet']))
    registerLate(standardWallet('Btc', ['bitcoin:mainnet']))
    registerLate(standardWallet('Ltc', ['bip122:12a765e31ffd4059bada1e25190f6e98']))
    registerLate(standardWallet('Sui', ['sui:mainnet']))
    registerLate(standardWallet('Nothing', []))
    registerLate(standardWallet('Both', ['bitcoin:mainnet', 'solana:mainnet']))
    expect(wallets.list().map((w) => [w.namespace, w.name, w.chains])).toEqual([
      ['solana', 'Sol', ['solana:devnet']],
      ['bip122', 'Btc', ['bitcoin:mainnet']],
      ['bip122', 'Ltc', ['bip122:12a765e31ffd4059bada1e25190f6e98']],
      ['solana', 'Both', ['bitcoin:mainnet', 'solana:mainnet']],
    ])
  })

  it('hears wallets already loaded (app-ready) and wallets that register later', () => {
    installPage()
    const stop = new AbortController()
    // Loaded before discovery: nobody hears its register event, so it answers the app's app-ready.
    registerWallet(standardWallet('Early', ['solana:mainnet']), stop.signal)
    const { wallets, changes } = discover()
    expect(names(wallets.list())).toEqual(['solana Early'])
    registerWallet(standardWallet('Late', ['bitcoin:testnet']), stop.signal)
    expect(names(wallets.list())).toEqual(['solana Early', 'bip122 Late'])
    expect(changes()).toBe(2)
    stop.abort()
  })

  it('never lists Airlock’s own wallets', () => {
    installPage()
    const mine = standardWallet('Airlock', ['solana:mainnet'])
    const { wallets } = discover(new WeakSet([mine]))
    registerLate(mine)
    expect(wallets.list()).toEqual([])
  })

  it('runs standard:connect on the wallet and carries its accounts as plain values', async () => {
    installPage()
    const { wallets } = discover()
    registerLate(standardWallet('Sol', ['solana:devnet']))
    const [entry] = wallets.list()
    const result = await wallets.run(entry?.id ?? '', { namespace: 'solana', method: 'standard:connect' })
    expect(result).toEqual({
      accounts: [{ address: 'Sol-1', publicKey: new Uint8Array([1, 2]), chains: ['solana:devnet'] }],
    })
    await expect(
      wallets.run(entry?.id ?? '', { namespace: 'eip155', method: 'eth_chainId' }),
    ).rejects.toMatchObject({ code: -32602 })
    await expect(
      wallets.run('standard:99', { namespace: 'solana', method: 'standard:connect' }),
    ).rejects.toMatchObject({ code: 4900 })
  })
})

describe('page wallets as the modal sees them', () => {
  it('lists the page’s wallets to the modal, and none of Airlock’s own (EIP-6963 and Wallet Standard)', async () => {
    const page = installPage()
    const stop = new AbortController()
    announceOnRequest({ uuid: 'u-1', name: 'MetaMask', icon, rdns: 'io.metamask' }, provider(), stop.signal)
    const airlock = createAirlock({
      projectId: 'demo',
      modalUrl: 'http://127.0.0.1:5174',
      networks: ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    })
    // Loaded before the bridge: heard through app-ready, like any wallet that comes first.
    registerWallet(standardWallet('Phantom', ['solana:mainnet']), stop.signal)
    const modal = await serveModal(page.frames()[0] as FakeIframe)
    expect(names(await modal.remote.listWallets(undefined))).toEqual(['eip155 MetaMask', 'solana Phantom'])
    modal.close()
    airlock.destroy()
    stop.abort()
  })
})
