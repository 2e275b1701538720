import { describe, expect, it } from 'vitest'
import { isName } from './Names.ts'

describe('isName', () => {
  it('takes dotted names, in any script, and leaves addresses to the address checks', () => {
    for (const name of ['alice.eth', 'newcomer.airlock.id', 'münchen.eth', ' bob.eth '])
      expect(isName(name), name).toBe(true)
    for (const text of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'alice',
      '.eth',
      'alice.',
      'a b.eth',
      '3BstcRQ9cc9NBFaKRoDDsRhaFX5ow4FQdm6HU6fC6t4B',
      'http://x.y/z',
    ])
      expect(isName(text), text).toBe(false)
  })
})
