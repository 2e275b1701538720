import { define } from '../../../shared/i18n/Catalogue.ts'

/** The EVM family's own texts, beside `sendTexts`. */
export const evmTexts = define('send.evm', {
  nonce: 'Nonce',
  maxFee: 'Max network fee',
  simulation: 'Simulation',
  notSimulated: 'Not available on this network: the changes shown are those the transaction asks for',
  nonceUsed:
    'This account already has a transaction with nonce {nonce}: this send may have gone through. Check your activity before sending again',
  noHash: 'The wallet did not answer with a transaction hash',
  stalePreview: 'This review cannot be sent: review the send again',
  notSettled:
    '{network} has not included the transaction after 2 minutes. It may still go through: check your activity',
  /** What a node's refusal means (`evm-errors.ts`, docs/behaviour.md §8's node errors); the node's own words follow. */
  nodeErrors: {
    wouldFail: 'The transaction would fail on chain',
    feeCapTooHigh: 'The fee cap is higher than the network allows',
    feeCapTooLow:
      'The fee cap is below the network’s current base fee. Review the send again for current fees',
    nonceTooHigh:
      'The transaction’s nonce is ahead of the account’s: an earlier transaction has not landed yet',
    nonceTooLow:
      'A transaction with this nonce was already sent from this account: this send may have gone through. Check your activity before sending again',
    nonceMax: 'This account has used its last nonce and cannot send again',
    gasTooHigh: 'The gas limit is higher than a block can hold',
    gasTooLow: 'The gas limit is too low for this transaction',
    unsupportedType: 'The network does not take this kind of transaction (EIP-1559 fees)',
    tipAboveCap: 'The priority fee is higher than the fee cap',
    unknown: 'The network refused the transaction',
  },
})
