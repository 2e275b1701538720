import * as S from '@airlock/bridge-protocol/Shape'
import { describe, expect, it } from 'vitest'
import * as Contract from '../../contract/index.ts'

const parse = (value: unknown) => S.parse(Contract.emailAddress, value)

describe('Contract.emailAddress', () => {
  it('takes the addresses people use, trimmed, in lower case', () => {
    expect(parse('ada@example.com')).toEqual({ ok: true, value: 'ada@example.com' })
    expect(parse(' Ada.Lovelace@Example.CO.uk ')).toEqual({ ok: true, value: 'ada.lovelace@example.co.uk' })
    expect(parse('ada@example.com\n')).toEqual({ ok: true, value: 'ada@example.com' })
    for (const address of [
      'first.last+tag@sub.domain.example',
      "o'brien@example.ie",
      'x@a-b.example',
      'user_name-1@xn--bcher-kva.example',
      'user@example.xn--p1ai',
      '1234567890@digits.example',
      "!#$%&'*+/=?^_`{|}~-@example.com",
    ])
      expect(parse(address)).toEqual({ ok: true, value: address })
  })

  it('spells one mailbox one way, whatever the case of its local part or domain', () => {
    const spellings = ['Ada@x.test', 'ada@x.test', 'ADA@X.TEST', 'aDa@X.test']
    for (const spelling of spellings) expect(parse(spelling)).toEqual({ ok: true, value: 'ada@x.test' })
    expect(parse("O'Brien+Tag@Example.IE")).toEqual({ ok: true, value: "o'brien+tag@example.ie" })
  })

  it("refuses malformed addresses with 'Invalid email'", () => {
    const refused = { ok: false, message: 'Invalid email' }
    for (const address of [
      '',
      'ada',
      'ada@',
      '@example.com',
      'ada@@example.com',
      'ada@example',
      'ada@localhost',
      'ada@127.0.0.1',
      'ada@[127.0.0.1]',
      '.ada@example.com',
      'ada.@example.com',
      'a..da@example.com',
      '"ada"@example.com',
      'a da@example.com',
      'ada@exa mple.com',
      'ada@-example.com',
      'ada@example-.com',
      'ada@example..com',
      'ada@example.c',
      'ada@example.123',
      'adà@example.com',
      'ada@exämple.com',
      'ada@example.com\r\nBcc: eve@example.com',
      'ada@example.com, eve@example.com',
      'Ada <ada@example.com>',
      `${'a'.repeat(65)}@example.com`,
      `ada@${'a'.repeat(64)}.com`,
      `ada@${`${'a'.repeat(60)}.`.repeat(5)}com`,
      `${'a'.repeat(64)}@${`${'b'.repeat(60)}.`.repeat(3)}example.com`,
    ])
      expect(parse(address), address).toEqual(refused)
    for (const value of [undefined, null, 42, ['ada@example.com'], { email: 'ada@example.com' }])
      expect(parse(value)).toEqual(refused)
  })

  it('takes 254 characters, not 255', () => {
    const domain = `${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(57)}.com`
    const longest = `${'a'.repeat(254 - domain.length - 1)}@${domain}`
    expect(longest).toHaveLength(254)
    expect(parse(longest)).toEqual({ ok: true, value: longest })
    expect(parse(`a${longest}`)).toEqual({ ok: false, message: 'Invalid email' })
  })
})

describe('Contract.oneTimeCode', () => {
  it("takes 6 digits and nothing else, with 'Invalid code'", () => {
    expect(S.parse(Contract.oneTimeCode, '012345')).toEqual({ ok: true, value: '012345' })
    for (const value of ['12345', '1234567', '12345a', ' 123456', '١٢٣٤٥٦', 123456, undefined])
      expect(S.parse(Contract.oneTimeCode, value)).toEqual({ ok: false, message: 'Invalid code' })
  })
})
