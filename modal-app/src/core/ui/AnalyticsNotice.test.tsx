// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CoreUi } from '../Snapshot.ts'
import { AnalyticsNotice } from './AnalyticsNotice.tsx'

// React's `act` warns unless the environment says it is a test's.
Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

let root: Root
let host: HTMLElement
const ui = { analyticsNoticeShown: vi.fn(), dismissAnalyticsNotice: vi.fn(), declineAnalytics: vi.fn() }
const render = (snapshot: { analyticsNotice: boolean; open: boolean; canGoBack: boolean }) =>
  act(() => root.render(<AnalyticsNotice snapshot={snapshot} ui={ui as unknown as CoreUi & typeof ui} />))
const notice = () => host.querySelector('[data-testid="analytics-notice"]')

beforeEach(() => {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  for (const call of Object.values(ui)) call.mockClear()
})
afterEach(() => {
  act(() => root.unmount())
  host.remove()
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
