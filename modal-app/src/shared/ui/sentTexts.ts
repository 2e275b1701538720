import { define } from '../i18n/Catalogue.ts'

/** A sent transaction's result's texts (`Sent.tsx`). */
export const sentTexts = define('shared.sent', {
  explorer: 'View on explorer',
  newTab: '(opens in a new tab)',
  done: 'Done',
  tryAgain: 'Try again',
})
