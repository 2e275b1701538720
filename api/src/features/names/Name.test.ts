import { toCoinType } from 'viem'
import { describe, expect, it } from 'vitest'
import { nameTexts } from '../../contract/names.ts'
import * as Name from './Name.ts'

const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}

describe('Name.parse', () => {
  it('normalises with ENSIP-15 and splits off the suffix', () => {
    expect(Name.parse('Newcomer.airlock.id', 'airlock.id')).toEqual({
      name: 'newcomer.airlock.id',
      label: 'newcomer',
    })
    // Letters of any script count, one character each.
    expect(Name.parse('café.airlock.id', 'airlock.id').label).toBe('café')
    expect(Name.parse('日本語です.airlock.id', 'airlock.id').label).toBe('日本語です')
    expect(Name.parse('a-1-b.wcn.id', 'wcn.id').name).toBe('a-1-b.wcn.id')
  })

  it.each([
    ['abc.airlock.id', nameTexts.tooShort],
    ['ab-.airlock.id', nameTexts.tooShort],
    ['new_comer.airlock.id', nameTexts.illegal],
    ['ab--cd.airlock.id', nameTexts.illegal],
    ['🚀🚀🚀🚀.airlock.id', nameTexts.illegal],
    ['аррӏе.airlock.id', nameTexts.confusable],
    ['pаypal.airlock.id', nameTexts.confusable],
    ['newcomer.airlock.io', nameTexts.wrongSuffix('airlock.id')],
    ['airlock.id', nameTexts.wrongSuffix('airlock.id')],
  ])('refuses %s', (input, message) => {
    expect(refusal(() => Name.parse(input, 'airlock.id'))).toBe(message)
  })
})

describe('Name.chainOf', () => {
  it('reads ENSIP-11 coin types, and ENSIP-9’s 60 as Ethereum', () => {
    expect(Name.chainOf(60)).toBe('eip155:1')
    expect(Name.chainOf(Number(toCoinType(31337)))).toBe('eip155:31337')
    expect(Name.chainOf(0x8000_0000 + 2 ** 31 - 1)).toBe(`eip155:${2 ** 31 - 1}`)
  })

  it('refuses a chain id of 2^31 or more, and coin types of other families', () => {
    expect(refusal(() => Name.chainOf(0x8000_0000 + 2 ** 31))).toBe('Invalid chainId')
    expect(refusal(() => Name.chainOf(0))).toBe('Chain is not supported')
    expect(refusal(() => Name.chainOf(501))).toBe('Chain is not supported')
  })
})

describe('Name.variants', () => {
  it('offers digits first, then other forms', () => {
    expect(Name.variants('newcomer').slice(0, 6)).toEqual([
      'newcomer1',
      'newcomer2',
      'newcomer3',
      'thenewcomer',
      'newcomerhq',
      'newcomer-id',
    ])
  })

  it('leaves a wanted whole name whole', () => {
    expect(Name.whole('newcomer', 'airlock.id')).toBe('newcomer.airlock.id')
    expect(Name.whole('Newcomer.Airlock.id', 'airlock.id')).toBe('Newcomer.Airlock.id')
  })
})
