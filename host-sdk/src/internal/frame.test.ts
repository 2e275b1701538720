import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAirlock } from '../Airlock.ts'
import { mountFrame } from './frame.ts'
import { type FakeDialog, type FakeElement, type FakeIframe, installPage, serveModal } from './testPage.ts'

// No DOM library here: testPage.ts stands in for the few parts of a page the host SDK touches.
afterEach(() => vi.unstubAllGlobals())

const modal = 'http://127.0.0.1:5174'
const src = `${modal}/?projectId=demo`

function mounted(container?: FakeElement) {
  const page = installPage()
  const cancels: number[] = []
  const frame = mountFrame(src, container as unknown as HTMLElement | undefined, () => cancels.push(1))
  const iframe = frame.iframe as unknown as FakeIframe
  return { page, frame, iframe, dialog: page.dialogs()[0] as FakeDialog, cancels }
}

describe('the modal frame', () => {
  it('is sandboxed with exactly the tokens the modal needs, and never allow-top-navigation', () => {
    const { iframe } = mounted()
    const sandbox = iframe.getAttribute('sandbox') ?? ''
    expect(sandbox).toBe(
      'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms allow-storage-access-by-user-activation',
    )
    expect(sandbox.split(' ').filter((token) => token.startsWith('allow-top-navigation'))).toEqual([])
  })

  it('is titled, sends only its origin as referrer, may write the clipboard and nothing else', () => {
    const { iframe } = mounted()
    expect(iframe.src).toBe(src)
    expect(iframe.title).toBe('Airlock')
    expect(iframe.referrerPolicy).toBe('origin')
    expect(iframe.allow).toBe('clipboard-write;publickey-credentials-get;publickey-credentials-create')
  })

  it('waits hidden in a labelled top-layer dialog until shown', () => {
    const { page, iframe, dialog } = mounted()
    expect(page.dialogs()).toHaveLength(1)
    expect(dialog.parent).toBe(page.document.body)
    expect(iframe.parent).toBe(dialog)
    expect(dialog.getAttribute('aria-label')).toBe('Airlock')
    expect(dialog.dataset.airlock).toBe('')
    expect(dialog.open).toBe(false)
  })

  it('shows as a modal dialog that locks the page’s scroll and takes focus; hides giving both back', () => {
    const { page, frame, iframe, dialog } = mounted()
    const button = page.document.createElement('button')
    page.document.body.append(button)
    button.focus()
    page.document.documentElement.style.overflow = 'clip'
    frame.show()
    expect(dialog.open).toBe(true)
    expect(page.document.documentElement.style.overflow).toBe('hidden')
    expect(page.document.activeElement).toBe(iframe)
    // A second show changes nothing: hide must still give back the page's own overflow.
    frame.show()
    frame.hide()
    expect(dialog.open).toBe(false)
    expect(page.document.documentElement.style.overflow).toBe('clip')
    expect(page.document.activeElement).toBe(button)
    frame.hide()
    expect(page.document.documentElement.style.overflow).toBe('clip')
  })

  it('turns Escape into a request to close, which the modal decides', () => {
    const { dialog, cancels } = mounted()
    const pressed = new Event('cancel', { cancelable: true })
    dialog.dispatchEvent(pressed)
    expect(pressed.defaultPrevented).toBe(true)
    expect(cancels).toEqual([1])
  })

  it('leaves the document on destroy', () => {
    const { page, frame } = mounted()
    frame.destroy()
    expect(page.dialogs()).toEqual([])
    expect(page.frames()).toEqual([])
  })

  it('gives focus back to the control inside a shadow root, not to the root’s host', () => {
    const { page, frame } = mounted()
    const host = page.document.createElement('div')
    const button = page.document.createElement('button')
    page.document.body.append(host)
    Object.assign(host, { shadowRoot: { activeElement: button } })
    host.focus()
    frame.show()
    frame.hide()
    expect(page.document.activeElement).toBe(button)
  })

  it('in a dialog the dApp placed: stays there across re-mounts, one frame and one Escape handler at a time', () => {
    const page = installPage()
    const container = page.document.createElement('div')
    page.document.body.append(container)
    const dialog = page.document.createElement('dialog') as FakeDialog
    container.append(dialog)
    const cancels: string[] = []
    const placed = dialog as unknown as HTMLDialogElement
    const first = mountFrame(src, undefined, () => cancels.push('first'), placed)
    first.destroy()
    expect(dialog.parent).toBe(container)
    expect(page.frames()).toEqual([])
    const second = mountFrame(src, undefined, () => cancels.push('second'), placed)
    expect(page.frames()).toEqual([second.iframe])
    expect(dialog.children.map((child) => child.tagName)).toEqual(['style', 'iframe'])
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }))
    expect(cancels).toEqual(['second'])
    second.show()
    expect(dialog.open).toBe(true)
  })

  it('embedded: sits in the container at the height the modal reports, with no dialog', () => {
    const page = installPage()
    const container = page.document.createElement('div')
    page.document.body.append(container)
    const frame = mountFrame(src, container as unknown as HTMLElement, () => {})
    const iframe = frame.iframe as unknown as FakeIframe
    expect(iframe.parent).toBe(container)
    expect(page.dialogs()).toEqual([])
    expect(iframe.style.height).toBe('0')
    frame.resize(420)
    expect(iframe.style.height).toBe('420px')
    frame.show()
    frame.hide()
    expect(iframe.parent).toBe(container)
    frame.destroy()
    expect(container.children).toEqual([])
  })

  it('is only ever posted to at the modal’s origin, never "*", on each load', async () => {
    const page = installPage()
    const airlock = createAirlock({ projectId: 'demo', modalUrl: modal, networks: ['eip155:1'] })
    const iframe = page.frames()[0] as FakeIframe
    expect(new URL(iframe.src).origin).toBe(modal)
    const first = await serveModal(iframe)
    // A reload of the frame gets a fresh handshake, pinned the same way.
    const second = await serveModal(iframe)
    expect(iframe.posted.map((post) => post.targetOrigin)).toEqual([modal, modal])
    expect(iframe.posted.map((post) => (post.data as { type: string }).type)).toEqual([
      'airlock:hello',
      'airlock:hello',
    ])
    airlock.destroy()
    first.close()
    second.close()
  })
})
