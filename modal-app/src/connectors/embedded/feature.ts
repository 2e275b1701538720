/**
 * The embedded wallet: a way in for a visitor with no wallet. Email one-time code or a social login opens a
 * wallet for EVM and Solana whose key is split between this browser, the Airlock API and a recovery password
 * (SECURITY.md); dApps see an ordinary wallet. On unless the host switches `email` off and leaves no
 * `socials`; needs the API's `endpoint`, so a modal without one leaves it out.
 */

import { isOn, type SocialProvider, socialProviders } from '@airlock/bridge-protocol/Features'
import { lazy } from 'react'
import type { Config } from '../../core/Config.ts'
import type { Feature } from '../../core/Feature.ts'
import { EmailRow, SocialRow } from './Rows.tsx'
import { embeddedTexts } from './texts.ts'
import { approveView, codeView, farcasterView, settingsView, socialView, walletView } from './views.ts'

/**
 * In a Telegram mini-app, the providers whose login that platform cannot finish are left out
 * (docs/behaviour.md §2): iOS removes Google, macOS removes X, Android removes Facebook and X.
 */
const telegramLeavesOut: Record<string, readonly SocialProvider[]> = {
  ios: ['google'],
  macos: ['x'],
  android: ['facebook', 'x'],
}

/** The social providers the host asked for (`features.socials`: a list, or false for none). */
export function socialsOf(config: Pick<Config, 'features' | 'telegram'>): SocialProvider[] {
  const asked = config.features?.socials ?? socialProviders
  if (asked === false) return []
  const platform = config.telegram?.platform ?? ''
  const left = Object.hasOwn(telegramLeavesOut, platform) ? (telegramLeavesOut[platform] ?? []) : []
  return asked.filter((provider) => !left.includes(provider))
}

const unavailable = {
  socials: [],
  email: { sending: false, error: embeddedTexts.unavailable, restorable: false },
}

/**
 * @param loadRuntime how the logic loads (tests give a failing one) @default a dynamic import
 * @example features.push(embedded(config))
 */
export function embedded(
  config: Pick<Config, 'features' | 'telegram'>,
  loadRuntime?: () => Promise<typeof import('./runtime.ts')>,
): Feature | undefined {
  const email = isOn(config, 'email')
  const socials = socialsOf(config)
  if (!email && socials.length === 0) return undefined
  return {
    id: 'embedded',
    views: [
      {
        name: codeView,
        title: () => embeddedTexts.codeTitle,
        component: lazy(() => import('./EmailCode.tsx')),
      },
      {
        name: socialView,
        title: (snapshot) =>
          embeddedTexts.continueWith(
            embeddedTexts.providers[
              (snapshot as { embeddedWallet?: { social?: { provider: string } } }).embeddedWallet?.social
                ?.provider ?? ''
            ] ?? '',
          ),
        component: lazy(() => import('./ConnectingSocial.tsx')),
      },
      {
        name: walletView,
        title: (snapshot) =>
          embeddedTexts.walletTitle[
            (snapshot as { embeddedWallet?: { recovery?: { mode: 'create' | 'recover' | 'keep' } } })
              .embeddedWallet?.recovery?.mode ?? 'create'
          ],
        component: lazy(() => import('./Recovery.tsx')),
      },
      {
        name: farcasterView,
        title: () => embeddedTexts.continueWith('Farcaster'),
        component: lazy(() => import('./ConnectingFarcaster.tsx')),
      },
      {
        name: settingsView,
        title: () => embeddedTexts.settingsTitle,
        component: lazy(() => import('./Settings.tsx')),
      },
      {
        name: approveView,
        title: () => embeddedTexts.approveTitle,
        component: lazy(() => import('./ApproveTransaction.tsx')),
      },
    ],
    connectRows: { ...(email ? { email: EmailRow } : {}), ...(socials.length ? { social: SocialRow } : {}) },
    async load(kernel) {
      try {
        const runtime = (await (loadRuntime ?? (() => import('./runtime.ts')))()).setup(kernel, { socials })
        if (runtime) return runtime
      } catch (error) {
        console.error('[airlock]', embeddedTexts.unavailable, error)
      }
      // The words for logins that cannot run: a chunk that did not load, or a modal with no API.
      return { snapshot: () => ({ embeddedWallet: unavailable }) }
    },
  }
}
