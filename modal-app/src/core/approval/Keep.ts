/**
 * The approval window as a keeper (`Approval.ts`): what a browser denies the frame, kept in the window's
 * first-party storage. Apart from `Approval.ts`, which the card's clickjacking guard needs from the first
 * chunk on: only the connectors that keep something (loaded on demand) need this.
 */
import { talk } from './Approval.ts'
import { type Keep, kept } from './protocol.ts'

/**
 * Has the window keep `put` under `scope` (or only read what is kept there, without `put`) and resolves
 * with what is kept; `undefined` when the window closed first. The window closes by itself. Call it
 * synchronously inside the click.
 */
export async function keep(
  request: Omit<Keep, 'type'>,
  self: Window = window,
): Promise<Record<string, string> | undefined> {
  return (await talk(self, { type: 'airlock:keep', ...request } satisfies Keep, kept))?.entries
}
