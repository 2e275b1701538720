import { describe, expect, it } from 'vitest'
import { defaultRestrictedTimeZones, restricted } from './Region.ts'

describe('restricted time zones', () => {
  it('by default, mainland China’s, Hong Kong’s and Macau’s zones, in any case', () => {
    for (const zone of ['Asia/Shanghai', 'Asia/Urumqi', 'Asia/Hong_Kong', 'Asia/Macau', 'ASIA/SHANGHAI'])
      expect(restricted(undefined, zone), zone).toBe(true)
    for (const zone of ['Asia/Taipei', 'Asia/Tokyo', 'Europe/Berlin', 'UTC', 'America/New_York'])
      expect(restricted(undefined, zone), zone).toBe(false)
    expect(defaultRestrictedTimeZones).toHaveLength(8)
  })

  it('the host’s list replaces them, and an empty one restricts nowhere', () => {
    expect(restricted(['Europe/Berlin'], 'Europe/Berlin')).toBe(true)
    expect(restricted(['Europe/Berlin'], 'Asia/Shanghai')).toBe(false)
    expect(restricted([], 'Asia/Shanghai')).toBe(false)
  })

  it('a browser that reports no time zone is restricted nowhere', () => {
    expect(restricted(undefined, undefined)).toBe(false)
  })
})
