/**
 * The sign-in views' own texts, beside the feature rather than in `shared/texts.ts` (the modal's first
 * chunk): they load with the views. SPEC's texts (Sign, Cancel, 'Signature declined') stay there.
 */
export const signInTexts = {
  /** Before the account's name (where it has one) and address. */
  signingAs: 'Signing in as',
} as const
