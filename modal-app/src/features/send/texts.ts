/**
 * Send's texts, beside the feature so they load with its chunk (the views' titles stay in `shared/texts.ts`,
 * which the first chunk needs; a refused amount's are `amountTexts`). docs/behaviour.md's are quoted exactly.
 */
import { define } from '../../shared/i18n/Catalogue.ts'

export const sendTexts = define('send', {
  // docs/behaviour.md §5.
  required: 'An amount and receiver address are required',
  tokenRequired: 'A token is required',
  unsupportedChain: 'Unsupported chain',
  // docs/behaviour.md §8.
  declined: 'Signature declined',
  token: 'Token',
  amount: 'Amount',
  max: 'Max',
  receiver: 'Receiver',
  receiverPlaceholder: 'Address',
  receiverOrName: 'Address or name (alice.eth)',
  name: 'Name',
  feeRate: 'Fee rate',
  defaultFeeRate: 'Next block (default)',
  preparing: 'Simulating…',
  review: 'Review',
  send: 'Send',
  cancel: 'Cancel',
  balance: 'Balance: {amount}',
  unknownToken: 'This token is not in your balance on this network',
  invalidAddress: 'This is not an address on {network}',
  ownAddress: 'This is your own address',
  tokenContract: 'This is the {symbol} contract itself: tokens sent to it are lost',
  insufficientFunds: 'Insufficient funds for this amount and the network fee',
  unavailable: '{network} cannot be reached. Nothing was sent.',
  accountChanged: 'The account or network changed. Review the send again.',
  waiting: 'A send is waiting for your wallet.',
  showWaiting: 'Show it',
  failedOnChain: 'The transaction failed on chain',
  simulation: 'Simulated balance changes',
  fee: 'Network fee',
  worth: 'Value',
  from: 'From',
  to: 'To',
  sending: 'Sending…',
  signing: 'Confirm in your wallet…',
  submitted: 'Sent. Waiting for the network…',
  confirmed: 'Confirmed',
  failed: 'Failed',
})
