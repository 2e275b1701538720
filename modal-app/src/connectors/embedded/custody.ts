/**
 * The embedded wallet's key material code, loaded only once a login needs it (a wallet to open or create, a
 * request to sign): BIP-39, BIP-32, SLIP-10, Shamir and the signers are most of the wallet's bytes, and a
 * visitor who never logs in never fetches them.
 */
export { sign } from './Requests.ts'
export * as Vault from './Vault.ts'
