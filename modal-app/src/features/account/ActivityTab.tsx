import { useCallback, useEffect, useRef, useState } from 'react'
import type * as Api from '../../api/Api.ts'
import type { RecentSend } from '../../shared/RecentSend.ts'
import { SkeletonIcon, SkeletonLines, SkeletonText } from '../../shared/ui/Skeleton.tsx'
import { counterparties, describe, groupByDay, merge, type Names, type Row, withRecent } from './Activity.ts'
import type { AccountRef, TabsUi } from './tabs.ts'
import { activityTexts } from './texts.ts'

/** While the tab shows, its first page is read again this often, so a new transaction appears on its own. */
const refreshMs = 4_000

type State = {
  items: Api.HistoryItem[]
  next: string | null
  loading: boolean
  error?: string | undefined
}

/**
 * The Activity tab (loaded on demand): the account's transactions on its chain, newest first, a heading
 * per day; the next page loads when the end of the list comes into view, or by "Load more". Sends made in
 * the modal show at once (`recent`, pending until the chain answers), before the API lists them. On EVM
 * chains a counterparty with a name shows by it once the API told it (`ui.namesOf`); its address until then.
 */
export default function ActivityTab({
  account,
  recent = [],
  ui,
}: {
  account: AccountRef
  recent?: readonly RecentSend[] | undefined
  ui: Pick<TabsUi, 'history'> & Partial<Pick<TabsUi, 'namesOf'>>
}) {
  const [state, setState] = useState<State>({ items: [], next: null, loading: true })
  const [names, setNames] = useState<Names>({})
  const sentinel = useRef<HTMLDivElement>(null)
  const busy = useRef(false)
  // The view renders again on every change anywhere in the modal: reading restarts only for another account.
  const { address, chainId } = account
  const read = useRef(ui.history)
  read.current = ui.history
  const name = useRef(ui.namesOf)
  name.current = ui.namesOf

  const load = useCallback(
    async (cursor: string | null) => {
      if (busy.current) return
      busy.current = true
      if (cursor) setState((state) => ({ ...state, loading: true }))
      const page = await read.current({ address, chainId }, cursor)
      busy.current = false
      setState((state) =>
        page.error
          ? { ...state, loading: false, next: null, error: page.error }
          : {
              items: merge(state.items, page.data, cursor ? 'back' : 'front'),
              // A refresh of the first page keeps the cursor of the pages already read.
              next: cursor || state.items.length === 0 ? page.next : state.next,
              loading: false,
            },
      )
    },
    [address, chainId],
  )

  useEffect(() => {
    void load(null)
    const timer = setInterval(() => void load(null), refreshMs)
    return () => clearInterval(timer)
  }, [load])

  const { next, loading } = state
  // The end of the list coming into view asks for the next page.
  useEffect(() => {
    const element = sentinel.current
    if (!element || !next || loading || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void load(next)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [next, loading, load])

  const items = withRecent(state.items, recent, account)
  const days = groupByDay(items)
  // Asked again with each refresh of the list: the cache answers at once, and a name that arrived in the
  // meantime (or expired) is picked up. The list never waits for it.
  const wanted = counterparties(items).join(' ')
  // biome-ignore lint/correctness/useExhaustiveDependencies: each refresh of the list (`state.items`) asks again.
  useEffect(() => {
    if (!wanted || !name.current) return
    let current = true
    void name.current(wanted.split(' ')).then((known) => {
      if (current) setNames(known)
    })
    return () => {
      current = false
    }
  }, [wanted, state.items])
  return (
    <div className="activity" data-testid="activity" aria-busy={state.loading}>
      {state.error && (
        <p className="muted" role="alert">
          {state.error}
        </p>
      )}
      {!state.error && !state.loading && items.length === 0 && <p className="muted">{activityTexts.empty}</p>}
      {state.loading && items.length === 0 && <Placeholder />}
      {days.map((day) => (
        <section key={day.key} aria-labelledby={`activity-day-${day.key}`}>
          <h2 className="label" id={`activity-day-${day.key}`}>
            {day.heading}
          </h2>
          <ul className="plain-list">
            {day.items.map((item) => (
              <Transaction key={item.id} row={describe(item, undefined, names)} />
            ))}
          </ul>
        </section>
      ))}
      {state.next && (
        <div ref={sentinel}>
          <button
            type="button"
            className="button button-secondary"
            disabled={state.loading}
            onClick={() => void load(state.next)}
          >
            {state.loading ? activityTexts.loading : activityTexts.loadMore}
          </button>
        </div>
      )}
    </div>
  )
}

/** Arrows for what came and went; the text beside each says it in words. */
const icons: Record<string, string> = {
  send: '↑',
  receive: '↓',
  trade: '⇄',
  mint: '✦',
  burn: '✕',
  approve: '✓',
  execute: '⚙',
  deploy: '⊕',
}

/** Transactions held while the first page loads: a day's heading and three rows, each a row's size. */
function Placeholder() {
  return (
    <>
      <p className="sr-only">{activityTexts.loading}</p>
      <div aria-hidden="true" data-testid="activity-placeholder">
        <p className="label">
          <SkeletonText width="6em" />
        </p>
        <ul className="plain-list">
          {[0, 1, 2].map((row) => (
            <li key={row} className="transaction">
              <SkeletonIcon size={28} />
              <SkeletonLines className="transaction-main" under="muted" widths={['5em', '8em']} />
              <SkeletonLines className="transaction-side" under="status" widths={['5em', '4em']} />
            </li>
          ))}
        </ul>
      </div>
    </>
  )
}

function Transaction({ row }: { row: Row }) {
  return (
    <li className="transaction" data-testid="transaction" data-status={row.status} data-id={row.id}>
      <span className={`transaction-icon transaction-${row.operation}`} aria-hidden="true">
        {icons[row.operation] ?? '•'}
      </span>
      <span className="transaction-main">
        <span className="transaction-label">{row.label}</span>
        {row.counterparty && (
          // Shortened or named on screen; the full address in the title and for screen readers.
          <span className="muted" title={row.counterparty.address}>
            <span aria-hidden="true">{row.counterparty.label}</span>
            <span className="sr-only">{row.counterparty.spoken}</span>
          </span>
        )}
      </span>
      <span className="transaction-side">
        {row.amount && <span className="transaction-amount">{row.amount}</span>}
        <span className={`status status-${row.status}`}>{activityTexts.status[row.status]}</span>
      </span>
    </li>
  )
}
