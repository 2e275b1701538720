import { describe, expect, it } from 'vitest'
import { nameOf } from './naming.ts'

describe('nameOf', () => {
  it('names the visitor by their email, else their handle, else their fid, else their provider', () => {
    expect(nameOf({ email: 'ada@mail.example', username: 'ada', provider: 'github' })).toBe(
      'ada@mail.example',
    )
    expect(nameOf({ username: 'ada', fid: 4242, provider: 'farcaster' })).toBe('ada')
    expect(nameOf({ fid: 4242, provider: 'farcaster' })).toBe('fid 4242')
    // A Facebook login's user: Facebook vouches for no address, so the API gives none.
    expect(nameOf({ provider: 'facebook' })).toBe('Facebook')
  })
})
