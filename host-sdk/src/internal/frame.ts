/**
 * The iframe and, in modal mode, the top-layer <dialog> that shows it. The modal draws its own backdrop
 * and card, so the dialog is full-viewport and transparent. With `append: false` the dApp placed the dialog
 * itself (in its own root, a shadow root, a portal): the frame goes into that one, which stays where the dApp
 * put it across re-mounts.
 */

// Exactly what the modal needs (its scripts and storage, popups for wallets and on-ramps, forms) and no
// allow-top-navigation, so the modal can never navigate the dApp.
const sandbox =
  'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms allow-storage-access-by-user-activation'

export type Frame = {
  iframe: HTMLIFrameElement
  show(): void
  hide(): void
  resize(height: number): void
  destroy(): void
}

export function mountFrame(
  src: string,
  container: HTMLElement | undefined,
  onCancel: () => void,
  placed?: HTMLDialogElement,
): Frame {
  const iframe = document.createElement('iframe')
  iframe.src = src
  iframe.title = 'Airlock'
  iframe.setAttribute('sandbox', sandbox)
  // Passkeys (WebAuthn) are the modal origin's: delegated to its frame, so the ceremony runs in place.
  iframe.allow = 'clipboard-write;publickey-credentials-get;publickey-credentials-create'
  // The modal origin's server names a refused page's origin from the Referer, whatever the page's own policy.
  iframe.referrerPolicy = 'origin'
  iframe.style.cssText = 'border:0;display:block;width:100%;color-scheme:normal;background:transparent'

  if (container) {
    iframe.style.height = '0'
    container.append(iframe)
    return {
      iframe,
      show() {},
      hide() {},
      resize: (height) => {
        iframe.style.height = `${height}px`
      },
      destroy: () => iframe.remove(),
    }
  }

  const dialog = placed ?? document.createElement('dialog')
  dialog.dataset.airlock = ''
  dialog.setAttribute('aria-label', 'Airlock')
  dialog.style.cssText =
    'padding:0;margin:0;border:0;width:100%;height:100%;max-width:none;max-height:none;background:transparent;overflow:hidden'
  iframe.style.height = '100%'
  const style = document.createElement('style')
  // Closed, the dialog stays laid out, unseen: the frame keeps its size, so the modal lays out its card
  // before the click and opening only paints it (a display:none frame lays out from scratch on open).
  style.textContent =
    'dialog[data-airlock]::backdrop{background:transparent}dialog[data-airlock]:not([open]){display:block;position:fixed;inset:0;visibility:hidden}'
  // Escape on the host side is a request to close; the modal decides whether closing is allowed. A handler
  // property, not a listener: a placed dialog outlives its frame, and a re-mount must not close twice.
  dialog.oncancel = (event) => {
    event.preventDefault()
    onCancel()
  }
  // Children replaced, not added: a placed dialog still holds a dead frame's style.
  dialog.replaceChildren(style, iframe)
  if (!placed) document.body.append(dialog)

  let returnFocus: Element | null = null
  let overflow = ''
  return {
    iframe,
    show() {
      if (dialog.open) return
      // The focused control itself, though it sits in a shadow root (where a placed dialog often is too):
      // the document only names that root's host, which may not take focus.
      returnFocus = document.activeElement
      while (returnFocus?.shadowRoot?.activeElement) returnFocus = returnFocus.shadowRoot.activeElement
      overflow = document.documentElement.style.overflow
      document.documentElement.style.overflow = 'hidden'
      dialog.showModal()
      iframe.focus()
    },
    hide() {
      if (!dialog.open) return
      dialog.close()
      document.documentElement.style.overflow = overflow
      if (returnFocus instanceof HTMLElement) returnFocus.focus({ preventScroll: true })
    },
    resize() {},
    destroy: () => (placed ? iframe : dialog).remove(),
  }
}
