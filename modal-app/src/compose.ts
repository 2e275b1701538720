/**
 * The modal as a page runs it: the kernel with this build's features. Kept apart from `main.tsx` so tests
 * build the same modal without a DOM.
 */
import * as Modal from './core/Modal.ts'
import * as Features from './features/index.ts'

export type Options = Omit<Modal.Options, 'features'> & Features.Options

/**
 * @example
 * const modal = compose({ config, storage, api, loadRegistry })
 */
export function compose(options: Options): Modal.Modal {
  return Modal.create({ ...options, features: Features.features(options.config, options) })
}
