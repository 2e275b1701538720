/**
 * Sign In With Farcaster on the devnet: the stand-in relay (its home is the API's,
 * `api/src/features/auth/internal/farcasterRelay.ts`, whose tests run it too; the dev stack starts it on
 * its fixed port), and the IdRegistry that `Devnet.start` deploys on the chains.
 */
export { FarcasterRelay as Relay } from '@airlock/api/oidc-dev'
export * as IdRegistry from './IdRegistry.ts'
