/**
 * Smart sessions (docs/behaviour.md §7), each with `?projectId&st&sv`, on the paths sign-in sessions (`features/siwx`)
 * answer too: docs/behaviour.md §7 names one `/v1/sessions/{address}` for an account's sessions, so both kinds share it.
 * This sub-app is mounted first and hands on what is sign-in's:
 * - `GET /v1/sessions/{address}` (CAIP-10, or a 0x address with `chainId`, CAIP-2): sign-in's answer
 *   (`sessions`) with, for an EVM chain the API has, the smart sessions the account granted there (if any), read from
 *   the chain (its `SessionGranted` logs and `sessionOf`): `pci` (the active ones' ids) and `smartSessions`
 *   (every one, with the page it was granted to). Each one's status is the chain's alone: what the API records
 *   can never hide a session whose key still signs.
 * - `POST /v1/sessions/{address}/revoke` `{ pci, signature }` with a smart session's pci → `{ success: true }`:
 *   records the revocation (`revokedAt`), which the modal sends once the account's `revokeSession` is on chain.
 *   The signature is of `Siwx.revokeMessage(pci)`, by the account (EIP-191 for a 7702 account, ERC-1271 or
 *   ERC-6492 for a smart account, checked on the chain), never by one of its session keys (see `signed`).
 *   Any other pci is a sign-in session's.
 * - `POST /v1/sessions/{address}/granted` `{ pci, origin, signature }` → `{ success: true }`: records the page
 *   the session was granted to, signed by the account (`grantedMessage`).
 *
 * Refusals (`{ message }`): 400 for a bad address, chain or pci (`smartSessionTexts`); 401 'Invalid
 * signature', or `signedByKey` for a session key's; 403 'Project id not configured'; 404 'Session not found' (the account never granted that key
 * on the chain); 502 when the chain cannot be read.
 */
import { Caip, Siwx } from '@airlock/bridge-protocol'
import { Hono } from 'hono'
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  parseErc6492Signature,
  recoverMessageAddress,
} from 'viem'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import { eip155 } from '../siwx/verifiers/eip155.ts'
import * as OnChain from './OnChain.ts'
import * as Store from './Store.ts'

export type SessionsOptions = {
  db: Database
  config: Config
  now: () => number
}

const texts = Contract.smartSessionTexts
const smartPci = /^0x[0-9a-fA-F]{192}$/

/**
 * @example
 * app.route('/', Sessions.create({ db, config, now: Date.now })) // before Siwx's
 */
export function create(options: SessionsOptions): Hono<Env> {
  const { db, config, now } = options
  const app = new Hono<Env>()

  /**
   * The account and EVM chain a path names (a CAIP-10 address, or a 0x address with `chainId`), if the API
   * has that chain; undefined for anything else, which is sign-in's to answer or refuse.
   */
  function accountOf(path: string, chainId: string | undefined) {
    const id = Caip.isAccountId(path) ? path : chainId && `${chainId}:${path}`
    if (!id || !Caip.isAccountId(id)) return undefined
    const { chainId: chain, address } = Caip.parseAccountId(id)
    const configured = config.chains.find((entry) => entry.id === chain)
    if (!chain.startsWith('eip155:') || !configured?.rpcUrl || !/^0x[0-9a-fA-F]{40}$/.test(address))
      return undefined
    return { account: getAddress(address), chain: { id: configured.id, rpcUrl: configured.rpcUrl } }
  }

  /**
   * The session a pci names on this account and chain, which the chain must know (else a 404), and every key
   * the account ever granted a session to there.
   */
  async function sessionOf(path: string, pci: string) {
    const id = Contract.decodePci(pci)
    if (!id) throw new HttpError(400, texts.invalidPci)
    const named = accountOf(path, `eip155:${id.chainId}`)
    if (!named) throw new HttpError(400, messages.unsupportedChain(`eip155:${id.chainId}`))
    const { account, chain } = named
    if (!isAddressEqual(id.account, account) || `eip155:${id.chainId}` !== chain.id)
      throw new HttpError(400, texts.wrongAccount)
    const sessions = await OnChain.sessionsOf(chain, account)
    const session = sessions.find((entry) => isAddressEqual(entry.key, id.key))
    if (!session) throw new HttpError(404, texts.notFound)
    const keys = sessions.map((entry) => entry.key)
    return { chain, keys, id: { chainId: chain.id, account, key: session.key } }
  }

  /**
   * Throws 401 unless the account itself signed `message`: by EIP-191 (a 7702 account is its own key), ERC-1271
   * or ERC-6492 on its chain, as sign-in verifies it. An account's ERC-1271 answers for whatever its validator
   * accepts, and Airlock's accepts only the owner's, but another account's might take its session keys'; so
   * a signature whose ECDSA signer (inside an ERC-6492 wrapper, if any) is one of the account's session keys
   * is refused before the account is asked. The API knows them all: they are the chain's `SessionGranted` logs.
   */
  async function requireAccount(
    chain: OnChain.Chain,
    account: Address,
    message: string,
    signature: string,
    keys: readonly Address[],
  ): Promise<void> {
    const signer = await Promise.resolve()
      .then(() =>
        recoverMessageAddress({ message, signature: parseErc6492Signature(signature as Hex).signature }),
      )
      .catch(() => undefined)
    // A 7702 account is its own key, whatever it granted.
    const byKey = (key: Address) => signer && isAddressEqual(key, signer) && !isAddressEqual(key, account)
    if (keys.some(byKey)) throw new HttpError(401, texts.signedByKey)
    const verified = await eip155.verify({
      chainId: chain.id,
      reference: chain.id.slice('eip155:'.length),
      address: account,
      message,
      signature,
      rpcUrl: chain.rpcUrl,
    })
    if (!verified) throw new HttpError(401, texts.invalidSignature)
  }

  app.get('/v1/sessions/:address', async (c, next) => {
    known(c, Contract.commonQuery)
    const named = accountOf(c.req.param('address'), c.req.query('chainId'))
    if (!named) return next()
    const smart = await list(named.chain, named.account)
    await next()
    // Sign-in's answer, refusals included, stands as it is; a listing gains the smart sessions, if any.
    if (c.res.status !== 200 || smart.smartSessions.length === 0) return
    const signIn = (await c.res.json()) as Contract.SessionsAnswer
    c.res = c.json({ ...signIn, ...smart } satisfies Contract.AccountSessionsAnswer)
  })

  app.post('/v1/sessions/:address/revoke', async (c, next) => {
    known(c, Contract.commonQuery)
    const body = await json(c)
    const pci = (body as { pci?: unknown } | null)?.pci
    if (typeof pci !== 'string' || !smartPci.test(pci)) return next()
    const { signature } = parse(Contract.revokeSessionBody, body)
    const { chain, keys, id } = await sessionOf(c.req.param('address'), pci)
    await requireAccount(chain, id.account, Siwx.revokeMessage(pci.toLowerCase()), signature, keys)
    await Store.revoke(db, id, now())
    return c.json({ success: true })
  })

  app.post('/v1/sessions/:address/granted', async (c) => {
    known(c, Contract.commonQuery)
    const body = parse(Contract.grantedSessionBody, await json(c))
    if (!URL.canParse(body.origin) || new URL(body.origin).origin !== body.origin)
      throw new HttpError(400, texts.invalidOrigin)
    const { chain, keys, id } = await sessionOf(c.req.param('address'), body.pci)
    await requireAccount(
      chain,
      id.account,
      Contract.grantedMessage(body.pci, body.origin),
      body.signature,
      keys,
    )
    await Store.granted(db, id, body.origin)
    return c.json({ success: true })
  })

  /** The account's smart sessions on the chain, as the chain has them, with what the API adds. */
  async function list(chain: OnChain.Chain, account: Address): Promise<Contract.SmartSessionsAnswer> {
    const [onChain, stored, clock] = await Promise.all([
      OnChain.sessionsOf(chain, account),
      Store.ofAccount(db, chain.id, account),
      OnChain.now(chain),
    ])
    const tokens = new Map<string, ReturnType<typeof OnChain.tokenOf>>()
    const smartSessions = await Promise.all(
      onChain.map(async (session): Promise<Contract.SmartSessionRecord> => {
        const entry = stored.get(session.key.toLowerCase())
        const status = Contract.sessionStatus(session.validUntil, clock)
        const target = session.target.toLowerCase()
        if (session.validUntil !== 0 && !tokens.has(target))
          tokens.set(target, OnChain.tokenOf(chain, session.target))
        const token = await tokens.get(target)
        return {
          pci: Contract.encodePci({
            account,
            key: session.key,
            chainId: Number(chain.id.slice('eip155:'.length)),
          }),
          chainId: chain.id,
          account,
          key: session.key,
          target: session.target,
          selector: session.selector,
          limit: session.limit.toString(),
          spent: session.spent.toString(),
          gasAllowance: session.gasAllowance.toString(),
          gasSpent: session.gasSpent.toString(),
          validUntil: session.validUntil,
          status,
          ...(entry?.revokedAt !== undefined ? { revokedAt: entry.revokedAt } : {}),
          ...(entry?.origin ? { origin: entry.origin } : {}),
          ...(token ? { token } : {}),
        }
      }),
    )
    const pci = smartSessions.filter((session) => session.status === 'active').map((session) => session.pci)
    return { pci, smartSessions }
  }

  return app
}
