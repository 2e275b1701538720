import type { Errors } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'

/** The page, as much of a window as the module uses; `telegram` as `Telegram.WebApp` says it. */
function pageAt(href: string, options: { telegram?: unknown; active?: boolean } = {}) {
  const location = { href, assign: vi.fn() }
  const history = {
    state: { router: 1 },
    replaceState: vi.fn((_state: unknown, _unused: string, url: URL) => {
      location.href = String(url)
    }),
  }
  return {
    location,
    history,
    navigator: { userActivation: { isActive: options.active ?? true } },
    ...(options.telegram === undefined ? {} : { Telegram: { WebApp: options.telegram } }),
  } as unknown as Window & { location: typeof location; history: typeof history }
}

// Each case a fresh module: a page load reads its address once.
const fresh = async () => {
  vi.resetModules()
  return import('./socialReturn.ts')
}
const ios = { platform: 'ios', version: '8.0' }

describe('the page side of a social login that leaves a Telegram mini-app', () => {
  it('takes result_uri out of the address at once, keeps the rest, and hands it over once', async () => {
    const SocialReturn = await fresh()
    const page = pageAt(`https://mini.example/app?tab=swap&result_uri=${'h'.repeat(43)}#tgWebAppData=x`)
    SocialReturn.clean(page)
    expect(page.location.href).toBe('https://mini.example/app?tab=swap#tgWebAppData=x')
    expect(page.history.replaceState).toHaveBeenCalledWith({ router: 1 }, '', expect.any(URL))
    expect(SocialReturn.take(page)).toBe('h'.repeat(43))
    expect(SocialReturn.take(page)).toBeUndefined()
  })

  it('leaves an address without a result as it is', async () => {
    const SocialReturn = await fresh()
    const page = pageAt('https://mini.example/app')
    expect(SocialReturn.take(page)).toBeUndefined()
    expect(page.history.replaceState).not.toHaveBeenCalled()
  })

  it('goes to the start naming this page (without a result or fragment) as the return', async () => {
    const SocialReturn = await fresh()
    const page = pageAt('https://mini.example/app?tab=swap#tgWebAppData=x', { telegram: ios })
    SocialReturn.leaveFor('http://127.0.0.1:8787/v1/auth/social/github/start?projectId=p&binding=b', page)
    const target = new URL(page.location.assign.mock.calls[0]?.[0])
    expect(target.searchParams.get('binding')).toBe('b')
    expect(target.searchParams.get('return')).toBe('https://mini.example/app?tab=swap')
  })

  it('refuses to leave outside a mini-app, without a click, or for a URL that is not http(s): typed errors', async () => {
    const SocialReturn = await fresh()
    const start = 'https://api.example/v1/auth/social/github/start'
    const refusals: Array<[ReturnType<typeof pageAt>, string, number]> = [
      [pageAt('https://mini.example/'), start, 4100],
      [pageAt('https://mini.example/', { telegram: { platform: 'unknown' } }), start, 4100],
      [pageAt('https://mini.example/', { telegram: ios, active: false }), start, 4100],
      [pageAt('https://mini.example/', { telegram: ios }), 'javascript:alert(1)', -32602],
      [pageAt('https://mini.example/', { telegram: ios }), 'not a url', -32602],
    ]
    for (const [page, url, code] of refusals) {
      const error = (() => {
        try {
          SocialReturn.leaveFor(url, page)
        } catch (error) {
          return error
        }
      })()
      // A fresh module has an Errors of its own: the code is what a caller reads.
      expect((error as Errors.BaseError).code).toBe(code)
      expect(page.location.assign).not.toHaveBeenCalled()
    }
  })
})
