import { describe, expect, it } from 'vitest'
import * as Origin from './Origin.ts'

describe('Origin', () => {
  it('matches exact origins', () => {
    expect(Origin.matches('https://app.example', 'https://app.example')).toBe(true)
    expect(Origin.matches('https://app.example', 'http://app.example')).toBe(false)
    expect(Origin.matches('https://app.example', 'https://app.example:8443')).toBe(false)
    expect(Origin.matches('https://app.example:443', 'https://app.example')).toBe(true)
  })

  it('matches any port with :*', () => {
    expect(Origin.matches('http://localhost:*', 'http://localhost:5173')).toBe(true)
    expect(Origin.matches('http://localhost:*', 'http://localhost')).toBe(true)
    expect(Origin.matches('http://localhost:*', 'http://127.0.0.1:5173')).toBe(false)
    expect(Origin.matches('http://localhost:*', 'http://localhost.evil.example:5173')).toBe(false)
  })

  it('matches subdomains with *. but not the bare domain or look-alikes', () => {
    expect(Origin.matches('https://*.example', 'https://a.example')).toBe(true)
    expect(Origin.matches('https://*.example', 'https://a.b.example')).toBe(true)
    expect(Origin.matches('https://*.example', 'https://example')).toBe(false)
    expect(Origin.matches('https://*.example', 'https://evilexample')).toBe(false)
  })

  it('never allows opaque origins or things that are not origins', () => {
    expect(Origin.isAllowed(['http://localhost:*'], 'null')).toBe(false)
    expect(Origin.isAllowed(['http://localhost:*'], 'http://localhost:5173/path')).toBe(false)
    expect(Origin.isAllowed(['http://localhost:*'], 'http://user@localhost:5173')).toBe(false)
    expect(Origin.isAllowed(['not a pattern'], 'http://localhost:5173')).toBe(false)
  })
})
