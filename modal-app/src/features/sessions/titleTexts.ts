import { define } from '../../shared/i18n/Catalogue.ts'

/** The views' titles: the first chunk names every view's title, the rest of the texts load with the views. */
export const sessionTitleTexts = define('sessions', { grantTitle: 'Grant permission', listTitle: 'Sessions' })
