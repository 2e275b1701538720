import { describe, expect, it } from 'vitest'
import { createAirlock } from './index.ts'

describe('createAirlock on a server', () => {
  it('does nothing and throws nothing where there is no window', async () => {
    expect(typeof window).toBe('undefined')
    const airlock = createAirlock({ projectId: 'demo', networks: ['eip155:1'] })
    await expect(airlock.open()).resolves.toBeUndefined()
    await expect(airlock.close()).resolves.toBeUndefined()
    await expect(airlock.disconnect()).resolves.toBeUndefined()
    expect(airlock.getState()).toMatchObject({ open: false, status: 'disconnected' })
    expect(() => airlock.destroy()).not.toThrow()
  })

  it('answers eth_chainId from the configured networks and fails wallet calls with 4900', async () => {
    const { providers } = createAirlock({ projectId: 'demo', networks: ['eip155:31337'] })
    await expect(providers.eip155.request({ method: 'eth_chainId' })).resolves.toBe('0x7a69')
    await expect(providers.eip155.request({ method: 'eth_accounts' })).resolves.toEqual([])
    await expect(providers.eip155.request({ method: 'personal_sign', params: [] })).rejects.toMatchObject({
      code: 4900,
    })
  })
})
