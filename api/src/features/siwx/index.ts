/**
 * Sign-In With X on the service's side: single-use nonces, signature checks per namespace, and the sessions
 * a verified sign-in opens. One namespace for the package's users (`Siwx.revoke(db, id)` for an operator).
 */

export * from './Accounts.ts'
export * from './Nonces.ts'
export * from './Sessions.ts'
export { maxClockSkewMs } from './SignedMessage.ts'
