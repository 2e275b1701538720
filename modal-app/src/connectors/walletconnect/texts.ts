import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * The pairing view's own texts, beside the connector rather than in `shared/texts.ts` (the modal's first
 * chunk): they load with the view. The texts Connect's row and AllWallets share stay there.
 */
export const pairingTexts = define('walletConnect.pairing', {
  /** While the QR code shows: when it stops working, as a time of day in the visitor's locale. */
  expiresAt: 'This code expires at {time}',
  /** Under 10 s were left (docs/behaviour.md §4): the URI is gone, Retry makes a new one. */
  expired: 'This code has expired.',
  retry: 'Retry',
  /** On a phone the wallet's app opens first; the QR code stays available for another device. */
  showQr: 'Show QR code',
  hideQr: 'Hide QR code',
})
