/**
 * `GET /v1/identity/{address}`: the name and avatar of an EVM address, `null` when it has none.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import type { Cache } from '../../Cache.ts'
import * as Contract from '../../contract/index.ts'
import { type Env, known } from '../../http/project.ts'
import { evmAddress, parse } from '../../http/validate.ts'
import type { IdentitySource } from './Identity.ts'

/** Names change rarely, so an identity is cached for 5 minutes. */
export const identityTtlMs = 300_000

export type IdentityOptions = { cache: Cache; identity: IdentitySource }

/** `forceUpdate=true` reads afresh (a name was just registered), as the balance route's does. */
const identityQuery = S.object({
  ...Contract.common,
  sender: S.optional(evmAddress),
  forceUpdate: Contract.flag,
})

export function create(options: IdentityOptions): Hono<Env> {
  const app = new Hono<Env>()
  app.get('/v1/identity/:address', async (c) => {
    const query = known(c, identityQuery)
    const address = parse(evmAddress, c.req.param('address')).toLowerCase()
    const identity: Contract.IdentityAnswer = await options.cache.remember(
      `identity:${address}`,
      identityTtlMs,
      () => options.identity.lookup(address),
      query.forceUpdate === 'true',
    )
    return c.json(identity)
  })
  return app
}
