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

  it('has no session before the modal reports one, and signOut does nothing', async () => {
    const airlock = createAirlock({ projectId: 'demo', networks: ['eip155:1'], siwx: {} })
    expect(airlock.getSession()).toBeUndefined()
    const unsubscribe = airlock.onSessionChange(() => {})
    expect(typeof unsubscribe).toBe('function')
    await expect(airlock.signOut()).resolves.toBeUndefined()
  })
})

describe('the host gate for sign-in messages', async () => {
  const { isSignInForThisPage } = await import('./internal/bridge.ts')
  const page = { host: 'shop.example', origin: 'https://shop.example' }
  const message = (first: string, uri = 'https://shop.example') =>
    `${first}\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\nURI: ${uri}\nVersion: 1\nChain ID: 1\nNonce: abcdefgh12\nIssued At: 2026-11-22T00:00:00.000Z`
  const hex = (text: string) => `0x${Buffer.from(text).toString('hex')}`
  const evm = (text: string) => ({
    namespace: 'eip155' as const,
    method: 'personal_sign',
    params: [hex(text), '0x0'],
  })

  it('lets a sign-in for this page through, in each namespace', () => {
    const text = message('shop.example wants you to sign in with your Ethereum account:')
    expect(isSignInForThisPage(evm(text), page)).toBe(true)
    const bytes = new TextEncoder().encode(
      message('shop.example wants you to sign in with your Solana account:'),
    )
    expect(
      isSignInForThisPage(
        { namespace: 'solana', method: 'solana:signMessage', params: { address: 'x', message: bytes } },
        page,
      ),
    ).toBe(true)
  })

  it('refuses other messages, other sites, other URIs and other methods', () => {
    expect(isSignInForThisPage(evm('Transfer all my funds'), page)).toBe(false)
    expect(
      isSignInForThisPage(
        evm(message('evil.example wants you to sign in with your Ethereum account:')),
        page,
      ),
    ).toBe(false)
    expect(
      isSignInForThisPage(
        evm(message('shop.example wants you to sign in with your Ethereum account:', 'https://evil.example')),
        page,
      ),
    ).toBe(false)
    expect(
      isSignInForThisPage(
        evm(message('shop.example.evil wants you to sign in with your Ethereum account:')),
        page,
      ),
    ).toBe(false)
    expect(
      isSignInForThisPage({ namespace: 'eip155', method: 'eth_sendTransaction', params: [{}] }, page),
    ).toBe(false)
  })
})
