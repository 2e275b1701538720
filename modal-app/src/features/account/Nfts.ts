/** The NFTs tab's logic, apart from React: what shows with spam hidden, and where an NFT is on an explorer. */
import type * as Api from '../../api/Api.ts'
import type { Network } from '../../shared/Network.ts'

/** The NFTs to show: spam only when asked for, and how many are hidden. */
export function visible(nfts: readonly Api.Nft[], showHidden: boolean): { shown: Api.Nft[]; hidden: number } {
  const hidden = nfts.filter((nft) => nft.spam).length
  return { shown: showHidden ? [...nfts] : nfts.filter((nft) => !nft.spam), hidden }
}

/** Only a data: image is shown: the modal loads nothing an NFT's owner could point anywhere. */
export function imageOf(nft: Api.Nft): string | undefined {
  return nft.imageUrl?.startsWith('data:image/') ? nft.imageUrl : undefined
}

/** The token's page on the network's explorer (Etherscan's `/nft/{contract}/{id}`), when it has one. */
export function explorerUrl(network: Network | undefined, nft: Api.Nft): string | undefined {
  const explorer = network?.explorer
  const contract = nft.contract.split(':').at(-1)
  if (!explorer || !contract) return undefined
  return `${explorer.url}/nft/${encodeURIComponent(contract)}/${encodeURIComponent(nft.tokenId)}${explorer.query ?? ''}`
}

/** A token's title: its own name, else the collection's and the id. */
export function titleOf(nft: Api.Nft): string {
  return nft.name ?? `${nft.collection ?? nft.symbol ?? ''} #${nft.tokenId}`.trim()
}
