import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import * as Theme from './Theme.ts'
import { sanitize } from './Theme.ts'

describe('Theme.sanitize', () => {
  const quiet = () => {}

  it('keeps --airlock-* variables with plain values', () => {
    expect(
      sanitize(
        {
          '--airlock-accent': '#ff6600',
          '--airlock-font-family': '"Inter", sans-serif',
          '--airlock-radius': ' 8px ',
        },
        quiet,
      ),
    ).toEqual({
      '--airlock-accent': '#ff6600',
      '--airlock-font-family': '"Inter", sans-serif',
      '--airlock-radius': '8px',
    })
  })

  it('drops keys that are not --airlock-* custom properties', () => {
    expect(
      sanitize({ color: 'red', '--other-accent': 'red', '--airlock-': 'red', '--AIRLOCK-x': 'red' }, quiet),
    ).toEqual({})
  })

  it('drops values that load URLs or break out of the declaration', () => {
    const bad = [
      'url(https://evil.example/x.png)',
      'URL( "https://evil.example" )',
      'red; background: blue',
      'red } body { display: none',
      '{',
      'u\\72l(https://evil.example)',
      'ur/**/l(x)',
      'expression(alert(1))',
      '</style>',
      'image-set("https://evil.example/x.png" 1x)',
      'src("https://evil.example")',
      'var(--other)',
      'calc(1px + 2px)',
      'red !important',
      'rgb(0 0 0) url(x)',
      '',
    ]
    for (const value of bad) expect(sanitize({ '--airlock-accent': value }, quiet)).toEqual({})
  })

  it('warns about what it drops', () => {
    const warn = vi.fn()
    sanitize({ '--airlock-accent': 'url(x)' }, warn)
    expect(warn).toHaveBeenCalledWith('[airlock] Theme variable --airlock-accent is ignored.')
  })

  it('accepts no variables at all', () => {
    expect(sanitize(undefined, quiet)).toEqual({})
  })

  it('keeps only colours, lengths, font-family lists and z-indexes', () => {
    const good = [
      '#f60',
      '#ff6600cc',
      'rgb(255, 102, 0)',
      'rgba(0, 0, 0, 0.5)',
      'hsl(210 40% 50% / 0.5)',
      'rebeccapurple',
      '12px',
      '1.5rem',
      '0.75em',
      '50%',
      "'Inter', system-ui, sans-serif",
      '1000',
    ]
    for (const value of good)
      expect(sanitize({ '--airlock-x': value }, quiet)).toEqual({ '--airlock-x': value })
  })

  it('drops values that are not strings instead of throwing', () => {
    const variables = { '--airlock-z-index': 42 } as unknown as Record<string, string>
    expect(sanitize(variables, quiet)).toEqual({})
  })
})

describe('Theme.apply', () => {
  const root = () =>
    ({ dataset: {} as DOMStringMap, style: { setProperty: vi.fn() } }) as unknown as HTMLElement
  const media = (matches: boolean) => {
    let listener: () => void = () => {}
    const query = {
      matches,
      addEventListener: (_: string, next: () => void) => {
        listener = next
      },
    }
    const change = (next: boolean) => {
      query.matches = next
      listener()
    }
    return { query, change }
  }

  it('uses the host’s mode and ignores the visitor’s preference', () => {
    const element = root()
    const dark = media(true)
    Theme.apply(element, { mode: 'light' }, dark.query as unknown as MediaQueryList)
    dark.change(true)
    expect(element.dataset.theme).toBe('light')
  })

  it('follows the visitor’s preference, also when it changes, when the host names no mode', () => {
    const element = root()
    const dark = media(true)
    Theme.apply(element, {}, dark.query as unknown as MediaQueryList)
    expect(element.dataset.theme).toBe('dark')
    dark.change(false)
    expect(element.dataset.theme).toBe('light')
  })
})

describe('Theme variables', () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
  const names = (text: string) => new Set(text.match(/--airlock-[a-z0-9-]+/g))

  it('are documented in the README exactly as the stylesheet reads them', () => {
    const readme = read('../../../README.md')
    const table = readme.slice(readme.indexOf('### Theme'), readme.indexOf('### The `airlock` object'))
    const documented = names(table)
    const styles = read('../styles.css')
    const used = new Set([...styles.matchAll(/var\((--airlock-[a-z0-9-]+)/g)].map((match) => match[1]))
    expect([...documented].sort()).toEqual([...used].sort())
    // More than the 8 other modals offer.
    expect(documented.size).toBeGreaterThan(8)
  })

  it('take durations, so the motion can be themed', () => {
    expect(sanitize({ '--airlock-motion-duration': '120ms' }, () => {})).toEqual({
      '--airlock-motion-duration': '120ms',
    })
  })
})
