/**
 * The wallet registry as the modal browses it: featured and recommended wallets for
 * Connect, and the AllWallets list — pages of 40 with infinite scroll, search of up to 100 entries after a
 * 300 ms pause, 20 images prefetched per page with a 2 s time-out. Wallets the project excludes are hidden,
 * and so are wallets already on the page (by rdns or name: Connect lists those as installed); on mobile,
 * wallets that cannot be opened there (no mobile or web link) are hidden too.
 */
import type * as Api from '../../api/Api.ts'
import { excludes } from '../../core/Excluded.ts'
import type { Timers } from '../../core/Snackbar.ts'
import { imageTimeoutMs } from './WalletImage.tsx'

const pageSize = 40
const searchSize = 100
export const searchDelayMs = 300
const prefetchCount = 20
export const prefetchTimeoutMs = imageTimeoutMs
const featuredCount = 4
const recommendedCount = 4

type State = {
  search: string
  items: Api.Listing[]
  /** How many match in all, as the API counts them. */
  count: number
  loading: boolean
  /** All pages are in. */
  done: boolean
  failed: boolean
}

export type Options = {
  api: Pick<Api.Client, 'wallets' | 'imageUrl'>
  /** The page's own wallets, which Connect already lists. */
  installed: () => readonly { rdns?: string | undefined; name: string }[]
  exclude: readonly string[]
  featured: readonly string[]
  mobile: boolean
  timers: Timers
  /** Loads an image into the cache; resolves when it loaded or failed. */
  preload: (url: string) => Promise<void>
  onChange: () => void
}

/** Connect's registry wallets, and how many the registry lists in all (its "All wallets" row). */
export type Suggestions = { featured: Api.Listing[]; recommended: Api.Listing[]; count: number }

export type WalletRegistry = {
  state(): State
  /** Starts the list over, with the first page. */
  open(): void
  /** Searches after the pause; an empty text lists everything again. */
  search(text: string): void
  /** The next page, when the visitor scrolled near the end. */
  more(): void
  /** Featured (configured ids, else the registry's first) and recommended wallets for Connect. */
  suggestions(): Promise<Suggestions>
  imageUrl(listing: Api.Listing): string
}

/**
 * @example
 * const registry = WalletRegistry.create({ api, installed, exclude: [], featured: [], mobile: false, timers, preload, onChange })
 * registry.open()
 */
export function create(options: Options): WalletRegistry {
  const { api, timers } = options
  let state: State = { search: '', items: [], count: 0, loading: false, done: false, failed: false }
  let page = 0
  let generation = 0
  let pending: unknown

  const set = (next: Partial<State>) => {
    state = { ...state, ...next }
    options.onChange()
  }

  const hidden = excludes({ excludeWalletIds: [...options.exclude] })
  // The API excludes by registry id; a name or rdns the host gave is matched here, on what comes back.
  const exclude = options.exclude.filter((entry) => /^[\w-]{1,80}$/.test(entry))
  const visible = (listing: Api.Listing) => {
    if (hidden(listing)) return false
    const installed = options
      .installed()
      .some(
        (wallet) =>
          (wallet.rdns && wallet.rdns === listing.rdns) ||
          wallet.name.toLowerCase() === listing.name.toLowerCase(),
      )
    if (installed) return false
    return !options.mobile || Boolean(listing.mobile_link || listing.webapp_link)
  }

  const prefetch = (items: readonly Api.Listing[]) =>
    Promise.all(
      items
        .slice(0, prefetchCount)
        .map((listing) =>
          Promise.race([
            options.preload(api.imageUrl(listing.image_id)).catch(() => {}),
            new Promise<void>((resolve) => timers.setTimeout(resolve, prefetchTimeoutMs)),
          ]),
        ),
    )

  async function load(reset: boolean) {
    const mine = reset ? ++generation : generation
    const next = reset ? 1 : page + 1
    const searching = state.search !== ''
    set({ loading: true, failed: false, ...(reset ? { items: [], count: 0, done: false } : {}) })
    try {
      const result = await api.wallets({
        page: next,
        entries: searching ? searchSize : pageSize,
        search: searching ? state.search : undefined,
        exclude,
      })
      await prefetch(result.data)
      if (mine !== generation) return
      page = next
      const items = [...(reset ? [] : state.items), ...result.data.filter(visible)]
      const fetched = (next - 1) * (searching ? searchSize : pageSize) + result.data.length
      set({ items, count: result.count, loading: false, done: searching || fetched >= result.count })
    } catch (error) {
      if (mine !== generation) return
      console.warn('[airlock] Could not read the wallet registry.', error)
      set({ loading: false, failed: true })
    }
  }

  return {
    state: () => state,
    open() {
      timers.clearTimeout(pending)
      state = { ...state, search: '' }
      void load(true)
    },
    search(text) {
      const search = text.trim().slice(0, 100)
      timers.clearTimeout(pending)
      if (search === state.search) return
      // Typing invalidates what is on the way; the search itself waits for a pause.
      generation++
      set({ search, loading: true })
      pending = timers.setTimeout(() => void load(true), searchDelayMs)
    },
    more() {
      if (state.loading || state.done || state.failed) return
      void load(false)
    },
    async suggestions() {
      const first = await api.wallets({ page: 1, entries: pageSize, exclude })
      const candidates = first.data.filter(visible)
      const byId = options.featured.length
        ? (await api.wallets({ page: 1, entries: pageSize, include: options.featured })).data
        : []
      // Configured ids keep the order they were given in.
      const configured = options.featured.flatMap((id) =>
        byId.filter((listing) => listing.id === id && visible(listing)),
      )
      const featured = (configured.length ? configured : candidates).slice(0, featuredCount)
      const recommended = candidates
        .filter((listing) => !featured.some((item) => item.id === listing.id))
        .slice(0, recommendedCount)
      return { featured, recommended, count: first.count }
    },
    imageUrl: (listing) => api.imageUrl(listing.image_id),
  }
}

/** Loads an image into the browser's cache. */
export function preloadImage(url: string): Promise<void> {
  return new Promise((resolve) => {
    const image = new Image()
    image.onload = () => resolve()
    image.onerror = () => resolve()
    image.src = url
  })
}
