/**
 * Analytics: `GET /getAnalyticsConfig` and `POST /e`. Events are stored only for a project whose operator
 * turned analytics on, and only about pages on the project's list.
 */
import { Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Projects from '../projects/Projects.ts'
import * as Analytics from './Analytics.ts'

export type AnalyticsOptions = { db: Pick<Database, 'query'>; config: Config }

export function create(options: AnalyticsOptions): Hono<Env> {
  const { db, config } = options
  const app = new Hono<Env>()

  app.get('/getAnalyticsConfig', (c) => {
    const { project } = known(c, Contract.commonQuery)
    return c.json({ isAnalyticsEnabled: project.analyticsEnabled } satisfies Contract.AnalyticsAnswer)
  })

  app.post('/e', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    const event = parse(Contract.event, await json(c))
    // The modal reports the host page it runs in (the origin it saw in the handshake); anyone else
    // reports for itself. Either way the origin must be on the project's list.
    const sender = c.req.header('Origin')
    const origin = sender && sender !== config.modalOrigin ? sender : new URL(event.url).origin
    if (!Projects.allows(project, origin)) throw new HttpError(403, messages.invalidAppConfiguration)
    const stored = project.analyticsEnabled && (await Analytics.record(db, project.id, origin, event))
    return c.json({ stored } satisfies Contract.EventAnswer, 202)
  })

  return app
}
