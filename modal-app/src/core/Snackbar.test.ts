import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { create, onScreen } from './Snackbar.ts'

// docs/behaviour.md §9, written out: a test that read the code's own constants would pass whatever they became.
const swapMs = 150
const autoCloseMs = 2_500

describe('Snackbar', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows a message and closes it by itself', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('success', 'Address copied')
    expect(snackbar.current()).toMatchObject({ variant: 'success', message: 'Address copied' })
    vi.advanceTimersByTime(autoCloseMs)
    expect(snackbar.current()).toBeUndefined()
  })

  it('keeps a loading message until it is replaced', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('loading', 'Switching…')
    vi.advanceTimersByTime(autoCloseMs * 4)
    expect(snackbar.current()?.variant).toBe('loading')
  })

  it('closes an open message and shows the new one after 150 ms', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('loading', 'Switching…')
    snackbar.show('error', 'User rejected the request.')
    expect(snackbar.current()).toBeUndefined()
    vi.advanceTimersByTime(swapMs - 1)
    expect(snackbar.current()).toBeUndefined()
    vi.advanceTimersByTime(1)
    expect(snackbar.current()).toMatchObject({ variant: 'error', message: 'User rejected the request.' })
  })

  it('closes a message about the view left behind, at once', async () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('loading', 'Switching…')
    await Promise.resolve()
    snackbar.left()
    expect(snackbar.current()).toBeUndefined()
    // Its pending swap or close is gone too: nothing comes back.
    vi.advanceTimersByTime(autoCloseMs)
    expect(snackbar.current()).toBeUndefined()
  })

  it('keeps a message shown with the view change, which is about the move', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('error', 'Signature declined')
    snackbar.left()
    expect(snackbar.current()).toMatchObject({ variant: 'error', message: 'Signature declined' })
  })
})

describe('Snackbar, beside a view that says it itself', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('says nothing more, and closes the progress it showed', () => {
    let changes = 0
    const snackbar = create({ onChange: () => changes++ })
    snackbar.show('loading', 'Waiting for the wallet…')
    snackbar.show('error', 'Signature declined', { inView: true })
    expect(snackbar.current()).toBeUndefined()
    expect(changes).toBe(2)
    vi.advanceTimersByTime(autoCloseMs * 2)
    expect(snackbar.current()).toBeUndefined()
  })

  it('drops a message still waiting to swap in', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('success', 'Address copied')
    snackbar.show('loading', 'Waiting for the wallet…')
    snackbar.show('error', 'Signature declined', { inView: true })
    vi.advanceTimersByTime(swapMs * 2)
    expect(snackbar.current()).toBeUndefined()
  })

  it('still shows it where the view cannot', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('error', 'Signature declined', { inView: false })
    expect(snackbar.current()).toMatchObject({ variant: 'error', message: 'Signature declined' })
  })

  it('knows a view on screen only in the open modal', () => {
    const router = (view: string, open: boolean) => ({ view: () => view, isOpen: () => open })
    expect(onScreen(router('SendPreview', true), 'SendPreview')).toBe(true)
    expect(onScreen(router('SendPreview', false), 'SendPreview')).toBe(false)
    expect(onScreen(router('Account', true), 'SendPreview')).toBe(false)
  })
})
