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
export function AllWalletsRow({ snapshot, ui }: Props) {
  const count = snapshot.walletCount ?? 0
  return (
    <li>
      <button type="button" className="row" data-testid="all-wallets-row" onClick={() => ui.showAllWallets()}>
        <span className="wallet-icon wallet-icon-grid" aria-hidden="true" />
        <span className="row-label">{texts.walletConnect.allWallets}</span>
        {/* As other modals count a registry: by tens, so the figure does not change with every wallet added. */}
        {count > 0 && <span className="tag">{count < 10 ? count : `${Math.floor(count / 10) * 10}+`}</span>}
      </button>
    </li>
  )
}

/** Where to get a wallet, under Connect's "New to wallets?": the suggested wallets' web pages. */
export function GetWalletRows({ snapshot }: Props) {
  const links = [...(snapshot.featured ?? []), ...(snapshot.recommended ?? [])].flatMap((listing) => {
    // Deep links (`wallet://`) open an app the newcomer does not have yet: web pages only.
    const href = [listing.webapp_link, listing.desktop_link, listing.mobile_link].find((link) =>
      link?.startsWith('https://'),
    )
    return href ? [{ id: listing.id, name: listing.name, href }] : []
  })
  if (links.length === 0) return null
  return (
    <ul className="get-wallet" aria-label={texts.connect.getWallet}>
      {links.map((link) => (
        <li key={link.id}>
          <a href={link.href} target="_blank" rel="noopener noreferrer">
            {link.name}
          </a>
        </li>
      ))}
    </ul>
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
