/**
 * Every text the user reads, in one place, in English: the source the catalogues of `i18n/locales/`
 * translate (`define`). Where docs/behaviour.md names a text, it is quoted exactly.
 */
import { Errors } from '@airlock/bridge-protocol'
import { define } from './i18n/Catalogue.ts'

export const texts = define('core', {
  alerts: {
    invalidAppConfiguration: 'Invalid App Configuration',
    invalidAppConfigurationDetail:
      'This site is not allowed to use this project. Check the project’s allowed origins.',
    projectIdNotConfigured: 'Project ID Not Configured',
    projectIdNotConfiguredDetail:
      'This project id is unknown to the modal. Check the projectId passed to Airlock.',
    invalidConfig: 'Invalid Configuration',
    refusedVersion: 'The host SDK and the modal speak different protocol versions.',
    refusedProject: 'The host SDK asked for another project than the modal was loaded with.',
  },
  /** What the developer of a refused page reads in the console (the host logs it, with the fix): English. */
  refusals: {
    project: (id: string) => `Project '${id}' is not configured.`,
    origin: (origin: string, id: string) => `Origin ${origin} is not allowed for project '${id}'.`,
    unreachable: (id: string) => `The Airlock API could not be reached to check project '${id}'.`,
    allow: (id: string, origin: string) =>
      `Allow it where the API runs: npx airlock-api project add ${id} ${origin}`,
    reach: (api: string) => `Check that the Airlock API at ${api} is running and reachable from the modal.`,
  },
  /** The notice a project that records usage shows before anything is recorded (`core/Analytics.ts`). */
  analytics: {
    notice: 'This site records how this dialog is used, to improve it.',
    decline: 'Don’t share',
    dismiss: 'OK',
    label: 'Usage data',
  },
  guard: {
    unverified: 'Airlock cannot confirm that it is fully visible on this page, so approving here is off.',
    continueInWindow: 'Continue in a new window',
    windowBlocked: 'The window was blocked. Allow pop-ups for this site and try again.',
    cancel: 'Cancel',
    waiting: 'Available once this has been fully visible for a moment.',
  },
  close: 'Close',
  back: 'Back',
  connect: {
    title: 'Connect Wallet',
    wantsToConnect: 'wants to connect',
    noWallets: 'No wallets were found on this page. Install a browser wallet and reload.',
    recent: 'Recent',
    walletList: 'Wallets',
    installed: 'Installed',
    popular: 'Popular',
    newToWallets: 'New to wallets?',
    whatIsWallet:
      'A wallet holds your crypto and signs in for you, in place of a password. Pick one, install it, then come back here.',
    getWallet: 'Get a wallet',
    continueWithWallet: 'Continue with a wallet',
    agree: 'I agree to the terms of service and the privacy policy',
    terms: 'Terms of Service',
    privacy: 'Privacy Policy',
  },
  connecting: {
    continueIn: 'Continue in {wallet}',
    accept: 'Accept connection request in the wallet',
    declined: 'Connection declined',
    declinedDetail: 'Connection can be declined if a previous request is still active',
    failed: 'Connection failed',
    tryAgain: 'Try again',
  },
  account: {
    title: 'Account',
    copy: 'Copy address',
    copied: 'Address copied',
    copyFailed: 'Failed to copy address',
    explorer: 'Block explorer',
    newTab: '(opens in a new tab)',
    disconnect: 'Disconnect',
    balance: 'Balance',
    tokens: 'Tokens',
    network: 'Network',
    alsoConnected: 'Also connected',
  },
  // The Account tabs' and Receive's own texts are in their folders (`features/account/texts.ts`,
  // `features/receive/texts.ts`), so they load with those chunks, not with the first.
  receive: { title: 'Receive' },
  onramp: { title: 'Buy', statusTitle: 'Your purchase' },
  send: { title: 'Send', previewTitle: 'Review' },
  swap: { title: 'Swap', previewTitle: 'Review Swap' },
  names: { title: 'Choose a Name', successTitle: 'Name Registered' },
  networks: {
    title: 'Choose Network',
    switching: 'Switching to {network}…',
    switched: 'Switched to {network}',
    failed: 'Failed to switch network',
    testnet: 'Testnet',
    notInWallet: '{wallet} does not support {network}.',
  },
  unsupportedChain: {
    title: 'Switch Network',
    detail: 'This app doesn’t support your current network. Switch to an available option to continue.',
    /** The wallet's chain by name when the modal knows it, else by its CAIP-2 id. */
    current:
      'Your wallet is on {network}, which this app doesn’t support. Switch to an available option to continue.',
    /** On Account, where the host leaves such a wallet where it is (allowUnsupportedChain, enableNetworkSwitch). */
    stays: 'Your wallet is on {network}, which this app doesn’t support.',
  },
  walletConnect: {
    name: 'WalletConnect',
    tag: 'QR code',
    scan: 'Scan this QR code with your phone',
    scanWith: 'Scan this QR code with {wallet}',
    qrLabel: 'WalletConnect QR code',
    copyLink: 'Copy link',
    linkCopied: 'Link copied',
    copyFailed: 'Failed to copy link',
    openApp: 'Open {wallet}',
    openDesktop: 'Open {wallet} for desktop',
    openWeb: 'Open {wallet} in the browser',
    waiting: 'Waiting for your wallet to approve…',
    preparing: 'Preparing the connection…',
    failed: 'Connection failed',
    tryAgain: 'Try again',
    allWallets: 'All Wallets',
    search: 'Search wallet',
    noResults: 'No wallet found',
    results: '{count, plural, one {# wallet} other {# wallets}}',
    loading: 'Loading wallets…',
    unavailable: 'The wallet list is unavailable right now.',
    noUri: 'WalletConnect gave no pairing link.',
    notConfigured: 'WalletConnect is not configured: pass walletConnectProjectId to Airlock.',
    via: 'Connected through Airlock',
    notText: 'This wallet signs text messages only.',
    notKept:
      'This browser lets Airlock keep nothing on this site, so this WalletConnect session ends with the page.',
    keep: 'Keep it in a window',
    kept: 'Session kept',
    restore: 'Restore WalletConnect session',
    restoreFailed: 'The kept session has ended',
  },
  signIn: {
    title: 'Sign In',
    wantsYouToSignIn: 'wants you to sign in with your wallet',
    explain: 'Sign this message to prove you own this wallet. It costs nothing and sends no transaction.',
    sign: 'Sign',
    signing: 'Waiting for your signature…',
    cancel: 'Cancel',
    disconnect: 'Disconnect',
    // The texts wallets and dApps already know from other wallet kits.
    declined: 'Signature declined',
    notEnabled: 'SIWX is not enabled',
    noAccount: 'No ActiveCaipAddress found',
  },
  namespaces: { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin' },
  errors: {
    failedToDisconnect: 'Failed to disconnect',
    tokenBalanceUnavailable: 'Token Balance Unavailable',
    transactionsUnavailable: 'Failed to fetch transactions',
    noAccountForTransactions: "Transactions can't be fetched without an accountAddress",
    // The wallets' own EIP-1193 text, so the snackbar says what the dApp's error says.
    userRejected: Errors.messages[4001],
    fallback: 'An error occurred',
    // What the dApp's developer reads in the error: English.
    invalidConfig: (detail: string) => `Invalid Airlock configuration: ${detail}`,
    walletTimeout: 'The wallet did not answer in time.',
    unexpectedAnswer: (method: string) => `The wallet answered ${method} with something unexpected.`,
  },
})
