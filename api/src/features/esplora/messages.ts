/**
 * The Esplora routes' error texts, which clients may match on (the shared ones are `http/errors.ts`'s).
 */
export const messages = {
  invalidAddress: (chainId: string, address: string) => `Invalid address for ${chainId}: ${address}`,
  invalidTxid: 'Invalid txid: expected 64 hex digits',
  invalidRawTransaction: 'The body is not a raw transaction in hex',
  txNotFound: 'Transaction not found',
} as const
