import { useState } from 'react'
import type { Network } from '../Network.ts'
import { hash } from './Identicon.tsx'

/**
 * The network's icon; without one (or when it fails to load), one drawn here: its initial on a disc whose
 * hue comes from the chain id, so two networks with one initial still look apart and no icon is fetched
 * from anyone. Decorative: a name is beside it.
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
    <svg
      className="network-icon network-monogram"
      viewBox="0 0 24 24"
      width={24}
      height={24}
      aria-hidden="true"
      data-chain={network.id}
    >
      <circle cx="12" cy="12" r="12" fill={`hsl(${hash(network.id) % 360} 55% 38%)`} />
      <text x="12" y="16" textAnchor="middle" fontSize="12" fontWeight="600" fill="#fff">
        {[...network.name][0]?.toUpperCase()}
      </text>
    </svg>
  )
}
