/**
 * The Telegram mini-app a host page runs in, as the page's `Telegram.WebApp` tells it: its `platform` and
 * the Bot API `version` the client speaks (https://core.telegram.org/bots/webapps#initializing-mini-apps).
 * The host SDK passes both as the page has them; the modal reads them with this shape. It is the page's
 * word, so it only shapes what the modal offers (docs/behaviour.md §2: which social logins; §4: whether a
 * pairing counts as connecting), never what it guards.
 */
import * as S from './Shape.ts'

export type MiniApp = { platform: string; version?: string | undefined }

const platform = S.string(32, 1, /^[a-z][a-z_]*$/)
const version = S.string(16, 1, /^\d+(\.\d+){0,3}$/)

/**
 * Never fails: a platform of another shape counts as no mini-app (the page is then an ordinary page), and
 * so does `unknown`, the platform Telegram's script reports when the page is opened outside Telegram; a
 * version of another shape is left out.
 */
export const miniApp: S.Shape<MiniApp | undefined> = (value) => {
  const said = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  const named = S.parse(platform, said.platform)
  if (!named.ok || named.value === 'unknown') return undefined
  const spoken = S.parse(version, said.version)
  return spoken.ok ? { platform: named.value, version: spoken.value } : { platform: named.value }
}
