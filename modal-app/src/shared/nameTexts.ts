import { define } from './i18n/Catalogue.ts'

/** Name resolution's texts (`Names.ts`); docs/behaviour.md §8's are quoted exactly. */
export const nameTexts = define('shared.names', {
  resolveFailed: 'Error resolving name',
  notFound: '{name} does not resolve to an address',
})
