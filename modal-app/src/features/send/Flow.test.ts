import { describe, expect, it } from 'vitest'
import { amountTexts } from '../../shared/Amount.ts'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import { type Context, check, type Holding } from './Flow.ts'
import { sendTexts } from './texts.ts'

// The registry's devnet: the network every journey runs on.
const network = find('eip155:31337') as Network
const from = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const alt = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const holdings: Holding[] = [
  { key: 'native', name: 'Ether', symbol: 'ETH', decimals: 18, balance: 10n ** 19n },
  { key: alt, address: alt, name: 'Airlock Test Token', symbol: 'ALT', decimals: 18, balance: 10n ** 21n },
]
const context: Context = {
  namespace: 'eip155',
  from,
  network,
  supported: true,
  holdings,
  checkAddress: (address) =>
    /^0x[0-9a-fA-F]{40}$/.test(address) ? undefined : sendTexts.invalidAddress(network.name),
}

describe('check', () => {
  it("names what is missing with the product's texts (docs/behaviour.md §8), in the product's order (docs/behaviour.md §1)", () => {
    expect(check({ asset: 'native', amount: '', to }, context)).toEqual({
      ok: false,
      error: sendTexts.required,
    })
    expect(check({ asset: 'native', amount: '1', to: '  ' }, context)).toEqual({
      ok: false,
      error: sendTexts.required,
    })
    expect(check({ asset: '', amount: '1', to }, context)).toEqual({
      ok: false,
      error: sendTexts.tokenRequired,
    })
    expect(sendTexts.required).toBe('An amount and receiver address are required')
    expect(sendTexts.tokenRequired).toBe('A token is required')
  })

  it("says 'Unsupported chain' for an account on a network the dApp did not configure, or no family", () => {
    const unsupported = { ok: false, error: 'Unsupported chain' }
    expect(check({ asset: 'native', amount: '1', to }, { ...context, network: undefined })).toEqual(
      unsupported,
    )
    expect(check({ asset: 'native', amount: '1', to }, { ...context, supported: false })).toEqual(unsupported)
  })

  it('refuses a token not held, a bad amount, a bad address, the sender itself and the token contract', () => {
    const refused = (form: { asset?: string; amount?: string; to?: string }) =>
      check({ asset: 'native', amount: '1', to, ...form }, context)
    expect(refused({ asset: '0x0000000000000000000000000000000000000001' })).toEqual({
      ok: false,
      error: sendTexts.unknownToken,
    })
    expect(refused({ amount: '1e18' })).toEqual({ ok: false, error: amountTexts.invalidAmount })
    expect(refused({ to: '0x1234' })).toEqual({
      ok: false,
      error: sendTexts.invalidAddress('Airlock Devnet A'),
    })
    expect(refused({ to: from.toLowerCase() })).toEqual({ ok: false, error: sendTexts.ownAddress })
    expect(refused({ asset: alt, to: alt.toLowerCase() })).toEqual({
      ok: false,
      error: sendTexts.tokenContract('ALT'),
    })
  })

  it('compares base58 addresses exactly, EVM ones whatever their case', () => {
    const solana = { ...context, namespace: 'solana' as const, from: 'AbC', checkAddress: () => undefined }
    expect(check({ asset: 'native', amount: '1', to: 'abc' }, solana).ok).toBe(true)
    expect(check({ asset: 'native', amount: '1', to: 'AbC' }, solana)).toEqual({
      ok: false,
      error: sendTexts.ownAddress,
    })
  })

  it('makes the draft in base units, with the asset as the family wants it', () => {
    expect(check({ asset: alt, amount: ' 42.5 ', to: ` ${to} `, feeRate: 3 }, context)).toEqual({
      ok: true,
      holding: holdings[1],
      draft: {
        from,
        to,
        asset: { symbol: 'ALT', decimals: 18, address: alt },
        amount: 42_500_000_000_000_000_000n,
        feeRate: 3,
      },
    })
  })
})
