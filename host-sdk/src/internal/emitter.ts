type Listener = (...args: never[]) => void

/** The smallest event emitter EIP-1193 and Wallet Standard `standard:events` need. */
export function emitter() {
  const listeners = new Map<string, Set<Listener>>()
  return {
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
      return () => set.delete(listener)
    },
    off(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        // A dApp's listener that throws must not stop the others or break the bridge.
        try {
          ;(listener as (...args: unknown[]) => void)(...args)
        } catch (error) {
          console.error(error)
        }
      }
    },
  }
}
export type Emitter = ReturnType<typeof emitter>
