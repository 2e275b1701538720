import * as Contract from '@airlock/api/contract'
import { describe, expect, it } from 'vitest'
import { land, read } from './page.ts'
import { failures } from './protocol.ts'

const handoff = 'h'.repeat(43)

describe('the social login page', () => {
  it('reads a handoff or a known failure, and nothing else, from its fragment', () => {
    expect(read(`#handoff=${handoff}`)).toEqual({ type: 'airlock:social', handoff })
    expect(read('#error=email_not_verified')).toEqual({ type: 'airlock:social', error: 'email_not_verified' })
    for (const fragment of [
      '',
      '#',
      '#handoff=short',
      `#handoff=${handoff}x`,
      `#handoff=${'h'.repeat(42)}+`,
      '#error=server_error',
      `#handoff=${handoff}&error=access_denied`,
      `#handoff=${handoff}&handoff=${handoff}`,
      `#token=${handoff}`,
      '#type=airlock:social',
      `#__proto__=${handoff}`,
    ])
      expect(read(fragment), fragment).toBeUndefined()
  })

  it('knows the very failures the API sends', () => {
    expect(failures).toEqual(Contract.socialFailures)
  })

  /** The login window at `url`: what the page does to it, and what it posts to its opener. */
  const windowAt = (url: string, withOpener = true) => {
    const address = new URL(url)
    const posted: Array<{ data: unknown; targetOrigin: string }> = []
    const status = { textContent: 'Finishing your sign-in…' }
    const state = { closed: false, address: address.href }
    const self = {
      location: address,
      history: {
        replaceState: (_data: unknown, _unused: string, to: string) => {
          state.address = new URL(to, address).href
        },
      },
      opener: withOpener
        ? { postMessage: (data: unknown, targetOrigin: string) => posted.push({ data, targetOrigin }) }
        : null,
      top: undefined as unknown,
      close: () => {
        state.closed = true
      },
      document: { getElementById: (id: string) => (id === 'status' ? status : null) },
    }
    self.top = self
    land(self as unknown as Window)
    return { posted, status: status.textContent, ...state }
  }

  it('hands its opener the handoff, pinned to its own origin, once, and closes', () => {
    const page = windowAt(`http://127.0.0.1:5174/social.html#handoff=${handoff}`)
    expect(page.posted).toEqual([
      { data: { type: 'airlock:social', handoff }, targetOrigin: 'http://127.0.0.1:5174' },
    ])
    expect(page.address).toBe('http://127.0.0.1:5174/social.html')
    expect(page.closed).toBe(true)
  })

  it('hands its opener the failure the API sent', () => {
    const page = windowAt('http://127.0.0.1:5174/social.html#error=access_denied')
    expect(page.posted).toEqual([
      { data: { type: 'airlock:social', error: 'access_denied' }, targetOrigin: 'http://127.0.0.1:5174' },
    ])
    expect(page.closed).toBe(true)
  })

  it('opened on its own, takes the handoff out of the address and says so, doing nothing else', () => {
    const page = windowAt(`http://127.0.0.1:5174/social.html?x=1#handoff=${handoff}`, false)
    expect(page.address).toBe('http://127.0.0.1:5174/social.html?x=1')
    expect(page.posted).toEqual([])
    expect(page.closed).toBe(false)
    expect(page.status).toMatch(/^This window finishes a sign-in started in Airlock\./)
  })

  it('posts nothing for a fragment it cannot read, and stays open to say so', () => {
    const page = windowAt('http://127.0.0.1:5174/social.html#handoff=forged')
    expect(page.posted).toEqual([])
    expect(page.closed).toBe(false)
    expect(page.address).toBe('http://127.0.0.1:5174/social.html')
    expect(page.status).toBe('This sign-in could not be read. Close this window and try again.')
  })
})
