import { socialProviders } from '@airlock/bridge-protocol/Features'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import SocialMark from './SocialMarks.tsx'

describe('the social marks', () => {
  it('draws every provider’s mark, each its own, decorative, in the text’s colour and a few hundred bytes', () => {
    const drawn = socialProviders.map((provider) => renderToStaticMarkup(<SocialMark provider={provider} />))
    for (const svg of drawn) {
      expect(svg).toMatch(/^<svg class="social-mark"[^>]* fill="currentColor" aria-hidden="true"/)
      expect(svg).toMatch(/<path /)
      expect(svg).not.toMatch(/#[0-9a-f]{3,6}|rgb|hsl/i)
      expect(svg.length).toBeLessThan(1100)
    }
    expect(new Set(drawn.map((svg) => svg.replace(/data-provider="[^"]+"/, ''))).size).toBe(drawn.length)
  })

  it('keeps the box for a provider it has no mark for', () => {
    expect(renderToStaticMarkup(<SocialMark provider="myspace" />)).not.toMatch(/<path/)
  })
})
