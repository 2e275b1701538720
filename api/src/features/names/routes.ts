/**
 * Names (docs/behaviour.md §7 "profile"), each GET with `?projectId&st&sv`; only with the configuration's `names` block:
 * - `GET /v1/profile/account/{name}` (`apiVersion`) → a `NameRecord`: a project name from the database, any
 *   other (`alice.eth`) from ENS on the names' chain; 404 `Name not found`.
 * - `GET /v1/profile/reverse/{address}` (`sender`, `apiVersion`) → `NameRecord[]`: the address's project name,
 *   then its ENS primary name.
 * - `GET /v1/profile/suggestions/{name}` (`zone`, the suffix) → `{ suggestions }`: the wanted name and
 *   whether it is held, then up to 5 free variants.
 * - `POST /v1/profile/account` `{ coin_type, address, message, signature }` (`Registration.ts`) → 201 the
 *   `NameRecord`. One name per address per suffix: another name renames (the old one is free again), the same
 *   name again updates its attributes.
 * - `GET /v1/ens/gateway/{sender}/{data}.json` and `POST /v1/ens/gateway` `{ sender, data }`: the offchain
 *   resolver's CCIP-read gateway (`Gateway.ts`) → `{ data }`. No project: the resolver's URL names none.
 *
 * Refusals (`{ message }`): 400 `nameTexts` for a bad name, coin type, message or timestamp; 401 'Invalid
 * signature'; 403 'Project id not configured'; 404 'Name not found'; 409 'Name already taken' and 'This
 * signed registration was already used'; 502 'Error resolving name' / 'Error fetching names for address' when
 * the chain could not be read.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import type { Address, Hex } from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { evmAddress, json, parse } from '../../http/validate.ts'
import * as Gateway from './Gateway.ts'
import * as Name from './Name.ts'
import * as OnChain from './OnChain.ts'
import * as Registration from './Registration.ts'
import * as Store from './Store.ts'

export type NamesOptions = {
  db: Database
  config: Config
  now: () => number
}

/** The suffix when the configuration names none. */
const defaultSuffix = 'airlock.id'

/** How many free variants a suggestion lists beside the wanted name. */
const suggestionsMax = 5

const { projectId, sdkField: sdk } = Contract
const profileQuery = S.object({ projectId, st: sdk, sv: sdk, apiVersion: S.optional(S.string(8)) })
const reverseQuery = S.object({
  projectId,
  st: sdk,
  sv: sdk,
  apiVersion: S.optional(S.string(8)),
  sender: S.optional(evmAddress),
})
const primaryQuery = S.object({ projectId, st: sdk, sv: sdk, address: evmAddress })
const suggestionsQuery = S.object({ projectId, st: sdk, sv: sdk, zone: S.optional(S.string(255)) })
const wanted = S.string(255, 1)
const gatewaySender = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)
// A resolve(bytes,bytes) request of a name a few hundred bytes long, with room to spare.
const gatewayData = S.string(8_192, 10, /^0x[0-9a-fA-F]+$/)
const gatewayBody = S.object({ sender: gatewaySender, data: gatewayData })

/**
 * @example
 * app.route('/', Names.create({ db, config, now: Date.now }))
 */
export function create(options: NamesOptions): Hono<Env> {
  const { db, config, now } = options
  const app = new Hono<Env>()
  const names = config.names
  const ens = OnChain.fromConfig(config)
  if (!names || !ens) return app
  const suffix = names.suffix ?? defaultSuffix
  const isOwn = (name: string) => name.endsWith(`.${suffix}`)
  const gateway: Gateway.GatewayOptions = {
    key: names.gatewayKey as Hex,
    suffix,
    find: (name) => Store.find(db, name),
    now,
  }

  app.get('/v1/profile/account/:name', async (c) => {
    known(c, profileQuery)
    const name = Name.normalized(parse(wanted, c.req.param('name')))
    const record = isOwn(name)
      ? await Store.find(db, Name.parse(name, suffix).name).then((entry) => entry && Store.recordOf(entry))
      : await fromChain(() => ens.lookup(name), Contract.nameTexts.resolveFailed)
    if (!record) throw new HttpError(404, Contract.nameTexts.notFound)
    return c.json(record satisfies Contract.NameRecord)
  })

  app.get('/v1/profile/reverse/:address', async (c) => {
    known(c, reverseQuery)
    const address = parse(evmAddress, c.req.param('address')) as Address
    const own = (await Store.ofAddress(db, address)).map(Store.recordOf)
    const failed = Contract.nameTexts.reverseFailed
    const primary = await fromChain(() => ens.nameOf(address), failed)
    // A project name set as the primary one is already listed; its record is the database's.
    const onChain =
      primary && !isOwn(primary) ? await fromChain(() => ens.lookup(primary), failed) : undefined
    return c.json([...own, ...(onChain ? [onChain] : [])] satisfies Contract.ReverseAnswer)
  })

  app.get('/v1/profile/primary/:name', async (c) => {
    const { address } = known(c, primaryQuery)
    const name = Name.normalized(parse(wanted, c.req.param('name')))
    const record = isOwn(name)
      ? await Store.find(db, Name.parse(name, suffix).name).then((entry) => entry && Store.recordOf(entry))
      : await fromChain(() => ens.lookup(name), Contract.nameTexts.resolveFailed)
    if (!record) throw new HttpError(404, Contract.nameTexts.notFound)
    // Only a name that already resolves to the address: the universal resolver checks it forward anyway.
    const holders = Object.values(record.addresses).map((entry) => entry.address.toLowerCase())
    if (!holders.includes(address.toLowerCase())) throw new HttpError(400, Contract.nameTexts.notYours)
    const tx = await fromChain(() => ens.primaryTransaction(name), Contract.nameTexts.resolveFailed)
    return c.json({
      chainId: names.chainId,
      tx: { from: address, ...tx, value: '0' },
    } satisfies Contract.PrimaryNameAnswer)
  })

  app.get('/v1/profile/suggestions/:name', async (c) => {
    const { zone = suffix } = known(c, suggestionsQuery)
    if (zone !== suffix) throw new HttpError(400, Contract.nameTexts.unsupportedZone(zone))
    const { name, label } = Name.parse(Name.whole(parse(wanted, c.req.param('name')), suffix), suffix)
    const variants = Name.variants(label).flatMap((variant) => {
      try {
        return [Name.parse(`${variant}.${suffix}`, suffix).name]
      } catch {
        // A variant ENSIP-15 would refuse (a script mixed with the digits) is simply not offered.
        return []
      }
    })
    const held = await Store.taken(db, [name, ...variants])
    const free = variants.filter((variant) => !held.has(variant)).slice(0, suggestionsMax)
    return c.json({
      suggestions: [
        { name, registered: held.has(name) },
        ...free.map((variant) => ({ name: variant, registered: false })),
      ],
    } satisfies Contract.SuggestionsAnswer)
  })

  app.post('/v1/profile/account', async (c) => {
    known(c, Contract.commonQuery)
    const body = parse(Contract.registerNameBody, await json(c))
    const time = now()
    const checked = await Registration.check(body, {
      config,
      names: { suffix, chainId: names.chainId },
      now: time,
    })
    const result = await Store.register(db, { ...checked, suffix, now: time })
    if (result === 'replayed') throw new HttpError(409, Contract.nameTexts.replayed)
    if (result === 'taken') throw new HttpError(409, Contract.nameTexts.taken)
    return c.json(Store.recordOf(result) satisfies Contract.NameRecord, 201)
  })

  const answer = async (sender: string, data: string) => ({
    data: await Gateway.answer(gateway, sender as Address, data as Hex),
  })
  app.get('/v1/ens/gateway/:sender/:file', async (c) => {
    const file = c.req.param('file')
    if (!file.endsWith('.json')) throw new HttpError(404, Contract.nameTexts.notFound)
    const sender = parse(gatewaySender, c.req.param('sender'))
    const data = parse(gatewayData, file.slice(0, -'.json'.length))
    // Any page may resolve names (EIP-3668 asks gateways to allow every origin); the answers are public.
    c.header('Access-Control-Allow-Origin', '*')
    return c.json(await answer(sender, data))
  })
  app.post('/v1/ens/gateway', async (c) => {
    const body = parse(gatewayBody, await json(c))
    return c.json(await answer(body.sender, body.data))
  })

  return app
}

/** A read of ENS on chain; a failure (the RPC, a gateway) is docs/behaviour.md §8's text, as a 502. */
async function fromChain<T>(read: () => Promise<T>, text: string): Promise<T> {
  try {
    return await read()
  } catch {
    throw new HttpError(502, text)
  }
}
