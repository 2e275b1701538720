import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { autoCloseDelay, create, swapDelay } from './Snackbar.ts'

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
    vi.advanceTimersByTime(autoCloseDelay)
    expect(snackbar.current()).toBeUndefined()
  })

  it('keeps a loading message until it is replaced', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('loading', 'Switching…')
    vi.advanceTimersByTime(autoCloseDelay * 4)
    expect(snackbar.current()?.variant).toBe('loading')
  })

  it('closes an open message and shows the new one after 150 ms', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('loading', 'Switching…')
    snackbar.show('error', 'User rejected the request.')
    expect(snackbar.current()).toBeUndefined()
    vi.advanceTimersByTime(swapDelay - 1)
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
    vi.advanceTimersByTime(autoCloseDelay)
    expect(snackbar.current()).toBeUndefined()
  })

  it('keeps a message shown with the view change, which is about the move', () => {
    const snackbar = create({ onChange: () => {} })
    snackbar.show('error', 'Signature declined')
    snackbar.left()
    expect(snackbar.current()).toMatchObject({ variant: 'error', message: 'Signature declined' })
  })
})
