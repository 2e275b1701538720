/**
 * The sign-in routes' error texts, which clients may match on (the shared ones are `http/errors.ts`'s).
 */
import { messages as shared } from '../../http/errors.ts'

export const messages = {
  invalidEvmAddress: shared.invalidEvmAddress,
  invalidSignature: 'Invalid signature',
  invalidSession: 'Invalid session',
  sessionNotFound: 'Session not found',
  unknownNonce: 'Unknown nonce',
  usedNonce: 'Nonce already used',
  expiredNonce: 'Nonce expired',
  expired: 'Message expired',
  notYetValid: 'Message not yet valid',
  issuedInFuture: 'Message issued in the future',
  invalidAddress: (namespace: string) => `Invalid ${namespace} address`,
  chainMismatch: 'chainId does not match the address',
} as const
