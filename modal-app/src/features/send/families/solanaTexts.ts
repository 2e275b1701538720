import { define } from '../../../shared/i18n/Catalogue.ts'

/** The Solana family's own texts, beside `sendTexts`: its preview rows and what the network or wallet answered. */
export const solanaTexts = define('send.solana', {
  send: {
    newTokenAccount: 'New token account',
    newTokenAccountValue:
      "This send creates the receiver's {symbol} account; you pay its rent of {rent} {native}",
    tokenAccount: 'This is a token account or mint, not a wallet: tokens sent to it are lost',
    unknownMint: '{symbol} has no mint at this address on {network}',
  },
  errors: {
    simulationFailed: 'The simulation failed: {reason}',
    receiverRent: 'A new account needs at least {minimum} {symbol}: send more, or to an account that exists',
    senderRent: 'Your account must keep at least {minimum} {symbol}, or send all of it',
    expired: 'The transaction expired before it reached the network. Nothing was sent: review it again.',
  },
  submit: {
    walletChanged: 'The wallet changed the transaction, so it was not sent',
    walletAnswer: 'The wallet did not answer with a signed transaction',
  },
  rpc: {
    refused: 'The network refused the request: {reason}',
    unexpected: 'The network answered {method} with something unreadable',
  },
})
