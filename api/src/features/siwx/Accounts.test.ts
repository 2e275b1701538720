import { describe, expect, it } from 'vitest'
import * as Siwx from './Accounts.ts'

const mainnet = 'bip122:000000000019d6689c085ae165831e93'
const p2wpkh = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const p2pkh = '14vV3aCHBeStb5bkenkNHbe2YAFinYdXgc'

describe('Siwx', () => {
  it('keeps one spelling per account', () => {
    expect(Siwx.normalizeAccount('eip155:1:0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(
      'eip155:1:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    )
    expect(Siwx.normalizeAccount(`${mainnet}:${p2wpkh.toUpperCase()}`)).toBe(`${mainnet}:${p2wpkh}`)
    expect(Siwx.normalizeAccount(`${mainnet}:${p2pkh}`)).toBe(`${mainnet}:${p2pkh}`)
    const solana = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1'
    expect(Siwx.normalizeAccount(solana)).toBe(solana)
  })
})
