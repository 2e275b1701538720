// @vitest-environment jsdom
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mounted } from '../../testing/dom.ts'
import type { CoreUi } from '../Snapshot.ts'
import { AnalyticsNotice } from './AnalyticsNotice.tsx'

const dom = mounted()
const ui = { analyticsNoticeShown: vi.fn(), dismissAnalyticsNotice: vi.fn(), declineAnalytics: vi.fn() }
const render = (snapshot: { analyticsNotice: boolean; open: boolean; canGoBack: boolean }) =>
  act(() => dom.root.render(<AnalyticsNotice snapshot={snapshot} ui={ui as unknown as CoreUi & typeof ui} />))
const notice = () => dom.host.querySelector('[data-testid="analytics-notice"]')

beforeEach(() => {
  for (const call of Object.values(ui)) call.mockClear()
})

describe('the analytics notice', () => {
  it('stands under the view the modal opened on, and counts as seen only in the open modal', () => {
    render({ analyticsNotice: true, open: false, canGoBack: false })
    expect(notice()).not.toBeNull()
    expect(ui.analyticsNoticeShown).not.toHaveBeenCalled()
    render({ analyticsNotice: true, open: true, canGoBack: false })
    expect(ui.analyticsNoticeShown).toHaveBeenCalledOnce()
  })

  it('does not follow the visitor to the views after the first', () => {
    render({ analyticsNotice: true, open: true, canGoBack: true })
    expect(notice()).toBeNull()
    expect(ui.analyticsNoticeShown).not.toHaveBeenCalled()
  })
})
