import { useState } from 'react'
import type { Network } from '../Network.ts'

/** The network's icon; without one (or when it fails to load), its initial. Decorative: a name is beside it. */
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
    <span className="network-icon network-monogram" aria-hidden="true">
      {[...network.name][0]?.toUpperCase()}
    </span>
  )
}
