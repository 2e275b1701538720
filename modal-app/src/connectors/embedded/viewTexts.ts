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
    passkeyIntro:
      'Protect your wallet with a passkey. You will use it to open this wallet on another browser or device; neither Airlock nor anyone who reads your email can open it without your passkey.',
    passkeyCreate: 'Protect with a passkey',
    passkeyRecoverIntro: 'This browser does not know your wallet yet. Use the passkey that protects it.',
    passkeyUnlock: 'Unlock with passkey',
    usePassword: 'Use a recovery password instead',
    passkeyCancelled: 'The passkey was not used. Try again.',
    noPrf:
      'This passkey cannot protect a wallet (its authenticator has no PRF support). Choose a recovery password instead.',
    wrongPasskey: 'This passkey does not unlock the wallet.',
    orPassword: 'Or enter your recovery password',
    createIntro:
      'Choose a recovery password. You will need it to use this wallet on another browser; Airlock cannot reset it. Use several unrelated words: anyone who gets your email could try to guess it.',
    recoverIntro: 'This browser does not know your wallet yet. Enter the recovery password you chose.',
    password: 'Recovery password',
    confirm: 'Repeat the recovery password',
    tooShort: 'Use at least {min} characters.',
    mismatch: 'The two passwords differ.',
    wrong: 'This recovery password does not open the wallet.',
    weak: 'This password is too easy to guess. {reason}',
    weakness: {
      straightRow: 'Rows of keys are easy to guess.',
      keyPattern: 'Short keyboard patterns are easy to guess.',
      simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
      extendedRepeat: 'Repeated character patterns like "abcabcabc" are easy to guess.',
      sequences: 'Common character sequences like "abc" are easy to guess.',
      recentYears: 'Recent years are easy to guess.',
      dates: 'Dates are easy to guess.',
      topTen: 'This is one of the most used passwords.',
      topHundred: 'This is a frequently used password.',
      common: 'This is a commonly used password.',
      similarToCommon: 'This is similar to a commonly used password.',
      wordByItself: 'Single words are easy to guess.',
      namesByThemselves: 'Single names or surnames are easy to guess.',
      commonNames: 'Common names and surnames are easy to guess.',
      userInputs: 'It contains your email or the name of this service.',
      other: 'Add more unrelated words.',
    } as Record<string, string>,
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
    passkeyTitle: 'Passkey',
    passkeyOn: 'A passkey protects this wallet: open it on another browser with a login and your passkey.',
    passkeyOff:
      'A recovery password protects this wallet. A passkey is safer: nobody can guess it, even with your email.',
    addPasskey: 'Protect with a passkey',
    addPasskeyPassword: 'Enter your recovery password to move the wallet to a passkey',
    passkeyAdded: 'A passkey now protects this wallet.',
    dropPassword: 'Remove the recovery password',
    dropIntro:
      'Your passkey also opens this wallet. Removing the recovery password leaves your passkey (and this browser) as the only ways in.',
    passwordDropped: 'The recovery password is removed: only your passkey recovers this wallet now.',
    phraseWarnings: {
      anyone: 'Anyone who sees these words can take everything in this wallet.',
      never: 'Airlock will never ask for them. Do not type them into any website or share them with anyone.',
      paper:
        'Write them down on paper and keep them where only you can find them; not in a screenshot or email.',
    },
    phraseUnderstand: 'I understand: whoever has these words has my wallet.',
    phraseCheck: 'Confirm with your passkey',
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
      'Signing out keeps this browser’s part of the key, so the next login here needs no passkey or password. To leave nothing behind, forget this browser: the next login here will ask for your passkey or recovery password.',
    forget: 'Sign out and forget this browser',
    confirmForget: 'Forget this browser?',
    confirm: 'Forget it',
    cancel: 'Cancel',
  },
  /** What the approval window shows when the passkey runs there (its page did not let the frame). */
  passkeyWindow: {
    title: 'Airlock wallet',
    create: 'Create a passkey that protects your Airlock wallet.',
    get: 'Use your passkey for your Airlock wallet.',
    action: 'Continue with passkey',
    cancel: 'Cancel',
  },
  passkeyLogin: {
    failed: 'The passkey sign-in did not complete.',
  },
  initFailed: 'A problem occurred while trying initialize authentication',
  /** The wallet's requests to the Airlock service (`Account.ts`); docs/behaviour.md §8's texts. */
  account: {
    timeout: 'Request was aborted',
    unreachable: 'The Airlock service could not be reached. Check your connection and try again.',
    unexpected: 'Something went wrong',
  },
})
