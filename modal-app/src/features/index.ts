/**
 * The features of this build, in the order their rows appear on Connect. Adding a feature is a folder and
 * a line here; each is switched by the host's `features` option where it has a switch.
 */
import { embedded } from '../connectors/embedded/feature.ts'
import { type Options as WalletConnectOptions, walletConnect } from '../connectors/walletconnect/feature.ts'
import type { Config } from '../core/Config.ts'
import { excludes } from '../core/Excluded.ts'
import type { Feature } from '../core/Feature.ts'
import { restricted } from '../core/Region.ts'
import { account } from './account/feature.ts'
import { type Options as AllWalletsOptions, allWallets } from './all-wallets/feature.ts'
import { calls } from './calls/feature.ts'
import { names } from './names/feature.ts'
import { networks } from './networks/feature.ts'
import { onramp } from './onramp/feature.ts'
import { pay } from './pay/feature.ts'
import { receive } from './receive/feature.ts'
import { send } from './send/feature.ts'
import { smartSessions } from './sessions/feature.ts'
import { signIn } from './sign-in/feature.ts'
import { swaps } from './swaps/feature.ts'

/** What the features need from the page's environment; each field has a default for the browser. */
export type Options = Parameters<typeof account>[0] &
  Parameters<typeof signIn>[0] &
  AllWalletsOptions &
  Omit<WalletConnectOptions, 'projectId' | 'relayUrl'>

export function features(config: Config, options: Options = {}): Feature[] {
  const wc = config.walletConnect
  const hidden = excludes(config)
  const embeddedWallet = embedded(config)
  const regional = restricted(config.restrictedTimeZones)
  // Hooks run in this order. Sign-in comes first: a chain change that asks for a sign-in ends the reaction
  // there, before the account reads a balance the visitor is not signed in to see.
  return [
    ...(config.siwx ? [signIn(options)] : []),
    account(options),
    networks(config),
    receive(),
    send(),
    onramp(regional),
    swaps(regional),
    // docs/behaviour.md §1: Pay is off unless the host switches it on.
    ...(config.features?.pay === true ? [pay()] : []),
    names(),
    smartSessions(),
    // EIP-5792 batches: always on, a dApp's batch gets an answer whatever the host switched off.
    calls(),
    ...(embeddedWallet ? [embeddedWallet] : []),
    // The registry's wallets connect over WalletConnect: both need its project id.
    ...(wc
      ? [
          walletConnect({
            ...options,
            projectId: wc.projectId,
            relayUrl: wc.relayUrl,
            customWallets: config.customWallets?.filter((wallet) => !hidden(wallet)),
          }),
          allWallets(options),
        ]
      : []),
  ]
}
