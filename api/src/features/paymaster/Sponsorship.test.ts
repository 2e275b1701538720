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
const budget = {
  perDay: '50000000000000000',
  total: '1000000000000000000',
  perSenderPerDay: '5000000000000000',
}
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const parse = (sponsorship: unknown) => Config.parse({ ...base, chains: [], sponsorship }).sponsorship

describe('Sponsorship', () => {
  it('resolves a listed project’s policy, its defaults filled in and amounts in wei; no other project is sponsored', () => {
    const policies = parse([
      {
        projectId: 'shop',
        maxGas: 500_000,
        budget,
        fees: { baseFeeMultiplier: 2.5, maxPriorityFeePerGasGwei: 0.015, maxFeePerGasGwei: 40 },
        calls: [{ to: token, selectors: ['0xA9059CBB'] }, { to: 'self' }],
      },
      { projectId: 'demo', budget },
    ])
    expect(Sponsorship.policyOf(policies, 'shop')).toEqual({
      projectId: 'shop',
      maxGas: 500_000n,
      budget: { perDay: 5n * 10n ** 16n, total: 10n ** 18n, perSenderPerDay: 5n * 10n ** 15n },
      fees: { baseFeeMultiplier: 2.5, maxPriorityFeePerGas: 15_000_000n, maxFeePerGas: 40_000_000_000n },
      calls: new Map<string, Set<string> | undefined>([
        [token.toLowerCase(), new Set(['0xa9059cbb'])],
        ['self', undefined],
      ]),
    })
    expect(Sponsorship.policyOf(policies, 'demo')).toMatchObject({
      maxGas: Sponsorship.defaultMaxGas,
      fees: {
        baseFeeMultiplier: Sponsorship.defaultBaseFeeMultiplier,
        maxPriorityFeePerGas: 2_000_000_000n,
        maxFeePerGas: undefined,
      },
      calls: undefined,
    })
    expect(Sponsorship.policyOf(policies, 'other')).toBeUndefined()
    expect(Sponsorship.policyOf(undefined, 'demo')).toBeUndefined()
  })

  it('takes each project once, with its budgets in whole wei, whole gas and sane fees', () => {
    expect(() => parse([{ projectId: 'a' }])).toThrow('sponsorship[0].budget: expected an object')
    expect(() =>
      parse([
        { projectId: 'a', budget },
        { projectId: 'a', budget },
      ]),
    ).toThrow('sponsorship: each project is listed once')
    expect(() => parse([{ projectId: 'a', budget: { ...budget, perDay: 5e16 } }])).toThrow(
      'sponsorship[0].budget.perDay',
    )
    expect(() => parse([{ projectId: 'a', budget: { ...budget, total: '1.5' } }])).toThrow(
      'sponsorship[0].budget.total',
    )
    expect(() => parse([{ projectId: 'a', budget, maxGas: 1.5e5 + 0.5 }])).toThrow(
      'sponsorship maxGas: expected a whole number',
    )
    const fees = (value: unknown) => () => parse([{ projectId: 'a', budget, fees: value }])
    expect(fees({ maxPriorityFeePerGasGwei: 0 })).toThrow('sponsorship[0].fees.maxPriorityFeePerGasGwei')
    expect(fees({ baseFeeMultiplier: 0.5 })).toThrow('sponsorship[0].fees.baseFeeMultiplier')
    expect(fees({ maxFeePerGasGwei: '100' })).toThrow('sponsorship[0].fees.maxFeePerGasGwei')
  })

  it('lists calls by contract (or self), each once, with 4-byte selectors', () => {
    const calls = (value: unknown) => () => parse([{ projectId: 'a', budget, calls: value }])
    expect(calls([{ to: token }, { to: token.toLowerCase() }])).toThrow(
      'sponsorship calls: each contract is listed once',
    )
    expect(calls([{ to: 'sender' }])).toThrow('sponsorship[0].calls[0].to')
    expect(calls([{ to: token, selectors: ['0xa9059c'] }])).toThrow('sponsorship[0].calls[0].selectors[0]')
    expect(calls([{ to: token, selectors: [] }])).toThrow(
      'sponsorship calls selectors: expected at least one, or none named',
    )
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
