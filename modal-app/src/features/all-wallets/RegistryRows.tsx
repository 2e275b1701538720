import type { Listing } from '../../api/Api.ts'
import type { PairingUi } from '../../connectors/walletconnect/types.ts'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import type { RegistrySlice, RegistryUi } from './types.ts'
import { WalletImage } from './WalletImage.tsx'

// The slice is there once the feature's logic has loaded, a moment after the first render.
type Props = { snapshot: CoreSnapshot & Partial<RegistrySlice>; ui: PairingUi & RegistryUi }

/** Connect's featured wallets from the registry (the host's `featuredWalletIds` first). */
export function FeaturedRows({ snapshot, ui }: Props) {
  return (snapshot.featured ?? []).map((listing) => (
    <ListingButton key={listing.id} listing={listing} ui={ui} />
  ))
}

/** Connect's recommended wallets from the registry. */
export function RecommendedRows({ snapshot, ui }: Props) {
  return (snapshot.recommended ?? []).map((listing) => (
    <ListingButton key={listing.id} listing={listing} ui={ui} />
  ))
}

/** The way to every wallet of the registry, last on Connect. */
export function AllWalletsRow({ ui }: Props) {
  return (
    <li>
      <button type="button" className="row" onClick={() => ui.showAllWallets()}>
        <span className="wallet-icon wallet-icon-grid" aria-hidden="true" />
        <span className="row-label">{texts.walletConnect.allWallets}</span>
      </button>
    </li>
  )
}

function ListingButton({ listing, ui }: { listing: Listing; ui: PairingUi & RegistryUi }) {
  return (
    <li>
      <button type="button" className="row" onClick={() => ui.connectWalletConnect(listing)}>
        <WalletImage url={ui.imageUrl(listing)} name={listing.name} size={32} />
        <span className="row-label">{listing.name}</span>
      </button>
    </li>
  )
}
