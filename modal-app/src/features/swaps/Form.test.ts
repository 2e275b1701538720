import type * as Contract from '@airlock/api/contract'
import { describe, expect, it } from 'vitest'
import type * as Api from '../../api/Api.ts'
import { amountTexts } from '../../shared/Amount.ts'
import { matches } from '../../shared/ui/choices.ts'
import { check, emptyForm, type Form, slippageOf, tokenOptions, tokensOf } from './Form.ts'
import { swapTexts } from './texts.ts'

const chainId = 'eip155:31337'
const eth = `${chainId}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`
const alt = `${chainId}:0x5FbDB2315678afecb367f032d93F642f64180aa3`
const usd = `${chainId}:0x0000000000000000000000000000000000000abc`

const listed = (address: string, symbol: string, decimals: number, price: number): Contract.SwapToken => ({
  name: `${symbol} token`,
  symbol,
  chainId,
  address,
  value: 0,
  price,
  quantity: { decimals: String(decimals), numeric: '0' },
  decimals,
  logoUri: '',
  eip2612: false,
})

const held = (address: string | undefined, numeric: string, decimals: number): Api.TokenBalance => ({
  name: 'x',
  symbol: 'x',
  chainId,
  ...(address ? { address } : {}),
  value: 0,
  price: 0,
  quantity: { decimals: String(decimals), numeric },
  iconUrl: '',
})

const tokens = tokensOf(
  [listed(eth, 'ETH', 18, 3000), listed(alt, 'ALT', 18, 1.25), listed(usd, 'tUSD', 6, 1)],
  // The balance route writes addresses in any case: matched whatever it is.
  [held(undefined, '2.5', 18), held(alt.toLowerCase(), '1000', 18)],
)

const form = (fields: Partial<Form>): Form => ({ ...emptyForm, from: eth, to: alt, amount: '1', ...fields })

describe('tokensOf', () => {
  it('puts the tokens held first, by worth, with their balances in base units', () => {
    expect(tokens.map((token) => [token.symbol, token.balance])).toEqual([
      ['ETH', 2_500_000_000_000_000_000n],
      ['ALT', 1_000_000_000_000_000_000_000n],
      ['tUSD', 0n],
    ])
    expect(tokens[0]?.native).toBe(true)
    expect(tokens[1]?.native).toBe(false)
  })
})

describe('tokenOptions', () => {
  const options = tokenOptions(tokens)
  const found = (query: string) =>
    options.filter((option) => matches(option, query)).map((option) => option.label)

  it('lists each token with its balance where the account holds some, and its icon or a monogram', () => {
    expect(options.map((option) => [option.label, option.amount])).toEqual([
      ['ETH', '2.500'],
      ['ALT', '1,000.000'],
      ['tUSD', undefined],
    ])
    expect(options[0]?.icon).toEqual({ url: undefined, seed: eth })
  })

  it('finds by symbol or name in any case, and by the pasted contract address', () => {
    expect(found('tu')).toEqual(['tUSD'])
    expect(found('ALT TOKEN')).toEqual(['ALT'])
    expect(found('0x5fbdb2315678afecb367f032d93f642f64180aa3')).toEqual(['ALT'])
    expect(found(`0x${'1'.repeat(40)}`)).toEqual([])
    expect(found('  ')).toHaveLength(3)
  })
})

describe('check', () => {
  it('asks the pools for the typed side in its token’s base units', () => {
    expect(check(form({ amount: '1.5' }), tokens)).toMatchObject({
      ok: true,
      ask: { side: 'from', amount: 1_500_000_000_000_000_000n },
      slippage: '1',
    })
    expect(check(form({ to: usd, side: 'to', amount: '12.25' }), tokens)).toMatchObject({
      ok: true,
      ask: { side: 'to', amount: 12_250_000n },
    })
  })

  it('refuses missing or equal tokens, bad amounts, more than the balance and an odd slippage', () => {
    const refused = (fields: Partial<Form>) => check(form(fields), tokens)
    expect(refused({ to: undefined })).toEqual({ ok: false, error: swapTexts.chooseTokens })
    expect(refused({ to: `${unknownAddress}` })).toEqual({ ok: false, error: swapTexts.chooseTokens })
    expect(refused({ to: eth })).toEqual({ ok: false, error: swapTexts.sameToken })
    expect(refused({ amount: '' })).toEqual({ ok: false, error: amountTexts.invalidAmount })
    expect(refused({ amount: '0' })).toEqual({ ok: false, error: amountTexts.zeroAmount })
    expect(refused({ amount: '-1' })).toEqual({ ok: false, error: amountTexts.invalidAmount })
    expect(refused({ to: usd, side: 'to', amount: '0.0000001' })).toEqual({
      ok: false,
      error: amountTexts.tooManyDecimals('tUSD', 6),
    })
    expect(refused({ amount: '2.500000000000000001' })).toEqual({
      ok: false,
      error: swapTexts.insufficient('ETH'),
    })
    // What is received is not bounded by a balance.
    expect(refused({ side: 'to', amount: '1000000' }).ok).toBe(true)
    expect(refused({ slippage: '0' })).toEqual({ ok: false, error: swapTexts.invalidSlippage })
    expect(refused({ slippage: '51' })).toEqual({ ok: false, error: swapTexts.invalidSlippage })
  })
})

const unknownAddress = `${chainId}:0x${'9'.repeat(40)}`

describe('slippageOf', () => {
  it('takes 0.01 to 50 percent, with a point or a comma', () => {
    expect(slippageOf('0.5')).toBe('0.5')
    expect(slippageOf('0,5')).toBe('0.5')
    expect(slippageOf('50')).toBe('50')
    expect(slippageOf('0.01')).toBe('0.01')
    expect(slippageOf('0.001')).toBeUndefined()
    expect(slippageOf('1e1')).toBeUndefined()
    expect(slippageOf('')).toBeUndefined()
  })
})
