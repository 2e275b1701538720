import type { Catalogue } from '../Locale.ts'

export default {} satisfies Catalogue
