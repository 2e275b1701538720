import { describe, expect, it } from 'vitest'
import * as Config from '../../Config.ts'
import * as Sponsorship from './Sponsorship.ts'

const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174' }
const chain = (id: string) => ({
  id,
  name: 'C',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
  accountAbstraction: {
    bundlerUrl: 'http://127.0.0.1:4337',
    entryPoints: ['0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'],
  },
})

describe('Sponsorship', () => {
  it('sponsors the projects it lists, up to their caps or 3,000,000 gas at 100 gwei, and no other', () => {
    const policy = [{ projectId: 'shop', maxGas: 500_000, maxFeePerGasGwei: 0.015 }, { projectId: 'demo' }]
    expect(Sponsorship.capsOf(policy, 'shop')).toEqual({ maxGas: 500_000n, maxFeePerGas: 15_000_000n })
    expect(Sponsorship.capsOf(policy, 'demo')).toEqual({
      maxGas: Sponsorship.defaultMaxGas,
      maxFeePerGas: 100_000_000_000n,
    })
    expect(Sponsorship.capsOf(policy, 'other')).toBeUndefined()
    expect(Sponsorship.capsOf(undefined, 'demo')).toBeUndefined()
  })

  it('is configured once per project, with a whole cap', () => {
    const config = Config.parse({ ...base, chains: [], sponsorship: [{ projectId: 'demo' }] })
    expect(config.sponsorship).toEqual([{ projectId: 'demo' }])
    expect(() =>
      Config.parse({ ...base, chains: [], sponsorship: [{ projectId: 'a' }, { projectId: 'a' }] }),
    ).toThrow('sponsorship: each project is listed once')
    expect(() =>
      Config.parse({ ...base, chains: [], sponsorship: [{ projectId: 'a', maxGas: 1.5e5 + 0.5 }] }),
    ).toThrow('sponsorship maxGas: expected a whole number')
    const fee = (maxFeePerGasGwei: unknown) =>
      Config.parse({ ...base, chains: [], sponsorship: [{ projectId: 'a', maxFeePerGasGwei }] }).sponsorship
    expect(fee(2.5)).toEqual([{ projectId: 'a', maxFeePerGasGwei: 2.5 }])
    expect(() => fee(0)).toThrow('sponsorship[0].maxFeePerGasGwei')
    expect(() => fee(2e6)).toThrow('sponsorship[0].maxFeePerGasGwei')
    expect(() => fee('100')).toThrow('sponsorship[0].maxFeePerGasGwei')
  })

  it('takes account abstraction on eip155 chains only, with an EntryPoint at least', () => {
    expect(Config.parse({ ...base, chains: [chain('eip155:31337')] }).chains[0]?.accountAbstraction).toEqual(
      chain('eip155:31337').accountAbstraction,
    )
    expect(() =>
      Config.parse({ ...base, chains: [chain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')] }),
    ).toThrow('accountAbstraction is for eip155 chains only')
    const none = { ...chain('eip155:1'), accountAbstraction: { bundlerUrl: 'http://b', entryPoints: [] } }
    expect(() => Config.parse({ ...base, chains: [none] })).toThrow('expected 1..4 EntryPoints')
  })
})
