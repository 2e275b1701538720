import type { Airlock } from '@airlock/host-sdk'
import { useAirlock, useAirlockState } from './useAirlock.ts'

type OpenOptions = Parameters<Airlock['open']>[0]

/** What {@link useOpen} returns. */
export type UseOpenReturnType = {
  /** Shows the modal (on `view` if given); does nothing before mount. */
  open(options?: OpenOptions): Promise<void>
  close(): Promise<void>
  isOpen: boolean
}

/**
 * Opens and closes the modal.
 * @example
 * const { open } = useOpen()
 * <button onClick={() => open({ view: 'Networks' })}>Networks</button>
 */
export function useOpen(): UseOpenReturnType {
  const airlock = useAirlock()
  const { open } = useAirlockState()
  return {
    open: (options) => airlock?.open(options) ?? Promise.resolve(),
    close: () => airlock?.close() ?? Promise.resolve(),
    isOpen: open,
  }
}
