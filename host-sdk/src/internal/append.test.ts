/**
 * `append: false`: Airlock builds the modal's dialog and hands it to the dApp (`airlock.element`) instead
 * of appending it to the body. Read through behaviour on the test page: where the dialog is, what a call
 * gets before it is placed, and what a move (which reloads the frame in a browser) keeps.
 */
import type { State } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import { createAirlock } from '../Airlock.ts'
import type { AirlockOptions } from '../AirlockOptions.ts'
import {
  type FakeDialog,
  type FakeElement,
  type FakeIframe,
  fakeClock,
  installPage,
  pass,
  serveModal,
} from './testPage.ts'

const modalUrl = 'http://127.0.0.1:5174'
const notPlaced = 'Place `airlock.element` in the page before using Airlock (append: false).'

fakeClock()

function start(options: Partial<AirlockOptions> = {}) {
  const page = installPage()
  const reasons: string[] = []
  const airlock = createAirlock({
    projectId: 'demo',
    modalUrl,
    networks: ['eip155:1'],
    append: false,
    onTimeout: (reason) => reasons.push(reason),
    ...options,
  })
  const element = airlock.element as unknown as FakeDialog
  /** A container of the dApp's own, in the body, where it places the element. */
  const container = (dir = 'rtl') => {
    const div = page.document.createElement('div')
    div.setAttribute('dir', dir)
    page.document.body.append(div)
    return div
  }
  return { page, airlock, element, container, reasons }
}

describe('append: false', () => {
  it('builds the modal’s dialog with its frame, and leaves it out of the page', () => {
    const { page, airlock, element } = start()
    expect(element.tagName).toBe('dialog')
    expect(element.isConnected).toBe(false)
    expect(page.dialogs()).toEqual([])
    expect(page.frames()).toEqual([])
    const [iframe] = element.children.filter((child) => child.tagName === 'iframe')
    expect((iframe as FakeIframe).src.startsWith(`${modalUrl}/`)).toBe(true)
    expect(element.getAttribute('aria-label')).toBe('Airlock')
    airlock.destroy()
  })

  it('has no element to hand out when Airlock appends the dialog itself', () => {
    const { page, airlock } = start({ append: true })
    expect(airlock.element).toBeUndefined()
    expect(page.dialogs()[0]?.parent).toBe(page.document.body)
    airlock.destroy()
  })

  it('unplaced: open() and a wallet request reject with 4900 at once, each saying how to fix it', async () => {
    const { airlock } = start()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(airlock.open()).rejects.toMatchObject({ code: 4900, message: notPlaced })
    await expect(airlock.providers.eip155.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject({
      code: 4900,
      message: notPlaced,
    })
    // What the provider knows without the modal it still answers.
    await expect(airlock.providers.eip155.request({ method: 'eth_chainId' })).resolves.toBe('0x1')
    expect(logged.mock.calls).toEqual([[`Airlock: ${notPlaced}`], [`Airlock: ${notPlaced}`]])
    airlock.destroy()
  })

  it('placed in the dApp’s container, opens there as a modal dialog', async () => {
    const { airlock, element, container } = start()
    const rtl = container()
    rtl.append(element as unknown as FakeElement)
    const iframe = element.children.find((child) => child.tagName === 'iframe') as FakeIframe
    const views: unknown[] = []
    const modal = await serveModal(iframe, {
      open: (input) => {
        views.push(input)
        modal.remote.setState({ open: true, view: 'Connect', status: 'disconnected', namespaces: {} })
      },
    })
    await airlock.open({ view: 'Networks' })
    expect(views).toEqual([{ view: 'Networks' }])
    await pass(100)
    expect(element.open).toBe(true)
    expect(element.parent).toBe(rtl)
    airlock.destroy()
    modal.close()
  })

  it('moved, the frame’s reload is greeted again and the modal’s state comes back; destroy takes it away', async () => {
    const { page, airlock, element, container } = start()
    container().append(element as unknown as FakeElement)
    const iframe = element.children.find((child) => child.tagName === 'iframe') as FakeIframe
    const connected: State = {
      open: false,
      view: 'Account',
      status: 'connected',
      namespaces: {
        eip155: {
          chainId: 'eip155:1',
          accounts: [{ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }],
        },
      },
    }
    const first = await serveModal(iframe, { getState: () => connected })
    await pass(100)
    expect(airlock.getState().status).toBe('connected')
    // Moving an iframe in a browser reloads it: a new document answers the handshake, the same frame.
    const other = container('ltr')
    other.append(element as unknown as FakeElement)
    const second = await serveModal(iframe, { getState: () => connected, request: () => '0x1' })
    await pass(100)
    await expect(airlock.providers.eip155.request({ method: 'eth_blockNumber' })).resolves.toBe('0x1')
    expect(airlock.getState().status).toBe('connected')
    expect(element.parent).toBe(other)
    expect(element.children.filter((child) => child.tagName === 'iframe')).toEqual([iframe])
    airlock.destroy()
    expect(element.isConnected).toBe(false)
    expect(page.frames()).toEqual([])
    first.close()
    second.close()
  })

  it('waits for placement without timing out, then gives the frame its whole 20 s to load', async () => {
    const { airlock, element, container, reasons } = start()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    await pass(60_000)
    expect(reasons).toEqual([])
    container().append(element as unknown as FakeElement)
    const opened = airlock.open().catch((error: unknown) => error)
    // Placed, and the modal never answers: the time-out counts from no earlier than the placement.
    await pass(20_000)
    expect(reasons).toEqual([])
    await pass(20_000)
    expect(reasons).toEqual(['iframe_load_failed'])
    expect(await opened).toMatchObject({ code: -32603, reason: 'iframe_load_failed' })
    expect(logged).toHaveBeenCalledTimes(1)
    airlock.destroy()
  })

  it('is refused with embedded, which places Airlock itself, before anything mounts', () => {
    const page = installPage()
    const container = page.document.createElement('div')
    page.document.body.append(container)
    expect(() =>
      createAirlock({
        projectId: 'demo',
        modalUrl,
        networks: ['eip155:1'],
        embedded: container as unknown as HTMLElement,
        append: false,
      }),
    ).toThrow(new TypeError('Airlock: `embedded` places Airlock itself: leave out `append: false`.'))
    expect(page.frames()).toEqual([])
  })

  it('is what data-append="false" on the script tag asks for', async () => {
    const page = installPage()
    const tag = page.document.createElement('script') as FakeElement
    Object.assign(tag.dataset, { projectId: 'demo', networks: 'eip155:1', modalUrl, append: 'false' })
    vi.stubGlobal('HTMLScriptElement', class {})
    Object.assign(page.document, { currentScript: tag })
    vi.resetModules()
    await import('../script.ts')
    const airlock = (window as unknown as { airlock: { element?: FakeDialog; destroy(): void } }).airlock
    expect(airlock.element?.tagName).toBe('dialog')
    expect(page.dialogs()).toEqual([])
    airlock.destroy()
  })
})
