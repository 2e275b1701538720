/**
 * Sign in with X as the modal runs it: after a connect (and after switching to an account or chain without
 * a session) it asks the account to sign a message, and keeps the API's session per host page and account.
 */
import { Caip, Errors, type Request, type Schema } from '@airlock/bridge-protocol'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import type * as Message from './message.ts'

/** The sign-in view's state: one status at a time, and the error only of a declined or failed one. */
export type SignInInfo = {
  status: 'idle' | 'signing' | 'declined' | 'failed'
  error?: string | undefined
  required: boolean
  /** What the message the wallet is asked to sign will say, for the visitor to read first. */
  preview?: Preview | undefined
}

/** The fields of the sign-in message the view shows before signing (EIP-4361 / CAIP-122). */
export type Preview = {
  /** The host page's host, as the browser reported it: the message's domain. */
  domain: string
  address: string
  statement?: string | undefined
  chainId: Caip.ChainId
  /** The configured network's name, where the chain is one. */
  chainName?: string | undefined
  /** Epoch ms: the message is issued when the visitor signs, and lasts `expiresIn`. */
  issuedAt: number
  expiresAt: number
}

/** The actions of the sign-in views. */
export type SignInUi = {
  /** Signs in the active account: the wallet signs the message, the API opens a session. */
  signIn(): Promise<void>
  /** Leaves the sign-in: disconnects when sign-in is required, else closes. */
  cancelSignIn(): Promise<void>
}

export function setup(kernel: Kernel, loadMessage: () => Promise<typeof Message>): Runtime {
  const { storage, now, router } = kernel
  const siwx = kernel.config.siwx
  // The feature is listed only with sign-in on (`features/index.ts`).
  if (!siwx) return {}
  // `siweConfig` (EVM only) has the older view of its own.
  const signInView = siwx.legacy ? 'ConnectingSiwe' : 'SIWXSignMessage'
  let info: SignInInfo = { status: 'idle', required: Boolean(siwx.required) }
  /** Accounts whose stored session the API confirmed in this page load. */
  const confirmed = new Set<string>()

  /** The key a session is stored under: CAIP-10, lower-case for EVM as the API writes it. */
  const accountKey = (connection: Connection) => {
    const address = connection.accounts[0]?.address ?? ''
    const id = `${connection.chainId}:${connection.chainId.startsWith('eip155:') ? address.toLowerCase() : address}`
    return Caip.isAccountId(id) ? id : undefined
  }

  /**
   * Where a session is kept: per host page and account. Browsers may share the modal's storage between
   * sites (or between pages of one site), and a sign-in names the page it was for.
   */
  const storageKey = (connection: Connection) => {
    const account = accountKey(connection)
    const origin = kernel.origin()
    return account && origin ? `${origin} ${account}` : undefined
  }

  /** The connection's stored session, while it has not expired. */
  function sessionOf(connection: Connection | undefined): Schema.Session | undefined {
    const key = connection && storageKey(connection)
    const session = key ? storage.getSession(key) : undefined
    if (!session) return undefined
    if (session.expiresAt && Date.parse(session.expiresAt) <= now()) return undefined
    return session
  }

  /** Sign-in is on, the account is on a configured network, and it has no session. */
  function needsSignIn(namespace: Caip.Namespace): boolean {
    if (siwx?.legacy && namespace !== 'eip155') return false
    const connection = kernel.connectionOf(namespace)
    if (!connection || !kernel.configured(connection.chainId)) return false
    return !sessionOf(connection)
  }

  function updateLock() {
    const namespace = kernel.activeNamespace()
    router.send({ type: 'LOCK', locked: Boolean(siwx?.required && namespace && needsSignIn(namespace)) })
  }

  /** After a connection, a switch of account or chain: asks for a sign-in where one is missing. */
  function check(namespace: Caip.Namespace): boolean {
    updateLock()
    if (!needsSignIn(namespace) || namespace !== kernel.activeNamespace()) return false
    info = { status: 'idle', required: Boolean(siwx?.required) }
    updateLock()
    router.send({ type: 'OPEN', view: signInView })
    kernel.changed()
    return true
  }

  /**
   * A stored session counts only while the API still has it: once per page load each is confirmed, and a
   * revoked or expired one is dropped, which asks for a new sign-in. When the API cannot be reached the
   * stored one stands, so a brief outage does not sign everyone out.
   */
  async function confirm(namespace: Caip.Namespace) {
    const connection = kernel.connectionOf(namespace)
    const account = connection && accountKey(connection)
    const key = connection && storageKey(connection)
    const stored = sessionOf(connection)
    if (!account || !key || !stored || confirmed.has(key)) return
    try {
      const active = await kernel.api.sessions(account)
      confirmed.add(key)
      if (active.some((session) => session.id === stored.id)) return
      storage.removeSession(key)
      kernel.changed()
      check(namespace)
    } catch (error) {
      console.warn('[airlock] Could not confirm the sign-in session.', error)
    }
  }

  /** The message as it will read, for the active account; none before the handshake or a connection. */
  function preview(): Preview | undefined {
    const namespace = kernel.activeNamespace()
    const connection = namespace && kernel.connectionOf(namespace)
    const address = connection ? connection.accounts[0]?.address : undefined
    const origin = kernel.origin()
    if (!connection || !address || !origin || !siwx) return undefined
    const issuedAt = now()
    return {
      domain: new URL(origin).host,
      address,
      statement: siwx.statement,
      chainId: connection.chainId,
      chainName: kernel.configured(connection.chainId)?.name,
      issuedAt,
      expiresAt: issuedAt + (siwx.expiresIn ?? 86_400) * 1000,
    }
  }

  function failed(error: unknown, connection: Connection | undefined) {
    const rejected = Errors.codeOf(error) === Errors.UserRejectedRequestError.code
    const message = rejected ? texts.signIn.declined : Errors.messageOf(error, texts.errors.fallback)
    // The view shows the error beside the message (docs/behaviour.md §4: a decline reopens it with an error); a snackbar
    // too would say it twice.
    info = { ...info, status: rejected ? 'declined' : 'failed', error: message }
    kernel.changed()
    kernel.shake()
    kernel.track({
      event: 'SIWX_AUTH_ERROR',
      properties: { network: connection ? connection.chainId : '', message },
    })
  }

  const ui: SignInUi = {
    async signIn() {
      const namespace = kernel.activeNamespace()
      const connection = namespace && kernel.connectionOf(namespace)
      if (info.status === 'signing') return
      info = { ...info, status: 'signing', error: undefined }
      kernel.changed()
      try {
        const origin = kernel.origin()
        if (!connection || !origin) throw new Errors.InternalError(texts.signIn.noAccount)
        const flow = await loadMessage()
        const session = await flow.signIn({
          connection,
          origin,
          statement: siwx.statement,
          resources: siwx.resources,
          expiresIn: siwx.expiresIn,
          api: kernel.api,
          sign: (request: Request) => kernel.walletRequest(connection, request),
          now,
        })
        const key = storageKey(connection)
        if (key) {
          storage.setSession(key, session)
          confirmed.add(key)
        }
        info = { status: 'idle', required: Boolean(siwx.required) }
        updateLock()
        router.send({ type: 'CLOSE', force: true })
        kernel.changed()
        kernel.track({ event: 'SIWX_AUTH_SUCCESS', properties: { network: connection.chainId } })
      } catch (error) {
        failed(error, connection || undefined)
      }
    },
    async cancelSignIn() {
      info = { status: 'idle', required: Boolean(siwx.required) }
      if (siwx.required) {
        // Without a session the visitor cannot stay: disconnecting returns the modal to Connect.
        await kernel.disconnect().catch(() => {})
        updateLock()
        router.send({ type: 'OPEN', view: 'Connect' })
        return
      }
      router.send({ type: 'CLOSE', force: true })
    },
  }

  const activeSession = () => {
    const namespace = kernel.activeNamespace()
    return sessionOf(namespace && kernel.connectionOf(namespace) ? kernel.connectionOf(namespace) : undefined)
  }

  return {
    snapshot: () => ({ signIn: { ...info, preview: preview() } }),
    ui,
    state() {
      const session = activeSession()
      return session ? { session } : {}
    },
    host: {
      async signOut() {
        for (const namespace of Caip.namespaces) {
          const connection = kernel.connectionOf(namespace)
          const key = connection && storageKey(connection)
          if (key) storage.removeSession(key)
        }
        kernel.changed()
        if (siwx.required) await kernel.disconnect()
        updateLock()
      },
    },
    connected(namespace, _connection, byUser) {
      if (byUser) return check(namespace)
      // A reconnected account without a session is asked once start-up has settled.
      if (!needsSignIn(namespace)) void confirm(namespace)
      return false
    },
    changed(namespace, _connection, what) {
      // A session is bound to its account and chain: another one without a session asks again.
      return check(namespace) && what === 'chain'
    },
    settled() {
      const active = kernel.activeNamespace()
      if (active) check(active)
    },
  }
}
