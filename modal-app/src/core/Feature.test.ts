import { describe, expect, it } from 'vitest'
import { connectorOrder, isOn } from './Feature.ts'

describe('feature switches', () => {
  it('turns a feature off only when the host switches it off', () => {
    expect(isOn({ switch: 'allWallets' }, {})).toBe(true)
    expect(isOn({ switch: 'allWallets' }, { features: { allWallets: true } })).toBe(true)
    expect(isOn({ switch: 'allWallets' }, { features: { allWallets: false } })).toBe(false)
    expect(isOn({}, { features: { allWallets: false } })).toBe(true)
  })
})

describe('connector order', () => {
  it('puts the page wallets first when the host names no order', () => {
    expect(connectorOrder({})).toEqual([
      'recent',
      'injected',
      'walletConnect',
      'featured',
      'custom',
      'external',
      'recommended',
    ])
  })

  it('follows the host, then adds the groups it left out', () => {
    const order = connectorOrder({
      features: { connectorTypeOrder: ['walletConnect', 'recommended'] },
    })
    expect(order).toEqual([
      'walletConnect',
      'recommended',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
    ])
  })
})
