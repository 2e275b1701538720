import { type KeyboardEvent, type UIEvent, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { Listing } from '../../api/Api.ts'
import type { PairingUi } from '../../connectors/walletconnect/types.ts'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { SkeletonIcon, SkeletonText } from '../../shared/ui/Skeleton.tsx'
import type { RegistrySlice, RegistryUi } from './types.ts'
import * as Virtual from './Virtual.ts'
import { WalletImage } from './WalletImage.tsx'
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

// The grid's geometry, as styles.css lays out `.wallet-grid`: columns of at least 68 px, rows of 88 px.
const minColumn = 68
const gap = 8
const stride = 88 + gap
// A frame with no layout yet (hidden, or jsdom) renders a screenful.
const fallback = { width: 326, height: 384 }

function Grid({ registry, ui }: { registry: WalletRegistry; ui: PairingUi & RegistryUi }) {
  // The registry reports its changes through the modal, which renders this view again.
  const state = registry.state()
  const { items } = state
  const [text, setText] = useState(state.search)
  const list = useRef<HTMLUListElement>(null)
  const [box, setBox] = useState(fallback)
  const [scrollTop, setScrollTop] = useState(0)
  // The wallet a key moved to, by index: it may be outside the rendered rows until the next render.
  const moved = useRef<number | undefined>(undefined)

  useLayoutEffect(() => {
    const element = list.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const measure = () =>
      setBox({
        width: element.clientWidth || fallback.width,
        height: element.clientHeight || fallback.height,
      })
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const columns = Virtual.columnsIn(box.width, minColumn, gap)
  const layout = { columns, stride, scrollTop, viewport: box.height }
  const shown = Virtual.window({ ...layout, count: items.length })

  // Two rows from the end of what is in, the next page is asked for.
  useEffect(() => {
    if (items.length > 0 && shown.end >= items.length - columns * 2) registry.more()
  }, [shown.end, items.length, columns, registry])

  // The keyboard's wallet is scrolled into the rendered rows first, then focused once it is there.
  useLayoutEffect(() => {
    if (moved.current === undefined) return
    list.current?.querySelector<HTMLElement>(`[data-index="${moved.current}"]`)?.focus()
    moved.current = undefined
  })

  const move = (event: KeyboardEvent<HTMLElement>) => {
    const current = Number((document.activeElement as HTMLElement | null)?.dataset.index ?? Number.NaN)
    const next = nextIndex(event.key, current, columns, items.length)
    if (next === undefined) return
    event.preventDefault()
    const element = list.current
    const top = Virtual.scrollTo(next, layout)
    if (element && top !== scrollTop) element.scrollTop = top
    const target = element?.querySelector<HTMLElement>(`[data-index="${next}"]`)
    if (target) return target.focus()
    // Outside the rendered rows (which hold every row in view): it is focused once the scroll renders it.
    moved.current = next
    setScrollTop(top)
  }

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
          list.current?.scrollTo?.({ top: 0 })
          setScrollTop(0)
        }}
      />
      <p className="sr-only" aria-live="polite">
        {state.loading ? texts.walletConnect.loading : texts.walletConnect.results(items.length)}
      </p>
      {state.failed && <p className="muted">{texts.walletConnect.unavailable}</p>}
      {!state.loading && !state.failed && items.length === 0 && (
        <p className="muted">{texts.walletConnect.noResults}</p>
      )}
      <ul
        ref={list}
        id="all-wallets"
        className="wallet-grid"
        data-testid="all-wallets"
        aria-label={texts.walletConnect.allWallets}
        aria-busy={state.loading}
        style={{ paddingBlockStart: shown.before, paddingBlockEnd: shown.after }}
        onKeyDown={move}
        onScroll={(event: UIEvent<HTMLElement>) => setScrollTop(event.currentTarget.scrollTop)}
      >
        {state.loading && items.length === 0 && (
          <Placeholders count={columns * Math.ceil(box.height / stride)} />
        )}
        {items.slice(shown.start, shown.end).map((listing, offset) => (
          <Item
            key={listing.id}
            listing={listing}
            index={shown.start + offset}
            count={items.length}
            ui={ui}
          />
        ))}
      </ul>
    </div>
  )
}

function Item({
  listing,
  index,
  count,
  ui,
}: {
  listing: Listing
  index: number
  count: number
  ui: PairingUi & RegistryUi
}) {
  // Only a window of the list is in the DOM: screen readers learn each wallet's place in the whole.
  return (
    <li aria-setsize={count} aria-posinset={index + 1}>
      <button
        type="button"
        className="grid-item"
        data-index={index}
        onClick={() => ui.connectWalletConnect(listing)}
      >
        <WalletImage url={ui.imageUrl(listing)} name={listing.name} size={48} />
        <span>{listing.name}</span>
      </button>
    </li>
  )
}

/** A screenful of wallets to come, each in the box a wallet's button takes, its picture and name in place. */
function Placeholders({ count }: { count: number }) {
  return Array.from({ length: count }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders are alike and never reorder.
    <li key={index} aria-hidden="true" data-testid="all-wallets-placeholder">
      <span className="grid-item">
        <SkeletonIcon size={48} />
        <SkeletonText width="4.5em" />
      </span>
    </li>
  ))
}

/** Arrow keys move by one wallet across and by a row up and down; Home and End jump to the ends. */
function nextIndex(key: string, current: number, columns: number, count: number): number | undefined {
  if (count === 0) return undefined
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  // In right-to-left text the grid runs from the right, and so do the arrows.
  const rtl = document.dir === 'rtl' || document.documentElement.dir === 'rtl'
  const steps: Record<string, number> = {
    ArrowRight: rtl ? -1 : 1,
    ArrowLeft: rtl ? 1 : -1,
    ArrowDown: columns,
    ArrowUp: -columns,
  }
  const step = steps[key]
  if (step === undefined || Number.isNaN(current)) return undefined
  return Math.min(count - 1, Math.max(0, current + step))
}
