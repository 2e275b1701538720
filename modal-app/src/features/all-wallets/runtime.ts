/** The registry's logic: loaded on first use, suggestions read when the modal first shows. */
import { Async } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import type { Options } from './feature.ts'
import type { RegistryUi } from './types.ts'
import type * as Registry from './WalletRegistry.ts'

export function setup(kernel: Kernel, options: Options): Runtime {
  let registry: Registry.WalletRegistry | undefined
  let suggestions: Registry.Suggestions = { featured: [], recommended: [], count: 0 }
  let suggesting: Promise<void> | undefined

  /** The registry, loaded on first use; a failed load is tried again next time. */
  const load = Async.once(() =>
    import('./WalletRegistry.ts').then((module) => {
      registry = module.create({
        api: kernel.api,
        installed: kernel.wallets,
        exclude: kernel.config.excludeWalletIds ?? [],
        featured: kernel.config.featuredWalletIds ?? [],
        mobile: kernel.mobile,
        timers: kernel.timers,
        preload: options.preload ?? module.preloadImage,
        onChange: kernel.changed,
      })
      kernel.changed()
      return registry
    }),
  )

  const open = () => {
    if (registry) return registry.open()
    load().then(
      (r) => r.open(),
      (error: unknown) => console.warn('[airlock] The wallet registry is unavailable.', error),
    )
  }

  const ui: RegistryUi = {
    showAllWallets() {
      kernel.router.send({ type: 'PUSH', view: 'AllWallets' })
      open()
    },
    imageUrl: (listing) => kernel.api.imageUrl(listing.image_id),
  }

  // Read from the project's own API as soon as the logic is in, while the frame is still hidden, so Connect
  // opens with its rows in place instead of growing under the visitor; a failure is tried again on a show.
  const suggest = () => {
    if (suggesting) return
    suggesting = load()
      .then((r) => r.suggestions())
      .then(
        (found) => {
          suggestions = found
          kernel.changed()
        },
        (error: unknown) => {
          suggesting = undefined
          console.warn('[airlock] Could not read the wallet registry.', error)
        },
      )
  }
  suggest()

  return {
    ui,
    snapshot: () => ({
      featured: suggestions.featured,
      recommended: suggestions.recommended,
      walletCount: suggestions.count,
      registry,
    }),
    entered(view) {
      if (view === 'AllWallets') open()
    },
    shown: suggest,
  }
}
