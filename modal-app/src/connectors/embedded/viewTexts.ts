import { define } from '../../shared/i18n/Catalogue.ts'

/** The embedded wallet's texts in its views and messages, loaded with them. */
export const viewTexts = define('embedded.views', {
  walletName: 'Airlock wallet',
  code: {
    sent: 'Enter the 6-digit code sent to {email}.',
    label: 'Code',
    verifying: 'Checking the code…',
    resend: 'Resend code',
    resendIn: 'Resend code in {seconds} s',
    resent: 'A new code is on its way.',
    mailHint: 'It expires in 10 minutes. Check your spam folder if it does not arrive.',
  },
  farcaster: {
    scan: 'Scan with your phone’s camera, or open the link in your Farcaster app, and approve the sign-in there.',
    qr: 'QR code of the Farcaster sign-in link',
    open: 'Open in Farcaster',
    waiting: 'Waiting for your approval in Farcaster…',
    expired: 'The sign-in request expired. Try again.',
  },
  social: {
    waiting: 'Finish logging in with {provider} in the window that opened.',
    retry: 'Try again',
  },
  wallet: {
    opening: 'Opening your wallet…',
    createIntro:
      'Choose a recovery password. You will need it to use this wallet on another browser; Airlock cannot reset it.',
    recoverIntro: 'This browser does not know your wallet yet. Enter the recovery password you chose.',
    password: 'Recovery password',
    confirm: 'Repeat the recovery password',
    tooShort: 'Use at least {min} characters.',
    mismatch: 'The two passwords differ.',
    wrong: 'This recovery password does not open the wallet.',
    create: 'Create wallet',
    recover: 'Unlock wallet',
    working: 'Working…',
    keepIntro:
      'This browser keeps nothing for Airlock inside other sites. A window of Airlock can keep your login, so you stay signed in here.',
    keep: 'Keep me signed in',
    notNow: 'Not now',
    notKept: 'The login could not be kept: the window was blocked or closed.',
  },
  settings: {
    loggedIn: [
      '{provider, select, none {Logged in as {who}.} other {Logged in as {who} with {provider}.}}',
      'who',
      'provider',
    ],
    accountTitle: 'Account type',
    accountIntro:
      'The account apps see on EVM networks. Your key and recovery phrase stay the same whichever you choose.',
    accountTypes: {
      smartAccount: 'Smart account',
      eip7702: 'Smart account at your own address (EIP-7702)',
      eoa: 'Standard account',
    },
    accountHints: {
      smartAccount:
        'A contract account your key controls, at an address of its own: not your standard address, and funds there do not move with it. Apps may pay its network fees, and it runs several calls at once. It is deployed with its first transaction.',
      eip7702:
        'Your standard address itself becomes a smart account with its first transaction: the address stays the same, with the same batches and paid fees.',
      eoa: 'Your key’s own address, as other wallets show it: each call is a transaction of its own, paid in ETH.',
    },
    phraseTitle: 'Recovery phrase',
    phraseIntro:
      'These 24 words rebuild this wallet in any wallet app, with no Airlock involved. Anyone who sees them can take its funds: write them down where only you can read them.',
    phraseList: 'Your recovery phrase',
    show: 'Show recovery phrase',
    hide: 'Hide recovery phrase',
    emailTitle: 'Email',
    change: 'Change email',
    cancelChange: 'Cancel',
    newEmail: 'New email',
    sendCode: 'Send code',
    currentCode: 'Enter the code sent to your current address, {email}.',
    newCode: 'Enter the code sent to {email}.',
    confirmCode: 'Confirm',
    changed: 'Your email is now {email}.',
    forgetTitle: 'This browser',
    forgetIntro:
      'Signing out keeps this browser’s part of the key, so the next login here needs no password. To leave nothing behind, forget this browser: the next login here will ask for your recovery password.',
    forget: 'Sign out and forget this browser',
    confirmForget: 'Forget this browser?',
    confirm: 'Forget it',
    cancel: 'Cancel',
  },
  initFailed: 'A problem occurred while trying initialize authentication',
  /** The wallet's requests to the Airlock service (`Account.ts`); SPEC §8's texts. */
  account: {
    timeout: 'Request was aborted',
    unreachable: 'The Airlock service could not be reached. Check your connection and try again.',
    unexpected: 'Something went wrong',
  },
})
