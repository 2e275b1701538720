import { describe, expect, it } from 'vitest'
import type * as Api from '../../api/Api.ts'
import type { Network } from '../../shared/Network.ts'
import { explorerUrl, imageOf, titleOf, visible } from './Nfts.ts'

const nft = (overrides: Partial<Api.Nft> = {}): Api.Nft => ({
  chainId: 'eip155:1',
  contract: 'eip155:1:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  tokenId: '2',
  standard: 'erc721',
  amount: '1',
  collection: 'Airlock Test Collectible',
  spam: false,
  ...overrides,
})

describe('NFTs', () => {
  it('hides spam unless asked, and says how many it hides', () => {
    const items = [nft(), nft({ tokenId: '9', spam: true })]
    expect(visible(items, false)).toEqual({ shown: [items[0]], hidden: 1 })
    expect(visible(items, true)).toEqual({ shown: items, hidden: 1 })
  })

  it('shows a data: image only, never a URL to fetch', () => {
    expect(imageOf(nft({ imageUrl: 'data:image/svg+xml;base64,PHN2Zy8+' }))).toMatch(/^data:image\//)
    expect(imageOf(nft({ imageUrl: 'https://tracker.example/pixel.png' }))).toBeUndefined()
    expect(imageOf(nft({ imageUrl: 'data:text/html,<script>' }))).toBeUndefined()
  })

  it("links to the token's page where the network has an explorer", () => {
    const network = { explorer: { name: 'Etherscan', url: 'https://etherscan.io' } } as Network
    expect(explorerUrl(network, nft())).toBe(
      'https://etherscan.io/nft/0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512/2',
    )
    expect(explorerUrl({ ...network, explorer: undefined } as Network, nft())).toBeUndefined()
  })

  it('titles a token by its name, else by collection and id', () => {
    expect(titleOf(nft({ name: 'Lantern' }))).toBe('Lantern')
    expect(titleOf(nft())).toBe('Airlock Test Collectible #2')
  })
})
