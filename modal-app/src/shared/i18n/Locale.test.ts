import { afterEach, describe, expect, it } from 'vitest'
import * as Locale from './Locale.ts'

afterEach(() => Locale.use({ locale: 'en', tag: 'en' }))

describe('negotiate', () => {
  it('takes the first requested language the modal speaks, keeping its region for Intl', () => {
    expect(Locale.negotiate(['ar-EG', 'en'])).toEqual({ locale: 'ar', tag: 'ar-EG' })
    expect(Locale.negotiate(['pl-PL', 'pt-BR', 'fr'])).toEqual({ locale: 'pt', tag: 'pt-BR' })
    expect(Locale.negotiate(['zh-Hant-TW'])).toEqual({ locale: 'zh', tag: 'zh-Hant-TW' })
  })

  it('puts the host’s locale first and skips what is absent or not a tag', () => {
    expect(Locale.negotiate([undefined, 'de-AT'])).toEqual({ locale: 'de', tag: 'de-AT' })
    expect(Locale.negotiate(['not a tag!', '', 'HE-il'])).toEqual({ locale: 'he', tag: 'he-IL' })
  })

  it('reads legacy codes as their language (iw is Hebrew)', () => {
    expect(Locale.negotiate(['iw'])).toEqual({ locale: 'he', tag: 'he' })
  })

  it('falls back to English for unknown languages or none', () => {
    expect(Locale.negotiate(['pl', 'xx-YY'])).toEqual({ locale: 'en', tag: 'en' })
    expect(Locale.negotiate([])).toEqual({ locale: 'en', tag: 'en' })
  })
})

describe('use and apply', () => {
  it('loads the catalogue of the language and lays Arabic and Hebrew out right to left', async () => {
    for (const [tag, dir] of [
      ['ar-EG', 'rtl'],
      ['he', 'rtl'],
      ['ja', 'ltr'],
      ['en', 'ltr'],
    ] as const) {
      await Locale.use(Locale.negotiate([tag]))
      const root = { lang: '', dir: '' } as HTMLElement
      Locale.apply(root)
      expect(root).toEqual({ lang: tag, dir })
      expect(Object.keys(Locale.current().catalogue).length > 0).toBe(tag !== 'en')
    }
  })
})
