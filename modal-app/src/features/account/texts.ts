import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * The texts of the Account tabs, NFTs and Activity. Kept beside the feature rather than in
 * `shared/texts.ts`, which is in the modal's first chunk: these load with the tabs. Documented texts (docs/behaviour.md §8; such as
 * 'Failed to fetch transactions') stay in `shared/texts.ts`.
 */
export const tabTexts = define('account.tabs', {
  label: 'Account',
  tokens: 'Tokens',
  nfts: 'NFTs',
  activity: 'Activity',
  noTokens: 'No tokens yet',
  receive: 'Receive',
  send: 'Send',
  swap: 'Swap',
  buy: 'Buy',
  chooseName: 'Choose a name for this account',
  sessions: 'App sessions',
  /** The other accounts' rows: showing one makes it the active account (nothing reconnects). */
  showAccount: 'Show the {namespace} account',
  disconnectAccount: 'Disconnect the {namespace} account',
  disconnectAll: 'Disconnect all',
})

export const nftTexts = define('account.nfts', {
  empty: 'No NFTs yet',
  notEvm: 'NFTs are shown for EVM accounts.',
  loading: 'Loading NFTs…',
  failed: 'Failed to fetch NFTs',
  showHidden: 'Show hidden ({count})',
  hideHidden: 'Hide spam',
  spam: 'Spam',
  collection: 'Collection',
  tokenId: 'Token ID',
  amount: 'Amount',
  explorer: 'View on explorer',
  back: 'All NFTs',
  loadMore: 'Load more',
})

export const activityTexts = define('account.activity', {
  empty: 'No activity yet',
  loading: 'Loading activity…',
  loadMore: 'Load more',
  today: 'Today',
  yesterday: 'Yesterday',
  from: 'From',
  to: 'To',
  operations: {
    send: 'Sent',
    receive: 'Received',
    mint: 'Minted',
    burn: 'Burned',
    trade: 'Swapped',
    execute: 'Contract call',
    approve: 'Approved',
    deploy: 'Deployed',
    buy: 'Bought',
  } as Record<string, string>,
  status: { pending: 'Pending', confirmed: 'Confirmed', failed: 'Failed' },
})

/** The Account view's header: who the account is, what it holds, where it is. */
export const headerTexts = define('account.header', {
  /** Its heading while the account has no name. */
  label: 'Your account',
  total: 'Total balance',
  wallet: 'Connected with {name}',
  explorer: 'View the address on the block explorer',
})
