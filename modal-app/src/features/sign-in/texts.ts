import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * The sign-in views' own texts, beside the feature rather than in `shared/texts.ts` (the modal's first
 * chunk): they load with the views. The product's texts (docs/behaviour.md §8; Sign, Cancel, 'Signature declined') stay there.
 */
export const signInTexts = define('signIn', {
  /** Before the account's name (where it has one) and address. */
  signingAs: 'Signing in as',
  /** The message preview: its name for screen readers, then its fields (EIP-4361's, in plain words). */
  preview: 'The message you sign',
  domain: 'Website',
  address: 'Account',
  statement: 'Statement',
  chain: 'Network',
  issued: 'Issued',
  expires: 'Expires',
})
