import { useEffect } from 'react'
import { texts } from '../../shared/texts.ts'
import type { AnalyticsSlice } from '../Analytics.ts'
import type { CoreUi } from '../Snapshot.ts'

type AnalyticsNoticeUi = {
  analyticsNoticeShown(): void
  dismissAnalyticsNotice(): void
  declineAnalytics(): void
}

/**
 * One line at the foot of the card, while the project records usage and the visitor has not closed it:
 * what is recorded, "Don't share" and OK. Events are sent only once it has been on screen in the open
 * modal (`Analytics.ts`), so nothing is recorded that the visitor was not told about. It stands under the
 * view the modal opened on only, not under every view the visitor goes on to; once seen, closing the
 * modal closes it for good (once per visitor and page).
 */
export function AnalyticsNotice({
  snapshot,
  ui,
}: {
  snapshot: Partial<AnalyticsSlice> & { open: boolean; canGoBack: boolean }
  // The modal's actions as the card has them (every feature's, untyped): these three are the kernel's.
  ui: CoreUi & Partial<AnalyticsNoticeUi>
}) {
  // Part of the card while the frame is hidden too, so opening neither grows the card nor lays it out
  // again; only once the modal is open has the visitor seen it.
  const due = Boolean(snapshot.analyticsNotice && !snapshot.canGoBack)
  const shown = due && snapshot.open
  useEffect(() => {
    if (shown) ui.analyticsNoticeShown?.()
  }, [shown, ui])
  if (!due) return null
  return (
    <aside className="analytics-notice" aria-label={texts.analytics.label} data-testid="analytics-notice">
      <p>{texts.analytics.notice}</p>
      <button type="button" className="link-button" onClick={() => ui.declineAnalytics?.()}>
        {texts.analytics.decline}
      </button>
      <button type="button" className="link-button" onClick={() => ui.dismissAnalyticsNotice?.()}>
        {texts.analytics.dismiss}
      </button>
    </aside>
  )
}
