import { describe, expect, it } from 'vitest'
import * as Projects from './Projects.ts'

describe('Projects', () => {
  it('accepts only origin patterns that are also valid CSP sources', () => {
    for (const ok of [
      'https://shop.example',
      'http://localhost:*',
      'https://*.shop.example',
      'http://127.0.0.1:5173',
    ])
      expect(Projects.isOriginPattern(ok), ok).toBe(true)
    for (const bad of [
      '*',
      'https://*',
      'shop.example',
      'https://shop.example/path',
      "'self'",
      'https://a b',
      'javascript://x',
    ])
      expect(Projects.isOriginPattern(bad), bad).toBe(false)
  })

  it("builds frame-ancestors, 'none' when nothing is allowed", () => {
    expect(Projects.frameAncestors(['http://localhost:*', 'https://a.example'])).toBe(
      'http://localhost:* https://a.example',
    )
    expect(Projects.frameAncestors([])).toBe("'none'")
    expect(Projects.frameAncestors(undefined)).toBe("'none'")
    expect(Projects.frameAncestors(["'unsafe-inline'"])).toBe("'none'")
  })
})
