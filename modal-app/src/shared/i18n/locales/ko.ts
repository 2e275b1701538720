import type { Translations } from '../Locale.ts'

export default {} satisfies Translations
