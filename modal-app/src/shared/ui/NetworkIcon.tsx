import { useState } from 'react'
import type { Network } from '../Network.ts'
import { Monogram } from './Monogram.tsx'

/**
 * The network's icon (a custom network may bring its own `iconUrl`); without one, or when it fails to load,
 * its monogram. Decorative: a name is beside it.
 */
export function NetworkIcon({ network }: { network: Network }) {
  const [failed, setFailed] = useState(false)
  if (network.iconUrl && !failed)
    return (
      <img
        className="network-icon"
        src={network.iconUrl}
        alt=""
        width={24}
        height={24}
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
      />
    )
  return (
    <Monogram
      className="network-icon network-monogram"
      seed={network.id}
      name={network.name}
      size={24}
      data-chain={network.id}
    />
  )
}
