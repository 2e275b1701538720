/**
 * The frame never answered: Errors.TimeoutError('iframe_load_failed') in shape (built here because the
 * bridge that defines it is what failed to arrive), its fix naming where Airlock looked.
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
