import { Views } from '@airlock/bridge-protocol'
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

  it('refuses both sign-in options at creation, with the exact text', () => {
    expect(() =>
      createAirlock({ projectId: 'demo', networks: ['eip155:1'], siweConfig: {}, siwx: { required: true } }),
    ).toThrow(new TypeError('Cannot set both `siweConfig` and `siwx` options.'))
    expect(() => createAirlock({ projectId: 'demo', networks: ['eip155:1'], siwx: {} })).not.toThrow()
  })

  it('opens only the public views, by type', async () => {
    const airlock = createAirlock({ projectId: 'demo', networks: ['eip155:1'] })
    for (const view of Views.publicViews) await expect(airlock.open({ view })).resolves.toBeUndefined()
    // @ts-expect-error Internal screens are the modal's own: a host cannot ask for them.
    await airlock.open({ view: 'ApproveTransaction' })
  })

  it('has no session before the modal reports one, and signOut does nothing', async () => {
    const airlock = createAirlock({ projectId: 'demo', networks: ['eip155:1'], siwx: {} })
    expect(airlock.getSession()).toBeUndefined()
    const unsubscribe = airlock.onSessionChange(() => {})
    expect(typeof unsubscribe).toBe('function')
    await expect(airlock.signOut()).resolves.toBeUndefined()
  })
})

describe('the host gate for sign-in messages', async () => {
  const { Siwx } = await import('@airlock/bridge-protocol')
  const { isSignInForThisPage } = await import('./internal/bridge.ts')
  const page = { host: 'shop.example', origin: 'https://shop.example' }
  const expected = { statement: 'Welcome.' }
  const text = (overrides: Partial<import('@airlock/bridge-protocol').Siwx.Message> = {}) =>
    Siwx.format({
      domain: 'shop.example',
      uri: 'https://shop.example',
      version: '1',
      nonce: 'abcdefgh12',
      accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 'eip155:1',
      issuedAt: '2026-11-22T00:00:00.000Z',
      statement: 'Welcome.',
      ...overrides,
    })
  const hex = (value: string) => `0x${Buffer.from(value).toString('hex')}`
  const evm = (value: string) => ({
    namespace: 'eip155' as const,
    method: 'personal_sign',
    params: [hex(value), '0x0'],
  })

  it('lets the configured sign-in for this page through, in each namespace', () => {
    expect(isSignInForThisPage(evm(text()), expected, page)).toBe(true)
    const solana = new TextEncoder().encode(
      text({
        chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        accountAddress: '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q',
      }),
    )
    expect(
      isSignInForThisPage(
        { namespace: 'solana', method: 'solana:signMessage', params: { address: 'x', message: solana } },
        expected,
        page,
      ),
    ).toBe(true)
  })

  it('refuses other messages, sites, URIs, statements, resources and methods', () => {
    expect(isSignInForThisPage(evm('Transfer all my funds'), expected, page)).toBe(false)
    expect(isSignInForThisPage(evm(text({ domain: 'evil.example' })), expected, page)).toBe(false)
    expect(isSignInForThisPage(evm(text({ uri: 'https://evil.example' })), expected, page)).toBe(false)
    expect(isSignInForThisPage(evm(text({ uri: 'https://shop.example/other' })), expected, page)).toBe(false)
    expect(isSignInForThisPage(evm(text({ statement: 'I grant everything.' })), expected, page)).toBe(false)
    expect(isSignInForThisPage(evm(text({ resources: ['urn:recap:eyJhdHQiOnt9fQ'] })), expected, page)).toBe(
      false,
    )
    expect(isSignInForThisPage(evm(text({ scheme: 'https' })), expected, page)).toBe(false)
    expect(
      isSignInForThisPage(
        { namespace: 'eip155', method: 'eth_sendTransaction', params: [{}] },
        expected,
        page,
      ),
    ).toBe(false)
  })
})
