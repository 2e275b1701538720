import { describe, expect, it } from 'vitest'
import { argumentsOf, format, MessageError, type Params } from './Message.ts'

const wallets = '{count, plural, one {# wallet} other {# wallets}}'
// Arabic's six plural categories, as CLDR names them.
const arabic =
  '{count, plural, zero {لا محافظ} one {محفظة واحدة} two {محفظتان} few {# محافظ} many {# محفظة} other {# من المحافظ}}'

describe('format', () => {
  it('substitutes arguments by name, wherever the translation puts them', () => {
    expect(format('Continue in {wallet}', { wallet: 'Rabby' }, 'en')).toBe('Continue in Rabby')
    expect(format('{wallet} で続行', { wallet: 'Rabby' }, 'ja')).toBe('Rabby で続行')
    expect(format('{b} then {a}, {b}', { a: 1, b: 'x' }, 'en')).toBe('x then 1, x')
  })

  it('picks the plural branch of the locale, with # as the number in its digits', () => {
    expect(format(wallets, { count: 1 }, 'en')).toBe('1 wallet')
    expect(format(wallets, { count: 0 }, 'en')).toBe('0 wallets')
    expect(format(wallets, { count: 1200 }, 'en')).toBe('1,200 wallets')
    expect(format(wallets, { count: 3 }, 'de')).toBe('3 wallets')
  })

  it('knows all six of Arabic plural categories', () => {
    const forms = [0, 1, 2, 3, 11, 100].map((count) => format(arabic, { count }, 'ar-EG'))
    expect(forms).toEqual(['لا محافظ', 'محفظة واحدة', 'محفظتان', '٣ محافظ', '١١ محفظة', '١٠٠ من المحافظ'])
    // A region that writes Latin digits keeps them.
    expect(format(arabic, { count: 3 }, 'ar-MA')).toBe('3 محافظ')
  })

  it('prefers an exact =n branch to the category', () => {
    const decimals = '{n, plural, =0 {{symbol} has no decimals} other {{symbol} has at most # decimals}}'
    expect(format(decimals, { n: 0, symbol: 'NFT' }, 'en')).toBe('NFT has no decimals')
    expect(format(decimals, { n: 1, symbol: 'X' }, 'en')).toBe('X has at most 1 decimals')
  })

  it('selects by value, and an absent or empty value picks none', () => {
    const fails = 'fails{reason, select, none {.} other {: {reason}}}'
    expect(format(fails, { reason: 'out of gas' }, 'en')).toBe('fails: out of gas')
    expect(format(fails, { reason: undefined }, 'en')).toBe('fails.')
    expect(format(fails, { reason: '' }, 'en')).toBe('fails.')
  })

  it('formats {n, number} in the locale, and leaves a simple argument as given', () => {
    expect(format('{n, number} / {n}', { n: 1234.5 }, 'de')).toBe('1.234,5 / 1234.5')
  })

  it('refuses what is not in the subset, naming the message', () => {
    for (const bad of ['{', 'a } b', '{a b}', '{n, plural, one {x}}', '{n, date}', '{n, plural, one x}'])
      expect(() => format(bad, {}, 'en'), bad).toThrow(MessageError)
  })
})

describe('argumentsOf', () => {
  it('lists the arguments in the order they first appear, nested ones included', () => {
    expect(argumentsOf('Transfer {amount} of token {mint} to {to}')).toEqual(['amount', 'mint', 'to'])
    expect(argumentsOf(`${wallets} for {who}, {count}`)).toEqual(['count', 'who'])
    expect(argumentsOf('{p, select, none {as {who}} other {as {who} with {p}}}')).toEqual(['p', 'who'])
    expect(argumentsOf('No arguments, # here')).toEqual([])
  })
})

describe('Params', () => {
  it('types a message’s parameters from the message itself', () => {
    const check = <S extends string>(_message: S, ..._args: Params<S>) => true
    expect(check('Continue in {wallet}', 'Rabby')).toBe(true)
    expect(check(wallets, 2)).toBe(true)
    expect(check('{a} and {b}', 'x', 1)).toBe(true)
    expect(check('{reason, select, none {} other {{reason}}}', undefined)).toBe(true)
    // @ts-expect-error: a missing argument does not compile
    expect(check('Continue in {wallet}')).toBe(true)
    // @ts-expect-error: a plural's argument is a number
    expect(check(wallets, 'two')).toBe(true)
    // @ts-expect-error: nor does one too many
    expect(check('Close', 'extra')).toBe(true)
  })
})
