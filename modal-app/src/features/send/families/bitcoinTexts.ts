import { define } from '../../../shared/i18n/Catalogue.ts'

/**
 * The Bitcoin family's own texts, beside `sendTexts` (which has none of these yet).
 */
export const bitcoinTexts = define('send.bitcoin', {
  inputs: 'Inputs',
  output: 'Output',
  change: 'Change',
  virtualSize: 'Virtual size',
  fast: 'Fast',
  normal: 'Normal',
  slow: 'Slow',
  satPerVbyte: '{rate} sat/vB',
  coins: '{count} · {amount}',
  payment: '{address} · {amount}',
  invalidFeeRate: 'The fee rate must be a number of sat/vB',
  dust: 'The amount must be at least {minimum}: the network does not relay less',
  unsupportedSender:
    'Send spends from native segwit, nested segwit and taproot addresses; this account is of another kind',
  publicKeyNeeded: 'The wallet did not share the public key this address needs to spend',
  walletChanged: 'The wallet changed the transaction it was asked to sign. Nothing was sent.',
  notSigned: 'The wallet did not sign every input. Nothing was sent.',
  answered: '{network} answered: {reason}',
  refused: '{network} refused the transaction: {reason}',
  otherTxid: 'The network answered another transaction id: {answered}',
  unconfirmed:
    'Transaction {txid} is not confirmed after 2 minutes. It may still confirm: look for it on the explorer.',
})
