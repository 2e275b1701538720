/**
 * Analytics: `GET /getAnalyticsConfig` and `POST /e`. Events are stored only for a project whose operator
 * turned analytics on, and only about pages on the project's list.
 */
import { Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Projects from '../projects/Projects.ts'
import type * as Analytics from './Analytics.ts'

export type AnalyticsOptions = {
  /** Where events wait to be written (`Analytics.buffer`). */
  events: Analytics.Buffer
  config: Config
}

/**
 * The answer when the buffer is full: 503 with `Retry-After`, not 429. A 429 tells one client it sent too
 * much (the budgets per client and per project still answer it first); a full buffer is the service's own
 * state, for every sender alike, as a chain's RPC with too many reads under way is (RFC 9110 §15.6.4).
 */
const busy = () => new HttpError(503, messages.analyticsBusy, { 'Retry-After': '1' })

export function create(options: AnalyticsOptions): Hono<Env> {
  const { events, config } = options
  const app = new Hono<Env>()

  app.get('/getAnalyticsConfig', (c) => {
    const { project } = known(c, Contract.commonQuery)
    return c.json({ isAnalyticsEnabled: project.analyticsEnabled } satisfies Contract.AnalyticsAnswer)
  })

  app.post('/e', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    if (project.analyticsEnabled && events.full) throw busy()
    const event = parse(Contract.event, await json(c))
    // The modal reports the host page it runs in (the origin it saw in the handshake); anyone else
    // reports for itself. Either way the origin must be on the project's list.
    const sender = c.req.header('Origin')
    const origin = sender && sender !== config.modalOrigin ? sender : new URL(event.url).origin
    if (!Projects.allows(project, origin)) throw new HttpError(403, messages.invalidAppConfiguration)
    if (!project.analyticsEnabled) return c.json({ stored: false } satisfies Contract.EventAnswer, 202)
    const taken = events.add(project.id, origin, event)
    if (taken === 'full') throw busy()
    return c.json({ stored: taken === 'taken' } satisfies Contract.EventAnswer, 202)
  })

  return app
}
