/**
 * The enabled features at run time: their views and Connect rows (known at once), their logic (loaded on
 * demand, all at once), their hooks in the features' order, and their actions, which a view may call even
 * in the first moments before the logic is in.
 */

import { Errors, type Payment } from '@airlock/bridge-protocol'
import { texts } from '../shared/texts.ts'
import type { Config } from './Config.ts'
import type { ConnectRows, Feature, Kernel, Runtime, ViewSpec } from './Feature.ts'
import { isOn } from './Feature.ts'
import type { Ui } from './Snapshot.ts'
import { coreViews } from './views/index.ts'

export function create(options: {
  features: readonly Feature[]
  config: Config
  kernel: Kernel
  /** A feature's logic has loaded. */
  changed(): void
}) {
  const enabled = options.features.filter((feature) => isOn(feature, options.config))
  // In the features' order, whichever has loaded: hooks run in that order.
  const runtimes: (Runtime | undefined)[] = enabled.map(() => undefined)
  const actions: Record<string, unknown> = {}
  let done = false
  const loaded = Promise.all(
    enabled.map((feature, index) =>
      feature.load(options.kernel).then(
        (runtime) => {
          runtimes[index] = runtime
          Object.assign(actions, runtime.ui)
          options.changed()
        },
        // A feature whose chunk cannot load is left out; the rest of the modal keeps working.
        (error: unknown) => console.error(`[airlock] The ${feature.id} feature could not load.`, error),
      ),
    ),
  ).then(() => {
    done = true
  })

  const each = <K extends keyof Runtime>(key: K) =>
    runtimes.flatMap((runtime) => (runtime?.[key] ? [runtime[key] as NonNullable<Runtime[K]>] : []))

  return {
    /** Settles once every feature's logic has loaded (or failed to). */
    loaded,
    each,
    /** Runs `task` now if every feature's logic is in, else once it is: a hook is never lost to a slow chunk. */
    whenLoaded(task: () => void) {
      if (done) task()
      else void loaded.then(task)
    },
    /** The first enabled feature's verdict on opening one of its views, if any has one. */
    canOpen(view: string): boolean | undefined {
      for (const feature of enabled) {
        const verdict = feature.canOpen?.(view, options.kernel)
        if (verdict !== undefined) return verdict
      }
      return undefined
    },
    /** The views of the core and the enabled features, by name. */
    views: new Map<string, ViewSpec>(
      [...coreViews, ...enabled.flatMap((feature) => feature.views ?? [])].map((spec) => [spec.name, spec]),
    ),
    connectRows: enabled.flatMap((feature) =>
      feature.connectRows ? [feature.connectRows] : [],
    ) as ConnectRows[],
    canSignOut: enabled.some((feature) => feature.hostMethods?.includes('signOut')),
    canPay: enabled.some((feature) => feature.hostMethods?.includes('pay')),
    /** The host's pay, from the Pay feature, once loaded. */
    async pay(payment: Payment): Promise<string> {
      await loaded
      const pay = each('host').find((host) => host.pay)?.pay
      if (!pay) throw new Errors.InternalError(texts.errors.fallback)
      return pay(payment)
    },
    /** The host's signOut, from the feature that implements it (sign-in), once loaded. */
    async signOut(): Promise<void> {
      const signOut = each('host').find((host) => host.signOut)?.signOut
      // Sign-in is on, but its chunk could not load: say so rather than pretend the sessions are gone.
      if (!signOut) throw new Errors.InternalError(texts.errors.fallback)
      await signOut(undefined)
    },
    /**
     * The core's actions and every loaded feature's. A feature's action used before its chunk is in (a click
     * in the first moments) runs once it is.
     */
    ui(core: Record<string, unknown>): Ui {
      Object.assign(actions, core)
      const later =
        (key: string) =>
        (...args: unknown[]) =>
          loaded.then(() => {
            const action = target(key)
            if (action) return action(...args)
            console.error(`[airlock] No feature has the action ${key}.`)
          })
      const target = (key: string) => actions[key] as ((...args: unknown[]) => unknown) | undefined
      // Not `then`: a thenable would be awaited by anyone who awaits the actions.
      return new Proxy(actions, {
        get: (_, key) =>
          typeof key !== 'string' || key === 'then' || key in actions ? actions[key as string] : later(key),
      }) as Ui
    },
  }
}
