import { useEffect, useRef } from 'react'
import type * as Api from '../../api/Api.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import { BackIcon } from '../../shared/ui/icons.tsx'
import { ExternalIcon } from '../../shared/ui/linkIcons.tsx'
import { explorerUrl, imageOf, titleOf } from './Nfts.ts'
import { nftTexts } from './texts.ts'

/** One NFT, in place of the grid: its image, name, collection, token id, amount (ERC-1155), explorer page. */
export function NftDetail({
  nft,
  network,
  onBack,
}: {
  nft: Api.Nft
  network?: Network | undefined
  onBack(): void
}) {
  const back = useRef<HTMLButtonElement>(null)
  // The grid's button that opened it is gone: focus goes to the way back.
  useEffect(() => back.current?.focus(), [])
  const link = explorerUrl(network, nft)
  return (
    <div className="view nft-detail" data-testid="nft-detail">
      <button ref={back} type="button" className="row" onClick={onBack}>
        <BackIcon />
        <span className="row-label">{nftTexts.back}</span>
      </button>
      <NftImage nft={nft} />
      <h2 className="lead">{titleOf(nft)}</h2>
      <dl className="facts">
        <Fact term={nftTexts.collection} value={nft.collection ?? nft.symbol ?? ''} />
        <Fact term={nftTexts.tokenId} value={nft.tokenId} />
        {nft.standard === 'erc1155' && <Fact term={nftTexts.amount} value={nft.amount} />}
      </dl>
      {link && (
        <a className="row" href={link} target="_blank" rel="noopener noreferrer">
          <span className="row-label">{nftTexts.explorer}</span>
          <span className="sr-only"> {texts.account.newTab}</span>
          <ExternalIcon />
        </a>
      )}
    </div>
  )
}

/** The token's image when it is a data: image, else a placeholder of the same size. */
export function NftImage({ nft }: { nft: Api.Nft }) {
  const image = imageOf(nft)
  return image ? (
    <img className="nft-image" src={image} alt="" />
  ) : (
    <span className="nft-image nft-placeholder" aria-hidden="true" />
  )
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="fact">
      <dt className="muted">{term}</dt>
      <dd>{value}</dd>
    </div>
  )
}
