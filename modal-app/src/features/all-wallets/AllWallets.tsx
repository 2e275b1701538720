import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { PairingUi } from '../../connectors/walletconnect/types.ts'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import type { RegistrySlice, RegistryUi } from './types.ts'
import type { WalletRegistry } from './WalletRegistry.ts'

/**
 * AllWallets: the registry as a grid, searched as the visitor types (the registry waits for a
 * pause) and paged as they scroll. Arrow keys move through the grid; Enter picks a wallet.
 */
export default function AllWallets({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & RegistrySlice
  ui: PairingUi & RegistryUi
}) {
  // The list loads with the feature, after the handshake; a view opened sooner waits for it.
  const { registry } = snapshot
  if (!registry) return <div className="view view-loading" aria-busy="true" />
  return <Grid registry={registry} ui={ui} />
}

function Grid({ registry, ui }: { registry: WalletRegistry; ui: PairingUi & RegistryUi }) {
  // The registry reports its changes through the modal, which renders this view again.
  const state = registry.state()
  const [text, setText] = useState(state.search)
  const sentinel = useRef<HTMLLIElement>(null)

  // The last row coming into view asks for the next page.
  useEffect(() => {
    const element = sentinel.current
    if (!element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) registry.more()
    })
    observer.observe(element)
    return () => observer.disconnect()
  })

  return (
    <div className="view">
      <input
        className="search"
        type="search"
        value={text}
        placeholder={texts.walletConnect.search}
        aria-label={texts.walletConnect.search}
        aria-controls="all-wallets"
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value)
          registry.search(event.target.value)
        }}
      />
      <p className="sr-only" aria-live="polite">
        {state.loading ? texts.walletConnect.loading : texts.walletConnect.results(state.items.length)}
      </p>
      {state.failed && <p className="muted">{texts.walletConnect.unavailable}</p>}
      {!state.loading && !state.failed && state.items.length === 0 && (
        <p className="muted">{texts.walletConnect.noResults}</p>
      )}
      <ul
        id="all-wallets"
        className="wallet-grid"
        data-testid="all-wallets"
        aria-label={texts.walletConnect.allWallets}
        aria-busy={state.loading}
        onKeyDown={onGridKeyDown}
      >
        {state.items.map((listing) => (
          <li key={listing.id}>
            <button type="button" className="grid-item" onClick={() => ui.connectWalletConnect(listing)}>
              <img src={ui.imageUrl(listing)} alt="" width={48} height={48} loading="lazy" />
              <span>{listing.name}</span>
            </button>
          </li>
        ))}
        {!state.done && <li ref={sentinel} className="grid-sentinel" aria-hidden="true" />}
      </ul>
    </div>
  )
}

const columns = 4

/** Arrow keys move by one wallet across and by a row up and down; Home and End jump to the ends. */
function onGridKeyDown(event: KeyboardEvent<HTMLElement>) {
  const steps: Record<string, number> = {
    ArrowRight: 1,
    ArrowLeft: -1,
    ArrowDown: columns,
    ArrowUp: -columns,
  }
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button')]
  const index = buttons.indexOf(document.activeElement as HTMLElement)
  let next: number | undefined
  if (event.key === 'Home') next = 0
  else if (event.key === 'End') next = buttons.length - 1
  else if (event.key in steps && index >= 0)
    next = Math.min(buttons.length - 1, Math.max(0, index + (steps[event.key] ?? 0)))
  if (next === undefined) return
  event.preventDefault()
  buttons[next]?.focus()
}
