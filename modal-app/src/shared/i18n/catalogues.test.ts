/**
 * Every catalogue against the English source: the same keys (an extra one is a typo or a stale text; a
 * missing one would read in English and is listed), the same arguments, and messages the formatter reads.
 */
import { describe, expect, it } from 'vitest'
import { define, sources } from './Catalogue.ts'
import * as Locale from './Locale.ts'
import { argumentsOf, format } from './Message.ts'

// Every texts module defines its messages when it loads; texts live in modules named so.
await Promise.all(
  Object.values(import.meta.glob(['../../**/*{exts,Texts}.ts', '../Amount.ts'])).map((load) => load()),
)
const english = sources()

const catalogues = await Promise.all(
  Locale.locales
    .filter((locale) => locale !== 'en')
    .map(async (locale) => {
      await Locale.use({ locale, tag: locale })
      return [locale, Locale.current().catalogue] as const
    }),
)
await Locale.use({ locale: 'en', tag: 'en' })

describe('the English source', () => {
  it('has every texts module and parses', () => {
    expect(english.size).toBeGreaterThan(400)
    for (const [key, message] of english) expect(() => argumentsOf(message), key).not.toThrow()
  })
})

describe.each(catalogues)('the %s catalogue', (locale, catalogue) => {
  it('has exactly the English keys', () => {
    const extra = Object.keys(catalogue).filter((key) => !english.has(key))
    const missing = [...english.keys()].filter((key) => !(key in catalogue))
    expect({ extra, missing }).toEqual({ extra: [], missing: [] })
  })

  it('uses the English arguments, and each message formats', () => {
    for (const [key, message] of Object.entries(catalogue)) {
      const source = english.get(key) ?? ''
      expect(argumentsOf(message).sort(), `${locale} ${key}`).toEqual(argumentsOf(source).sort())
      const values = Object.fromEntries(argumentsOf(source).map((name) => [name, 2]))
      expect(format(message, values, locale), `${locale} ${key}`).not.toBe('')
    }
  })
})

describe('define', () => {
  it('reads each text in the language in use, English where its catalogue lacks it', async () => {
    const { texts } = await import('../texts.ts')
    const own = define('test', {
      only: 'Only English',
      count: '{n, plural, one {# wallet} other {# wallets}}',
    })
    expect([texts.close, own.only, own.count(2)]).toEqual(['Close', 'Only English', '2 wallets'])
    await Locale.use({ locale: 'ar', tag: 'ar-EG' })
    try {
      expect([texts.close, texts.walletConnect.results(2), texts.walletConnect.results(5), own.only]).toEqual(
        ['إغلاق', 'محفظتان', '٥ محافظ', 'Only English'],
      )
    } finally {
      await Locale.use({ locale: 'en', tag: 'en' })
    }
  })

  it('keeps docs/behaviour.md’s English texts exactly', async () => {
    const { texts } = await import('../texts.ts')
    expect(texts.walletConnect.results(1)).toBe('1 wallet')
    expect(texts.walletConnect.results(12)).toBe('12 wallets')
    expect(texts.errors.failedToDisconnect).toBe('Failed to disconnect')
  })
})
