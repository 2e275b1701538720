import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * ApproveTransaction's texts: the view's own and the preview's (titles, row labels, warnings), beside the
 * embedded wallet so they load with its chunk.
 */
export const approveTexts = define('embedded.approve', {
  asks: 'asks you to',
  approve: 'Approve',
  reject: 'Reject',
  busy: 'Signing…',
  details: 'Details',
  warningsLabel: 'Before you approve',
  pending: '{count, plural, one {One more request is waiting.} other {# more requests are waiting.}}',

  titles: {
    signMessage: 'Sign a message',
    signHash: 'Sign a hash',
    signTypedData: 'Sign typed data',
    sendTransaction: 'Send a transaction',
    signTransaction: 'Sign a transaction',
    deploy: 'Deploy a contract',
    other: 'Approve a request',
  },

  labels: {
    method: 'Method',
    account: 'Account',
    network: 'Network',
    from: 'From',
    to: 'To',
    contract: 'Contract',
    value: 'Value',
    gas: 'Gas limit',
    action: 'Action',
    function: 'Function',
    data: 'Data',
    recipient: 'Recipient',
    spender: 'Spender',
    operator: 'Operator',
    amount: 'Amount',
    rawAmount: 'Amount (smallest units)',
    tokenId: 'Token ID',
    tokens: 'Tokens',
    approved: 'Approved',
    note: 'Note',
    app: 'App',
    version: 'Version',
    chain: 'Chain',
    type: 'Type',
    feePayer: 'Fee payer',
    program: 'Program',
    more: 'More',
    message: 'Message',
    hexMessage: 'Message (hex, not readable as text)',
    hash: 'Data (hex)',
    parameters: 'Parameters',
    request: 'Request',
  },

  values: {
    yes: 'Yes',
    no: 'No',
    unlimited: 'Unlimited',
    empty: '(empty)',
    newContract: 'New contract',
    bytes: '{count} bytes',
    baseUnits: '{amount} {unit}',
    moreFields: '{count} more fields',
    moreInstructions: '{count} more instructions',
    cut: '… ({count} more characters)',
    lookupTable: 'an address from a lookup table',
    someone: 'someone else',
    tokenDecimals:
      'Token decimals are unknown here: amounts are in the token’s smallest units (for an NFT, its ID).',
  },

  actions: {
    transfer: 'Transfer tokens (ERC-20 transfer)',
    approve: 'Allow spending (approve)',
    transferFrom: 'Transfer tokens (transferFrom)',
    nftTransfer: 'Transfer an NFT (ERC-721)',
    multiTransfer: 'Transfer tokens (ERC-1155)',
    batchTransfer: 'Transfer several tokens (ERC-1155 batch)',
    approveAll: 'Allow moving all tokens (setApprovalForAll)',
  },

  /** Solana instructions, as the rows of a transaction's preview. */
  solana: {
    system: 'System Program',
    token: 'SPL Token',
    token2022: 'Token-2022',
    associatedToken: 'Associated Token Account',
    memo: 'Memo',
    computeBudget: 'Compute Budget',
    transfer: 'Send {amount} to {to}',
    createAccount: ['Create account {account} with {amount}', 'amount', 'account'],
    tokenTransfer: 'Transfer {amount} to token account {to}',
    tokenTransferChecked: 'Transfer {amount} of token {mint} to token account {to}',
    tokenApprove: ['Allow {delegate} to move {amount}', 'amount', 'delegate'],
    tokenUnits: '{amount} token units',
    setAuthority: 'Change a token account’s or mint’s authority',
    closeAccount: 'Close a token account',
    createTokenAccount: 'Create a token account',
    computeLimit: 'Compute limit: {units} units',
    computePrice: 'Priority fee: {price} micro-lamports per unit',
    instruction: 'Instruction {index}',
  },

  warnings: {
    unreadable: 'This request could not be read',
    generic: 'Airlock cannot show what this request does. Approve it only if you trust this site.',
    blindSign:
      'This signs a hash blindly: it could be a transaction that moves your funds. Reject it unless you know exactly what it is.',
    otherChain: 'This is for chain {asked}, but you are on {network}.',
    permit: 'This signature lets {spender} move your tokens, without another approval from you.',
    unlimitedPermit: 'The permit is for an unlimited amount.',
    unlimitedApprove: 'This lets {spender} spend all of this token you hold, now and later.',
    approveAll: 'This lets {operator} move all your tokens of this collection, now and later.',
    delegate: 'This lets {delegate} move tokens from your account.',
    authority: 'This changes who controls a token account or mint.',
    lookupTables: 'Some accounts come from address lookup tables and are not shown.',
  },
  /** What the node's simulation of a transaction says. */
  simulation: {
    change: 'Balance change (simulated)',
    fails:
      '{reason, select, none {The network expects this transaction to fail.} other {The network expects this transaction to fail: {reason}}}',
  },
})
