import { useEffect, useRef, useState } from 'react'
import type * as Api from '../../api/Api.ts'
import type { Network } from '../../shared/Network.ts'
import { SkeletonText } from '../../shared/ui/Skeleton.tsx'
import { NftDetail, NftImage } from './NftDetail.tsx'
import { titleOf, visible } from './Nfts.ts'
import type { AccountRef, TabsUi } from './tabs.ts'
import { nftTexts } from './texts.ts'

const keyOf = (nft: Api.Nft) => `${nft.contract}/${nft.tokenId}`

type State = { items: Api.Nft[]; next: string | null; loading: boolean; failed: boolean }

/**
 * The NFTs tab (loaded on demand): the account's NFTs on its EVM chain as a grid, spam hidden unless the
 * visitor asks; each opens its detail.
 */
export default function NftsTab({
  account,
  evm,
  network,
  nfts,
}: {
  account: AccountRef
  evm: boolean
  network?: Network | undefined
  nfts: TabsUi['nfts']
}) {
  const [state, setState] = useState<State>({ items: [], next: null, loading: evm, failed: false })
  const [showHidden, setShowHidden] = useState(false)
  const [open, setOpen] = useState<Api.Nft>()
  const grid = useRef<HTMLUListElement>(null)
  /** The tile whose detail the visitor left: focus goes back to it, so a keyboard user keeps their place. */
  const returnTo = useRef<string | undefined>(undefined)
  const { address, chainId } = account
  const read = useRef(nfts)
  read.current = nfts

  async function load(cursor: string | null) {
    setState((state) => ({ ...state, loading: true, failed: false }))
    try {
      const page = await read.current({ address, chainId }, cursor)
      setState((state) => ({
        items: [...state.items, ...page.data],
        next: page.next,
        loading: false,
        failed: false,
      }))
    } catch (error) {
      console.warn('[airlock] Could not read the NFTs.', error)
      setState((state) => ({ ...state, loading: false, failed: true }))
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again only for another account.
  useEffect(() => {
    setState({ items: [], next: null, loading: evm, failed: false })
    setOpen(undefined)
    if (evm) void load(null)
  }, [address, chainId, evm])

  useEffect(() => {
    const key = returnTo.current
    if (open || !key) return
    returnTo.current = undefined
    for (const tile of grid.current?.querySelectorAll<HTMLElement>('[data-nft]') ?? [])
      if (tile.dataset.nft === key) tile.focus()
  }, [open])

  if (!evm) return <p className="muted">{nftTexts.notEvm}</p>
  const back = (nft: Api.Nft) => {
    returnTo.current = keyOf(nft)
    setOpen(undefined)
  }
  if (open) return <NftDetail nft={open} network={network} onBack={() => back(open)} />
  const { shown, hidden } = visible(state.items, showHidden)
  return (
    <div className="nfts" aria-busy={state.loading}>
      {state.failed && (
        <p className="muted" role="alert">
          {nftTexts.failed}
        </p>
      )}
      {state.loading && state.items.length === 0 && <Placeholder />}
      {!state.loading && !state.failed && shown.length === 0 && <p className="muted">{nftTexts.empty}</p>}
      {shown.length > 0 && (
        <ul className="nft-grid" data-testid="nft-grid" ref={grid}>
          {shown.map((nft) => (
            <li key={keyOf(nft)}>
              <button type="button" className="nft" data-nft={keyOf(nft)} onClick={() => setOpen(nft)}>
                <NftImage nft={nft} />
                <span className="nft-name">{titleOf(nft)}</span>
                <span className="nft-collection muted">{nft.collection ?? nft.symbol}</span>
                {nft.spam && <span className="tag">{nftTexts.spam}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <button
          type="button"
          className="button button-secondary"
          aria-pressed={showHidden}
          onClick={() => setShowHidden(!showHidden)}
        >
          {showHidden ? nftTexts.hideHidden : nftTexts.showHidden(hidden)}
        </button>
      )}
      {state.next && (
        <button
          type="button"
          className="button button-secondary"
          disabled={state.loading}
          onClick={() => void load(state.next)}
        >
          {nftTexts.loadMore}
        </button>
      )}
    </div>
  )
}

/** A row of two NFTs to come, each in the box a card takes: its square picture, its name and collection. */
function Placeholder() {
  return (
    <>
      <p className="sr-only">{nftTexts.loading}</p>
      <ul className="nft-grid" aria-hidden="true" data-testid="nft-placeholder">
        {[0, 1].map((card) => (
          <li key={card}>
            <span className="nft">
              <span className="nft-image" />
              <span className="nft-name">
                <SkeletonText width="8em" />
              </span>
              <span className="nft-collection muted">
                <SkeletonText width="10em" />
              </span>
            </span>
          </li>
        ))}
      </ul>
    </>
  )
}
