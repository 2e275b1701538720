import type { Airlock, AirlockOptions } from '@airlock/host-sdk'
import { createContext } from 'react'

/** What `<AirlockProvider>` shares: the instance once mounted (never on the server), and its options. */
export type AirlockContextValue = {
  airlock: Airlock | undefined
  options: AirlockOptions
}

export const AirlockContext = createContext<AirlockContextValue | undefined>(undefined)
