/**
 * Failures the host SDK reports itself, in the shape of the protocol's errors: each arises where the bridge
 * that defines those errors is not there to build them.
 */

// Where the page's CSP refuses the frame, a call outside a click cannot open the modal's window either.
export const frameRefused = Object.assign(
  new Error(
    "This page's Content-Security-Policy refuses the Airlock frame; Airlock opens in a window, from a click.",
  ),
  { code: 4900 },
)

// With `append: false`, the frame loads only once the dApp has put `airlock.element` in its page.
export const notPlaced = Object.assign(
  new Error('Place `airlock.element` in the page before using Airlock (append: false).'),
  { code: 4900 },
)

/**
 * The frame never answered (or the bridge script never arrived): Errors.TimeoutError('iframe_load_failed')
 * in shape, its fix naming where Airlock looked.
 */
export function loadFailure(modalUrl: string | undefined) {
  return Object.assign(new Error('The Airlock modal failed to load.'), {
    code: -32603,
    reason: 'iframe_load_failed',
    data: {
      reason: 'iframe_load_failed',
      fix: `Nothing answered at ${modalUrl}; is the modal running there? (modalUrl)`,
    },
  })
}
