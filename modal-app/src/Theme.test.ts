import { describe, expect, it, vi } from 'vitest'
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
})
