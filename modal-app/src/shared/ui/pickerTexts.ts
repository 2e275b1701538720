/** The Picker's texts, beside it so they load with the forms that draw one. */
import { define } from '../i18n/Catalogue.ts'

export const pickerTexts = define('picker', {
  search: 'Search',
  recent: 'Recent',
  noMatch: 'Nothing matches',
})
