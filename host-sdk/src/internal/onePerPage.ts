/**
 * One Airlock per page. Two copies of the SDK (airlock.js twice, airlock.js beside a bundled
 * `@airlock/host-sdk`, two bundled versions) or a second createAirlock() would mount a second frame that
 * answers the same wallet calls. The running instance is kept under a global symbol, with its version,
 * so every copy finds it: a later one says why once and hands back the running instance.
 */
import { version } from '../../package.json'
import type { Airlock } from '../Airlock.ts'

const key = Symbol.for('airlock.host-sdk')
type Running = { version: string; airlock: Airlock }
type Page = { [key]?: Running }

/** The instance already running on this page, if any, after saying once why no second one starts. */
export function running(): Airlock | undefined {
  const found = (window as Page)[key]
  if (!found) return
  console.error(
    `Airlock ${version} not started: ${found.version} already runs here. Load it once, or destroy() it first.`,
  )
  return found.airlock
}

/** Marks `airlock` as this page's instance until it is destroyed. */
export function claim(airlock: Airlock): Airlock {
  if (typeof window === 'undefined') return airlock
  const page = window as Page
  const mine = { version, airlock }
  page[key] = mine
  const destroy = airlock.destroy
  airlock.destroy = () => {
    if (page[key] === mine) delete page[key]
    destroy()
  }
  return airlock
}
