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
})
