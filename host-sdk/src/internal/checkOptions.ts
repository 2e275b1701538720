/**
 * What createAirlock() cannot start without, checked before anything mounts, so a missing environment
 * variable or a mistyped URL fails at once with its fix instead of deep inside (`Invalid URL`, a frame
 * the modal refuses). The rest of the configuration is the modal's to judge: it shows its "Invalid
 * Configuration" alert naming the first bad field.
 */
import type { AirlockOptions } from '../AirlockOptions.ts'

/** Throws a TypeError naming the first problem and its fix. */
export function checkOptions(
  { projectId, modalUrl, embedded, append }: AirlockOptions,
  scriptOrigin: string | undefined,
) {
  const problem = !(typeof projectId === 'string' && projectId.trim())
    ? '`projectId` is missing (data-project-id); is its env variable set?'
    : // Only airlock.js, loaded from the modal's origin, may leave modalUrl out; a server has no modal.
      (
          modalUrl === undefined
            ? !scriptOrigin && typeof window !== 'undefined'
            : !/^https?:\/\/./.test(modalUrl)
        )
      ? "`modalUrl` must be your modal's http(s) URL (data-modal-url)."
      : // The inline frame goes where `embedded` says: there is no modal element to leave unplaced.
        embedded && append === false
        ? '`embedded` places Airlock itself: leave out `append: false`.'
        : ''
  if (problem) throw new TypeError(`Airlock: ${problem}`)
}
