/**
 * Sign In With Farcaster on the devnet: the stand-in relay (its home is the API's,
 * `api/src/features/auth/internal/farcasterRelay.ts`, whose tests run it too; the dev stack starts it on
 * its fixed port), and the IdRegistry that `Devnet.start` deploys on the chains.
 */
export { FarcasterRelay as Relay } from '@airlock/api/oidc-dev'
export * as IdRegistry from './IdRegistry.ts'

/**
 * The dev relay's app key: fixed, so a test acting as the visitor's Farcaster app (`Relay.signIn`) can complete
 * a channel on the running stack. It opens nothing but that loopback stand-in.
 */
export const devAuthKey = 'airlock-dev-farcaster-relay-key'
