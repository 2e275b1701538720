/**
 * Smart sessions as the modal runs them (`smartSessions` of docs/behaviour.md §1), for the embedded wallet's smart accounts:
 * - `wallet_grantPermissions` (ERC-7715, mapped by `Permissions.ts`) opens GrantPermissions, which says in
 *   words what the dApp's key may do; Grant sends the account's own `grantSession` call as a user operation
 *   through the wallet (`wallet_sendCalls`, which the wallet confirms and sponsors like any other), and once
 *   it is on chain the account signs the page it was granted to (the handshake's origin) for the API's
 *   record, and the dApp gets ERC-7715's answer with the session's pci as its context.
 * - `wallet_revokePermissions` and Revoke in the Sessions list: the account sends `revokeSession(key)`, which
 *   ends the key's power on chain, then signs the API's record of it. The list shows what `sessionOf` says
 *   on chain, whatever the API recorded.
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
import * as SessionCalls from './SessionCalls.ts'
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
   * Records at the API, signed by the account, what is on chain already: the page a session was granted to
   * (`granted`, the origin the browser reported at the handshake, so Account's list can say so) or its
   * revocation (`revoke`). The chain has the last word, so nothing waits on this: a refused signature or a
   * failed call is only a warning.
   */
  async function record(
    connection: Connection,
    action: 'revoke' | 'granted',
    message: string,
    body: Omit<Contract.RevokeSessionBody, 'signature'> | Omit<Contract.GrantedSessionBody, 'signature'>,
  ): Promise<void> {
    const account = accountOf(connection)
    try {
      const signature = (await evm(connection, 'personal_sign', [toHex(message), account])) as string
      const path = `/v1/sessions/${account}/${action}`
      const response = await fetch(kernel.api.endpoint?.(path) ?? path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, signature }),
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
    } catch (error) {
      console.warn(
        `[airlock] The API did not record the session's ${action === 'revoke' ? 'revocation' : 'page'}.`,
        error,
      )
    }
  }

  /** The session of `key` as the chain has it now (`sessionOf`), read through the wallet's node. */
  async function onChain(connection: Connection, account: Address, key: Address) {
    const call = SessionCalls.sessionOfCall(account, key)
    const data = (await evm(connection, 'eth_call', [call, 'latest'])) as Hex
    return SessionCalls.sessionOfResult(data, Math.floor(kernel.now() / 1000))
  }

  /**
   * Revokes on chain first: the account's `revokeSession(key)`, which ends the key's power; only once it is
   * on chain is the revocation recorded at the API. A session the chain does not hold live is unknown; an
   * operation refused or failed leaves the session live, and listed as such.
   */
  async function revoke(connection: Connection, pci: string): Promise<void> {
    const id = Contract.decodePci(pci)
    const account = accountOf(connection)
    if (!id || id.account !== account.toLowerCase() || `eip155:${id.chainId}` !== connection.chainId)
      throw new Errors.UnauthorizedError(sessionTexts.unknownSession())
    if ((await onChain(connection, account, id.key)).status !== 'active')
      throw new Errors.InvalidParamsError(sessionTexts.unknownSession())
    await sendOwn(connection, SessionCalls.revokeCall(account, id.key))
    await record(connection, 'revoke', Siwx.revokeMessage(pci), { pci })
  }

  /**
   * The account's live sessions: the API finds their keys (the chain's `SessionGranted` logs), and what each
   * may still do is read from the chain here, so nothing the API says can hide a session whose key signs.
   */
  async function load(connection: Connection) {
    list = { state: 'loading' }
    kernel.changed()
    try {
      const path = `/v1/sessions/${accountOf(connection)}?chainId=${connection.chainId}`
      const response = await fetch(kernel.api.endpoint?.(path) ?? path)
      const parsed = S.parse(Contract.accountSessionsAnswer, await response.json())
      if (!response.ok || !parsed.ok) throw new Error('unreadable')
      const sessions = await Promise.all(
        (parsed.value.smartSessions ?? []).map(async (session) => ({
          ...session,
          ...(await onChain(connection, session.account as Address, session.key as Address)),
        })),
      )
      list = { state: 'ready', sessions: sessions.filter((session) => session.status === 'active') }
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
        await sendOwn(current.connection, SessionCalls.grantCall(current.session))
        if (current.origin) {
          const { session, origin } = current
          await record(current.connection, 'granted', Contract.grantedMessage(session.pci, origin), {
            pci: session.pci,
            origin,
          })
        }
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
