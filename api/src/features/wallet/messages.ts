/**
 * The wallet routes' texts, the ones clients may match on (the shared ones are `http/errors.ts`'s, and
 * `No wallet yet` is the contract's, for the modal reads it).
 */
import * as Contract from '../../contract/index.ts'
import { messages as shared } from '../../http/errors.ts'

export const messages = {
  notConfigured: 'The embedded wallet is not configured',
  notModalOrigin: 'Wallet shares are only served to the modal origin',
  invalidSession: 'Invalid session',
  noWallet: Contract.noWallet,
  alreadyHasWallet: 'This account already has a wallet',
  addressTaken: 'This address is already the wallet of another account',
  invalidEvmAddress: `${shared.invalidEvmAddress}: expected its EIP-55 checksummed form`,
  invalidSolanaAddress: `${shared.invalidSolanaAddress}: expected a base58 ed25519 public key`,
  notCanonical: (field: string) => `${field}: expected canonical base64`,
  fingerprintMismatch: "The fingerprint is not the EVM address's",
  notAShare: 'The auth share is not a share of version 1',
  otherWallet: 'The auth share is of another wallet than the fingerprint',
  notASealedShare: 'The recovery share is not a sealed share of version 1 the size of the auth share',
  unreadable: 'The auth share does not open with the configured wallet key',
  unproven: "The wallet's key did not sign this change",
  sameRecovery: 'The wallet is already recovered this way',
  passwordNeeded: 'The recovery password is kept while no passkey recovers the wallet',
  notOwnPasskey: "This passkey is not the account's",
} as const
