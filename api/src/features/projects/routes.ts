/**
 * `GET /projects/v1/origins`: the project's allowed origin patterns. The modal reads them and refuses the
 * handshake of any page not on the list.
 */
import type * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import * as Contract from '../../contract/index.ts'
import { type Env, known } from '../../http/project.ts'

export function create(): Hono<Env> {
  const app = new Hono<Env>()
  app.get('/projects/v1/origins', (c) => {
    const { project } = known(c, Contract.commonQuery)
    return c.json({ allowedOrigins: project.origins } satisfies S.Infer<typeof Contract.originsAnswer>)
  })
  return app
}
