import { define } from '../../shared/i18n/Catalogue.ts'

/** The calls view's title: the first chunk names every view's title, the rest of its texts load with it. */
export const callsTitleTexts = define('calls', { title: 'Calls' })
