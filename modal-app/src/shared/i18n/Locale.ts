/**
 * The modal's language: which of its catalogues fits the visitor, loading that one (English, the source,
 * is in the texts modules themselves), and the tag numbers and dates are written for.
 */

/** The languages the modal speaks, English first (the source and the fallback). */
export const locales = ['en', 'ar', 'de', 'es', 'fr', 'he', 'ja', 'ko', 'pt', 'ru', 'tr', 'zh'] as const
type Locale = (typeof locales)[number]

/** A catalogue: messages by key (`core.connect.title`); a key it lacks reads in English. */
type Catalogue = Readonly<Record<string, string>>

/**
 * A locale's file (`locales/<locale>.json`, data the translators edit): its messages nested as the texts
 * modules nest them (`{ "core": { "connect": { "title": … } } }`).
 */
type Translations = { readonly [key: string]: string | Translations }

const rightToLeft: ReadonlySet<Locale> = new Set(['ar', 'he'])

// One chunk per language, fetched only for the visitor's.
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Translations }>> = {
  ar: () => import('./locales/ar.json'),
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
  fr: () => import('./locales/fr.json'),
  he: () => import('./locales/he.json'),
  ja: () => import('./locales/ja.json'),
  ko: () => import('./locales/ko.json'),
  pt: () => import('./locales/pt.json'),
  ru: () => import('./locales/ru.json'),
  tr: () => import('./locales/tr.json'),
  zh: () => import('./locales/zh.json'),
}

/** What the visitor is shown in: the catalogue's language and the tag for `Intl` (`ar-EG` keeps Egypt's digits). */
export type Match = { locale: Locale; tag: string }

/**
 * The first of the requested tags (the host's `locale`, then the browser's `navigator.languages`) whose
 * language the modal speaks; English when none is.
 * @example negotiate(['pl-PL', 'ar-EG', 'en']) // { locale: 'ar', tag: 'ar-EG' }
 */
export function negotiate(requested: readonly (string | undefined)[]): Match {
  for (const tag of requested) {
    if (!tag) continue
    let parsed: Intl.Locale
    try {
      // The canonical form maps legacy codes too (`iw` is Hebrew).
      parsed = new Intl.Locale(tag)
    } catch {
      continue
    }
    const locale = locales.find((known) => known === parsed.language)
    if (locale) return { locale, tag: parsed.toString() }
  }
  return { locale: 'en', tag: 'en' }
}

let active: Match & { catalogue: Catalogue } = { locale: 'en', tag: 'en', catalogue: {} }

/** The language in use, its `Intl` tag and its catalogue. */
export function current(): Readonly<typeof active> {
  return active
}

/**
 * Switches to `match`, once its catalogue is in. A catalogue that cannot load (offline, a stale deployment)
 * leaves the modal in English, as a whole: texts, `lang` and `dir` agree.
 */
export async function use(match: Match): Promise<void> {
  if (match.locale === 'en') {
    active = { ...match, catalogue: {} }
    return
  }
  try {
    active = { ...match, catalogue: flatten((await loaders[match.locale]()).default) }
  } catch {
    active = { locale: 'en', tag: 'en', catalogue: {} }
  }
}

/** Marks `root` with the language in use, so the browser mirrors the layout and reads the text right. */
export function apply(root: HTMLElement): void {
  root.lang = active.tag
  root.dir = rightToLeft.has(active.locale) ? 'rtl' : 'ltr'
}

function flatten(tree: Translations, prefix = '', into: Record<string, string> = {}): Catalogue {
  for (const [name, value] of Object.entries(tree))
    if (typeof value === 'string') into[prefix + name] = value
    else flatten(value, `${prefix}${name}.`, into)
  return into
}
