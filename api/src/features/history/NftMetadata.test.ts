import { describe, expect, it } from 'vitest'
import { nftImageMax } from '../../contract/nfts.ts'
import * as NftMetadata from './NftMetadata.ts'

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
const png = 'data:image/png;base64,iVBORw0KGgo='

describe('NftMetadata.fromUri', () => {
  it('reads the name and a data: image from base64, percent-encoded and raw JSON data: URIs', () => {
    const json = JSON.stringify({ name: 'Kitten #7', image: png })
    for (const uri of [
      `data:application/json;base64,${base64(json)}`,
      `data:application/json;charset=utf-8,${encodeURIComponent(json)}`,
      `data:application/json;utf8,${json}`,
    ])
      expect(NftMetadata.fromUri(uri), uri).toEqual({ name: 'Kitten #7', imageUrl: png })
  })

  it('turns OpenSea’s image_data SVG into a data: image', () => {
    const uri = `data:application/json,${JSON.stringify({ name: 'Art', image_data: svg })}`
    expect(NftMetadata.fromUri(uri)).toEqual({
      name: 'Art',
      imageUrl: `data:image/svg+xml;base64,${base64(svg)}`,
    })
  })

  it('follows no URL: an http(s) or ipfs token URI, or image, gives nothing to fetch', () => {
    for (const uri of ['https://example.com/1.json', 'http://10.0.0.1/meta', 'ipfs://Qm123/1', 'ar://x'])
      expect(NftMetadata.fromUri(uri)).toEqual({ name: '', imageUrl: '' })
    for (const image of ['https://tracker.example/pixel.png', 'ipfs://Qm123/1.png', 'javascript:alert(1)'])
      expect(NftMetadata.fromUri(`data:application/json,${JSON.stringify({ name: 'Lure', image })}`)).toEqual(
        { name: 'Lure', imageUrl: '' },
      )
  })

  it('leaves out an image past the size limit, control characters in names, and what is not JSON', () => {
    const big = `data:image/png;base64,${'A'.repeat(nftImageMax)}`
    expect(NftMetadata.fromUri(`data:application/json,${JSON.stringify({ image: big })}`).imageUrl).toBe('')
    expect(
      NftMetadata.fromUri(`data:application/json,${JSON.stringify({ name: ' A\u0000\nB ' })}`).name,
    ).toBe('AB')
    for (const uri of [
      'data:application/json,{not json',
      'data:application/json;base64,@@@',
      'data:text/plain,hi',
    ])
      expect(NftMetadata.fromUri(uri)).toEqual({ name: '', imageUrl: '' })
    expect(NftMetadata.fromUri(`data:application/json,${JSON.stringify(['a'])}`)).toEqual({
      name: '',
      imageUrl: '',
    })
  })
})
