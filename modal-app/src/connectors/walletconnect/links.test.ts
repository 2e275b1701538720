import { describe, expect, it } from 'vitest'
import { pairingLink } from './links.ts'

const uri = 'wc:7f6e504b@2?relay-protocol=irn&symKey=587d5484'
const encoded = encodeURIComponent(uri)

describe('pairingLink', () => {
  it('appends wc?uri= to native schemes', () => {
    expect(pairingLink('rainbow://', uri)).toBe(`rainbow://wc?uri=${encoded}`)
    expect(pairingLink('metamask:', uri)).toBe(`metamask://wc?uri=${encoded}`)
    expect(pairingLink('ledgerlive://wc', uri)).toBe(`ledgerlive://wc/wc?uri=${encoded}`)
  })

  it('appends /wc?uri= to universal links', () => {
    expect(pairingLink('https://metamask.app.link', uri)).toBe(`https://metamask.app.link/wc?uri=${encoded}`)
    expect(pairingLink('https://rnbwapp.com/', uri)).toBe(`https://rnbwapp.com/wc?uri=${encoded}`)
  })

  it('refuses links that could run code or leave the secure web', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'http://wallet.example',
      'vbscript:x',
      '',
      'no scheme',
    ])
      expect(pairingLink(bad, uri), bad).toBeUndefined()
  })
})
