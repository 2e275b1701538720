import { useAirlock } from './useAirlock.ts'

/**
 * Disconnects every namespace.
 * @example
 * const { disconnect } = useDisconnect()
 */
export function useDisconnect(): { disconnect(): Promise<void> } {
  const airlock = useAirlock()
  return { disconnect: () => airlock?.disconnect() ?? Promise.resolve() }
}
