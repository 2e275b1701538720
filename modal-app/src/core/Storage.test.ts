import { describe, expect, it } from 'vitest'
import { prefix } from './FrameStorage.ts'
import { create, maxRecentWallets, memory, sameWallet } from './Storage.ts'

const metamask = { namespace: 'eip155' as const, rdns: 'io.metamask', name: 'MetaMask' }
const rabby = { namespace: 'eip155' as const, rdns: 'io.rabby', name: 'Rabby' }
const phantom = { namespace: 'solana' as const, name: 'Phantom' }

describe('storage', () => {
  it('keeps at most 2 recent wallets, most recent first, without duplicates', () => {
    const storage = create()
    storage.addRecentWallet(metamask)
    storage.addRecentWallet(rabby)
    storage.addRecentWallet(metamask)
    expect(storage.getRecentWallets()).toEqual([metamask, rabby])
    storage.addRecentWallet(phantom)
    expect(storage.getRecentWallets()).toEqual([phantom, metamask])
    expect(storage.getRecentWallets()).toHaveLength(maxRecentWallets)
  })

  it('stores connections per namespace, with the connector that made each, and clears one namespace only', () => {
    const storage = create()
    const injected = { connector: 'injected' }
    storage.addConnection({ ...metamask, ...injected })
    storage.addConnection({ ...phantom, ...injected })
    storage.addConnection({ ...rabby, ...injected })
    expect(storage.getConnections('eip155')).toEqual([
      { ...rabby, ...injected },
      { ...metamask, ...injected },
    ])
    storage.clearConnections('eip155')
    expect(storage.getConnections('eip155')).toEqual([])
    expect(storage.getConnections('solana')).toEqual([{ ...phantom, ...injected }])
  })

  it('reads connections stored before keys named their connector: WalletConnect by its rdns, else the page', () => {
    const backend = memory()
    const phone = { namespace: 'eip155', rdns: 'com.walletconnect', name: 'Phone Wallet' }
    backend.setItem(`${prefix}connections`, JSON.stringify({ eip155: [phone, metamask] }))
    expect(create(backend).getConnections('eip155')).toEqual([
      { ...phone, connector: 'walletconnect' },
      { ...metamask, connector: 'injected' },
    ])
  })

  it('stores the active network', () => {
    const storage = create()
    expect(storage.getActiveNetwork()).toBeUndefined()
    storage.setActiveNetwork('eip155:31338')
    expect(storage.getActiveNetwork()).toBe('eip155:31338')
  })

  it('writes under the @airlock/ prefix', () => {
    const backend = memory()
    create(backend).setActiveNetwork('eip155:1')
    expect(backend.getItem(`${prefix}activeNetwork`)).toBe('"eip155:1"')
  })

  it('reads corrupt entries as empty', () => {
    const backend = memory()
    backend.setItem(`${prefix}recentWallets`, '{not json')
    backend.setItem(`${prefix}connections`, '{"eip155":"MetaMask"}')
    backend.setItem(`${prefix}activeNetwork`, '"mainnet"')
    const storage = create(backend)
    expect(storage.getRecentWallets()).toEqual([])
    expect(storage.getConnections('eip155')).toEqual([])
    expect(storage.getActiveNetwork()).toBeUndefined()
  })

  it('keeps working when the backend throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked')
      },
      setItem: () => {
        throw new Error('blocked')
      },
      removeItem: () => {},
    }
    const storage = create(broken)
    expect(() => storage.addRecentWallet(metamask)).not.toThrow()
    expect(storage.getRecentWallets()).toEqual([])
  })

  it('matches wallets by rdns, else by name, within a namespace', () => {
    expect(sameWallet(metamask, { namespace: 'eip155', rdns: 'io.metamask', name: 'MetaMask Flask?' })).toBe(
      true,
    )
    expect(sameWallet(metamask, { namespace: 'eip155', name: 'MetaMask' })).toBe(false)
    expect(sameWallet(phantom, { namespace: 'solana', name: 'Phantom' })).toBe(true)
    expect(sameWallet(phantom, { namespace: 'eip155', name: 'Phantom' })).toBe(false)
  })
  it('remembers the answer to the analytics notice, and reads any other value as none', () => {
    const backend = memory()
    expect(create(backend).getAnalyticsChoice()).toBeUndefined()
    create(backend).setAnalyticsChoice('declined')
    expect(backend.getItem(`${prefix}analyticsNotice`)).toBe('"declined"')
    expect(create(backend).getAnalyticsChoice()).toBe('declined')
    backend.setItem(`${prefix}analyticsNotice`, '"accepted"')
    expect(create(backend).getAnalyticsChoice()).toBeUndefined()
  })

  it('remembers an open on-ramp order until it is forgotten, and ignores one that is not an order', () => {
    const backend = memory()
    const storage = create(backend)
    const purchase = {
      orderId: 'order_0123456789abcdef',
      url: 'http://127.0.0.1:8797/buy?signature=x',
      address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      network: 'eip155:31337',
      asset: 'ETH',
    }
    storage.setPendingPurchase(purchase)
    expect(create(backend).getPendingPurchase()).toEqual(purchase)
    storage.setPendingPurchase(undefined)
    expect(storage.getPendingPurchase()).toBeUndefined()
    backend.setItem(`${prefix}onrampPending`, JSON.stringify({ ...purchase, url: 'javascript:alert(1)' }))
    expect(storage.getPendingPurchase()).toBeUndefined()
  })
})
