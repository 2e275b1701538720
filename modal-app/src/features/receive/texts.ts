import { define } from '../../shared/i18n/Catalogue.ts'

/**
 * Receive's texts, beside the feature so they load with its chunk, not with the modal's first (the view's
 * title stays in `shared/texts.ts`, which the first chunk needs).
 */
export const receiveTexts = define('receive', {
  qrLabel: 'QR code of your address',
  address: 'Your address',
  networks: 'Networks',
  /** "Only send Solana-network assets to this address". */
  onlySend: 'Only send {family} assets to this address',
  families: { eip155: 'EVM-network', solana: 'Solana-network', bip122: 'Bitcoin-network' },
})
