import { type Airlock, type AirlockOptions, createAirlock } from '@airlock/host-sdk'
import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { AirlockContext } from './Context.ts'

/** Props of {@link AirlockProvider}. */
export type AirlockProviderProps = {
  /** Airlock's options; `customNetworks` also names networks and their currencies in `<ConnectButton/>`. */
  options: AirlockOptions
  /**
   * An instance created elsewhere, to share it (with the wagmi connector, say). The provider then neither
   * creates nor destroys one. @default one created from `options` after mount
   */
  airlock?: Airlock
  children?: ReactNode
}

/**
 * Gives its children Airlock. Renders the same on the server and on the first client render (nothing is
 * connected yet), and creates the instance in an effect, so a server-rendered page hydrates without a
 * mismatch and the server never touches `window`.
 * @example
 * <AirlockProvider options={{ projectId: 'demo', modalUrl: 'http://airlock.localhost:5174', networks: ['eip155:1'] }}>
 *   <ConnectButton />
 * </AirlockProvider>
 */
export function AirlockProvider({ options, airlock: given, children }: AirlockProviderProps) {
  const [created, setCreated] = useState<Airlock>()
  // Options are read once per mount: re-creating the modal for every render's new object would reload it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
  useEffect(() => {
    if (given) return
    const instance = createAirlock(options)
    setCreated(instance)
    // React's strict mode mounts twice: the first instance must not keep its frame and announcement.
    return () => {
      instance.destroy()
      setCreated(undefined)
    }
  }, [given])
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const airlock = given && mounted ? given : created
  const value = useMemo(() => ({ airlock, options }), [airlock, options])
  return <AirlockContext.Provider value={value}>{children}</AirlockContext.Provider>
}
