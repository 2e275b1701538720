import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * The embedded wallet's texts that the first chunk carries: Connect's rows and the views' headings. The views'
 * own texts load with them (`viewTexts.ts`).
 */
export const embeddedTexts = define('embedded', {
  approveTitle: 'Approve Transaction',
  email: 'Email',
  emailPlaceholder: 'you@example.com',
  continueWithEmail: 'Continue with email',
  continue: 'Continue',
  passkeyLogin: 'Sign in with a passkey',
  sending: 'Sending…',
  socialList: 'Continue with a social account',
  continueWith: 'Continue with {provider}',
  providers: {
    google: 'Google',
    github: 'GitHub',
    apple: 'Apple',
    facebook: 'Facebook',
    x: 'X',
    discord: 'Discord',
    farcaster: 'Farcaster',
  } as Record<string, string>,
  codeTitle: 'Confirm email',
  walletTitle: { create: 'Protect your wallet', recover: 'Unlock your wallet', keep: 'Stay signed in' },
  restore: 'Continue with your saved login',
  settingsTitle: 'Your Airlock wallet',
  settingsRow: 'Airlock wallet: {who}',
  unavailable: 'Unable to load email login dependency',
})
