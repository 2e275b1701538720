/**
 * Smart sessions as the modal runs them (SPEC `smartSessions`), for the embedded wallet's smart accounts:
 * - `wallet_grantPermissions` (ERC-7715, mapped by `Permissions.ts`) opens GrantPermissions, which says in
 *   words what the dApp's key may do; Grant sends the account's own `grantSession` call as a user operation
 *   through the wallet (`wallet_sendCalls`, which the wallet confirms and sponsors like any other), and once
 *   it is on chain the account signs the page it was granted to (the handshake's origin) for the API's
 *   record, and the dApp gets ERC-7715's answer with the session's pci as its context.
 * - `wallet_revokePermissions` and Revoke in the Sessions list: the account signs the API's revocation
 *   (listed as revoked at once), then sends `revokeSession(key)`, which ends the key's power on chain.
 * A page wallet's requests pass through to it unchanged; the embedded wallet's plain EOA cannot hold
 * sessions, so it refuses with 4200 and says why. Closing the modal before Grant rejects with 4001.
 */

import * as Contract from '@airlock/api/contract'
import { Async, Caip, Errors, type Request, Siwx } from '@airlock/bridge-protocol'
import type * as Calls from '@airlock/bridge-protocol/Calls'
import * as S from '@airlock/bridge-protocol/Shape'
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, toHex } from 'viem'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import * as Permissions from './Permissions.ts'
import { sessionTexts } from './texts.ts'

/** How long a grant or revoke waits for its user operation to be on chain. */
const includedWithinMs = 90_000
const pollMs = 500

type Token = { symbol: string; decimals: number }

type Grant = {
  session: Permissions.Session
  origin: string
  token: Token | undefined
  asked: unknown
  connection: Connection
  answer: Async.Deferred<unknown>
  /** The request opened the modal: it closes again once answered. */
  openedForIt: boolean
  busy: boolean
  error?: string | undefined
}

export type ListState =
  | { state: 'loading' }
  | { state: 'unreachable' }
  | { state: 'ready'; sessions: Contract.SmartSessionRecord[]; revoking?: string | undefined; error?: string }

export type SessionsSlice = {
  smartSessions?: {
    grant?: Omit<Grant, 'answer' | 'connection' | 'asked' | 'openedForIt'> | undefined
    list?: ListState | undefined
  }
}

export type SessionsUi = {
  grantSession(): Promise<void>
  rejectGrant(): void
  showSessions(): void
  revokeSession(pci: string): Promise<void>
}

export function setup(kernel: Kernel): Runtime {
  let grant: Grant | undefined
  let list: ListState | undefined

  const evm = (connection: Connection, method: string, params: unknown) =>
    kernel.walletRequest(connection, { namespace: 'eip155', method, params } as Request)
  const accountOf = (connection: Connection) => connection.accounts[0]?.address as Address

  /** Whether the connection is the embedded wallet on a smart account (it runs batches atomically). */
  async function isSmart(connection: Connection): Promise<boolean> {
    const batches = kernel.batchesOf?.(connection)
    if (connection.wallet.id !== 'embedded' || !batches) return false
    const capabilities = await batches.capabilities(connection, accountOf(connection), [connection.chainId])
    const atomic = capabilities[Caip.toHexChainId(connection.chainId)]?.atomic as
      | { status?: string }
      | undefined
    return atomic?.status === 'supported' || atomic?.status === 'ready'
  }

  /** Sends the account's own call as one user operation and waits until it is on chain. */
  async function sendOwn(connection: Connection, call: { to: Address; data: Hex }): Promise<void> {
    const sent = (await evm(connection, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: Caip.toHexChainId(connection.chainId),
        from: accountOf(connection),
        atomicRequired: true,
        calls: [call],
      },
    ])) as { id: string }
    const until = kernel.now() + includedWithinMs
    while (kernel.now() < until) {
      const status = (await evm(connection, 'wallet_getCallsStatus', [sent.id])) as Calls.Status
      if (status.status === 200) return
      if (status.status !== 100) throw new Errors.InternalError(sessionTexts.failed(status.status))
      await new Promise<void>((resolve) => kernel.timers.setTimeout(() => resolve(), pollMs))
    }
    throw new Errors.InternalError(sessionTexts.failed(100))
  }

  async function tokenOf(connection: Connection, target: Address): Promise<Token | undefined> {
    const call = async (data: Hex) =>
      (await evm(connection, 'eth_call', [{ to: target, data }, 'latest'])) as Hex
    try {
      const [symbol, decimals] = await Promise.all([
        call(encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' })).then((data) =>
          decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data }),
        ),
        call(encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' })).then((data) =>
          decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data }),
        ),
      ])
      return { symbol, decimals }
    } catch {
      return undefined
    }
  }

  function endGrant(outcome: { error: unknown } | { value: unknown }) {
    const ending = grant
    if (!ending) return
    grant = undefined
    if ('error' in outcome) ending.answer.reject(outcome.error)
    else ending.answer.resolve(outcome.value)
    // Back to where the visitor was, or closed again if the request opened the modal.
    if (kernel.router.view() === 'GrantPermissions')
      kernel.router.send(ending.openedForIt ? { type: 'CLOSE', force: true } : { type: 'BACK' })
    kernel.changed()
  }

  async function grantPermissions(request: Request, connection: Connection): Promise<unknown> {
    if (!(await isSmart(connection)))
      throw new Errors.UnsupportedMethodError(sessionTexts.needsSmartAccount())
    const session = Permissions.sessionOf(request.params, {
      chainId: connection.chainId,
      account: accountOf(connection),
      now: Math.floor(kernel.now() / 1000),
    })
    if (grant) throw new Errors.InternalError('Another permission request is waiting for the visitor.')
    const token = session.spends === 'token' ? await tokenOf(connection, session.target) : undefined
    const answer = Async.deferred<unknown>()
    grant = {
      session,
      origin: kernel.origin() ?? '',
      token,
      asked: request.params,
      connection,
      answer,
      busy: false,
      openedForIt: !kernel.router.isOpen(),
    }
    kernel.router.send(
      grant.openedForIt
        ? { type: 'OPEN', view: 'GrantPermissions' }
        : { type: 'PUSH', view: 'GrantPermissions' },
    )
    kernel.changed()
    return answer.promise
  }

  async function revokePermissions(request: Request, connection: Connection): Promise<unknown> {
    const pci = Permissions.revokedPci(request.params)
    if (!(await isSmart(connection)))
      throw new Errors.UnsupportedMethodError(sessionTexts.needsSmartAccount())
    await revoke(connection, pci)
    return {}
  }

  /**
   * Has the account sign `message`, then posts it with `body` to the account's sessions route `action`
   * (`/v1/sessions/{account}/{action}`): the API's revocation and its record of the granting page.
   */
  async function postSigned(
    connection: Connection,
    action: 'revoke' | 'granted',
    message: string,
    body: Omit<Contract.RevokeSessionBody, 'signature'> | Omit<Contract.GrantedSessionBody, 'signature'>,
  ): Promise<Response> {
    const account = accountOf(connection)
    const signature = (await evm(connection, 'personal_sign', [toHex(message), account])) as string
    const path = `/v1/sessions/${account}/${action}`
    return fetch(kernel.api.endpoint?.(path) ?? path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, signature }),
    })
  }

  /** Revokes at the API (signed by the account), then on chain. */
  async function revoke(connection: Connection, pci: string): Promise<void> {
    const id = Contract.decodePci(pci)
    const account = accountOf(connection)
    if (!id || id.account !== account.toLowerCase() || `eip155:${id.chainId}` !== connection.chainId)
      throw new Errors.UnauthorizedError(sessionTexts.unknownSession())
    const response = await postSigned(connection, 'revoke', Siwx.revokeMessage(pci), { pci })
    if (response.status === 404) throw new Errors.InvalidParamsError(sessionTexts.unknownSession())
    if (!response.ok)
      throw new Errors.InternalError(`The API refused the revocation (HTTP ${response.status}).`)
    await sendOwn(connection, Permissions.revokeCall(account, id.key))
  }

  /**
   * Records at the API which page the session was granted to, so Account's list can say so: the origin the
   * browser reported at the handshake, signed by the account (`grantedMessage`). The session is on chain
   * already, so the dApp's answer never waits on this: a refused signature or a failed call only leaves the
   * list without the page.
   */
  async function recordOrigin({ connection, session, origin }: Grant): Promise<void> {
    if (!origin) return
    try {
      const message = Contract.grantedMessage(session.pci, origin)
      const response = await postSigned(connection, 'granted', message, { pci: session.pci, origin })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
    } catch (error) {
      console.warn('[airlock] The page the session was granted to was not recorded.', error)
    }
  }

  async function load(connection: Connection) {
    list = { state: 'loading' }
    kernel.changed()
    try {
      const path = `/v1/sessions/${accountOf(connection)}?chainId=${connection.chainId}`
      const response = await fetch(kernel.api.endpoint?.(path) ?? path)
      const parsed = S.parse(Contract.accountSessionsAnswer, await response.json())
      if (!response.ok || !parsed.ok) throw new Error('unreadable')
      list = {
        state: 'ready',
        sessions: (parsed.value.smartSessions ?? []).filter((s) => s.status === 'active'),
      }
    } catch {
      list = { state: 'unreachable' }
    }
    kernel.changed()
  }

  const ui: SessionsUi = {
    async grantSession() {
      const current = grant
      if (!current || current.busy) return
      current.busy = true
      current.error = undefined
      kernel.changed()
      try {
        await sendOwn(current.connection, Permissions.grantCall(current.session))
        await recordOrigin(current)
        endGrant({ value: Permissions.response(current.asked, current.session) })
      } catch (error) {
        // Refused in the wallet or failed on the way: the visitor may try again or reject.
        current.busy = false
        current.error = Errors.messageOf(error, 'The session could not be granted.')
        kernel.changed()
      }
    },
    rejectGrant() {
      if (!grant?.busy) endGrant({ error: new Errors.UserRejectedRequestError() })
    },
    showSessions() {
      const connection = kernel.connectionOf('eip155')
      kernel.router.send({ type: 'PUSH', view: 'Sessions' })
      if (connection) void load(connection)
    },
    async revokeSession(pci) {
      const connection = kernel.connectionOf('eip155')
      if (!connection || list?.state !== 'ready') return
      list = { ...list, revoking: pci, error: undefined }
      kernel.changed()
      try {
        await revoke(connection, pci)
        kernel.snackbar.show('success', sessionTexts.revoked)
        await load(connection)
      } catch (error) {
        if (list?.state === 'ready')
          list = { ...list, revoking: undefined, error: Errors.messageOf(error, '') }
        kernel.changed()
      }
    },
  }

  return {
    snapshot: () => ({
      smartSessions: {
        grant: grant && {
          session: grant.session,
          origin: grant.origin,
          token: grant.token,
          busy: grant.busy,
          error: grant.error,
        },
        list,
      },
    }),
    ui,
    answer(request, connection) {
      // A page wallet answers for itself; only the embedded wallet's sessions are the modal's.
      if (request.namespace !== 'eip155' || connection.wallet.id !== 'embedded') return undefined
      if (request.method === 'wallet_grantPermissions') return grantPermissions(request, connection)
      if (request.method === 'wallet_revokePermissions') return revokePermissions(request, connection)
      return undefined
    },
    closed() {
      if (grant && !grant.busy) endGrant({ error: new Errors.UserRejectedRequestError() })
    },
    back(view) {
      if (view === 'GrantPermissions') ui.rejectGrant()
    },
  }
}
