import type { Request, State } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import { standardWallet } from './walletStandard.ts'

const icon = 'data:image/svg+xml;base64,PHN2Zy8+' as const
const base: State = { open: false, view: 'Connect', status: 'disconnected', namespaces: {} }
const publicKey = new Uint8Array(32).fill(1)

function setup(namespace: 'solana' | 'bip122') {
  let state = base
  const sent: Request[] = []
  const { wallet, update } = standardWallet(
    namespace,
    ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'eip155:1'],
    icon,
    async (request) => {
      sent.push(request)
      if (request.method.endsWith(':connect')) {
        const before = state
        state = {
          ...state,
          namespaces: {
            [namespace]: {
              chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
              accounts: [{ address: 'Addr1', publicKey }],
            },
          },
        }
        update(before, state)
      }
      return { signature: new Uint8Array([9]), signedMessage: new Uint8Array([1]) }
    },
    () => state,
  )
  /** Calls `features[name][fn](...args)` the way a dApp would. */
  const invoke = <T = unknown>(name: string, fn: string, ...args: unknown[]): T => {
    const run = (wallet.features as Record<string, Record<string, (...a: unknown[]) => T>>)[name]?.[fn]
    if (!run) throw new Error(`no ${name}.${fn}`)
    return run(...args)
  }
  return { wallet, sent, invoke }
}

describe('Airlock as a Wallet Standard wallet', () => {
  it('names its chains the Wallet Standard way and offers the namespace features', () => {
    const solana = setup('solana').wallet
    expect(solana.chains).toEqual(['solana:devnet'])
    expect(setup('bip122').wallet.chains).toEqual(['bitcoin:regtest'])
    expect(Object.keys(solana.features)).toEqual([
      'standard:connect',
      'standard:disconnect',
      'standard:events',
      'solana:signMessage',
      'solana:signTransaction',
      'solana:signAndSendTransaction',
    ])
    expect(Object.keys(setup('bip122').wallet.features)).toContain('bitcoin:connect')
  })

  it('connects through the modal once, emits change, and keeps account objects stable', async () => {
    const { wallet, sent, invoke } = setup('solana')
    const changes: unknown[] = []
    invoke('standard:events', 'on', 'change', (change: unknown) => changes.push(change))
    const { accounts } = await invoke<Promise<{ accounts: unknown[] }>>('standard:connect', 'connect')
    expect(accounts).toEqual([
      {
        address: 'Addr1',
        publicKey,
        chains: ['solana:devnet'],
        features: expect.any(Array),
      },
    ])
    expect(changes).toHaveLength(1)
    await invoke('standard:connect', 'connect')
    expect(sent.filter((r) => r.method === 'standard:connect')).toHaveLength(1)
    expect(wallet.accounts[0]).toBe(accounts[0])
  })

  it('turns account objects into addresses and answers one output per input', async () => {
    const { wallet, sent, invoke } = setup('bip122')
    await invoke('bitcoin:connect', 'connect')
    const account = wallet.accounts[0]
    const message = new Uint8Array([1, 2])
    const outputs = await invoke<Promise<unknown[]>>(
      'bitcoin:signMessage',
      'signMessage',
      { account, message },
      { account, message },
    )
    expect(outputs).toHaveLength(2)
    await invoke('bitcoin:signTransaction', 'signTransaction', {
      psbt: new Uint8Array([7]),
      inputsToSign: [{ account, signingIndexes: [0] }],
    })
    expect(sent.at(-1)).toEqual({
      namespace: 'bip122',
      method: 'bitcoin:signTransaction',
      params: { psbt: new Uint8Array([7]), inputsToSign: [{ signingIndexes: [0], address: 'Addr1' }] },
    })
    expect(sent[1]).toEqual({
      namespace: 'bip122',
      method: 'bitcoin:signMessage',
      params: { message, address: 'Addr1' },
    })
  })
})
