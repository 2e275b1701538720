/**
 * The embedded wallet's logic: the email and social logins, opening or creating the wallet behind them, and
 * the connector that serves dApps' requests with it, each unsafe one through ApproveTransaction.
 */
import { Errors } from '@airlock/bridge-protocol'
import * as Keeper from '../../core/approval/Keep.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import * as Account from './Account.ts'
import { accountTypes } from './AccountType.ts'
import * as Approvals from './Approvals.ts'
import * as ConnectEvents from './ConnectEvents.ts'
import { connector, type Embedded, id as walletId } from './connector.ts'
import * as EmailLogin from './EmailLogin.ts'
import * as Farcaster from './Farcaster.ts'
import * as Manage from './Manage.ts'
import * as Preview from './Preview.ts'
import * as Protection from './Protection.ts'
import * as Rpc from './Rpc.ts'
import * as Secrets from './Secrets.ts'
import * as SmartAccounts from './SmartAccounts.ts'
import * as Flow from './social/Flow.ts'
import type * as Vault from './Vault.ts'
import { approveView, codeView, farcasterView, settingsView, socialView, walletView } from './views.ts'
import { viewTexts as texts } from './viewTexts.ts'

/** The logic, or undefined where it cannot run: a modal with no API to log in with. */
export function setup(kernel: Kernel, options: { socials: readonly string[] }): Runtime | undefined {
  const endpoint = kernel.api.endpoint
  if (!endpoint) return undefined
  const account = Account.create({ endpoint, timers: kernel.timers })
  const secrets = Secrets.create(kernel.origin)
  // Unwrapping what this browser keeps starts now; reads wait for it (`restore`, `loggedIn`). A value that does
  // not open reads as absent: a share so lost is asked for again as the recovery (passkey or password).
  void secrets.ready().then((unreadable) => {
    for (const error of unreadable) console.warn('[airlock]', error.message)
  })
  const rpc = Rpc.relay(endpoint)
  const custody = () => import('./custody.ts')
  // Only the providers the API can log in with get a button: one it has no client for would open a window
  // onto an error. Unknown until it answers, so none shows before.
  let socials: readonly string[] = []
  const readProviders = () => {
    if (options.socials.length > 0)
      account.socialProviders().then(
        ({ providers, farcaster: fc }) => {
          const on: readonly string[] = fc ? [...providers, 'farcaster'] : providers
          socials = options.socials.filter((provider) => on.includes(provider))
          changed()
        },
        (error: unknown) => console.warn('[airlock] Could not read the social providers.', error),
      )
  }
  readProviders()

  let wallet: Vault.Wallet | undefined
  let session: Account.Session | undefined
  let recovery: Protection.Recovery | undefined
  // WebAuthn refuses a relying party that is an IP address: such a modal origin keeps the password only.
  const passkeys = typeof PublicKeyCredential !== 'undefined' && !/^[\d.]+$|^\[/.test(location.hostname)
  /** A login a window of the modal origin keeps from an earlier page load, which a click brings back. */
  let restorable = false
  let opening = false
  const accounts = SmartAccounts.create({
    rpc,
    endpoint,
    wallet: () => wallet,
    preferred: kernel.config.preferredAccountTypes?.eip155,
    stored: () => session && secrets.accountType(session.user.id),
    store: (type) => session && secrets.keepAccountType(session.user.id, type),
    changed: () => changed(),
    refused: (message) => kernel.snackbar.show('error', message),
  })
  const simulated = Preview.simulated({ rpc, kernel, from: () => wallet?.addresses.eip155 })
  const approvals = Approvals.create(
    kernel,
    async (pending) => {
      if (!wallet) throw new Errors.UnauthorizedError()
      const opened = wallet
      const bySmart = await accounts.sign(pending.request, pending.chainId)
      if (bySmart.handled) return bySmart.result
      return (await custody()).sign(opened, pending.request, pending.chainId, rpc)
    },
    // A smart account's preview is its prepared user operation; the EOA's, the node's simulation.
    async (request, chainId, description) =>
      (await accounts.preview(request, chainId, description)) ?? simulated(request, chainId, description),
  )

  let embeddedConnector: Embedded | undefined
  const events = ConnectEvents.create(kernel.track)

  const changed = () => kernel.changed()
  const namespaces = ['eip155', 'solana'] as const
  const embeddedIn = (ns: (typeof namespaces)[number]) => kernel.connectionOf(ns)?.wallet.id === walletId
  const signedIn = () => namespaces.some(embeddedIn)
  const go = (view: string) =>
    kernel.router.send(kernel.router.view() === view ? { type: 'REPLACE', view } : { type: 'PUSH', view })

  /**
   * The login succeeded: the wallet is opened (by this browser's share, or by `unlock`, a passkey sign-in's
   * PRF output), or the visitor is asked for its passkey or recovery password.
   */
  async function loggedIn(next: Account.Session, unlock?: Vault.Unlock) {
    session = next
    secrets.keepSession(next)
    opening = true
    changed()
    try {
      await secrets.ready()
      const { Vault } = await custody()
      const found = await Vault.find({ account, store: secrets }, next)
      if (found.kind === 'open') return ready(found.wallet)
      if (found.kind === 'recover' && unlock) {
        const opened = await Vault.recover({ store: secrets }, next, found.stored, unlock).catch((error) => {
          if (error instanceof Vault.WrongPasskeyError) return undefined
          throw error
        })
        if (opened) return ready(opened)
      }
      recovery =
        found.kind === 'create'
          ? { mode: 'create', busy: false }
          : { mode: 'recover', busy: false, stored: found.stored }
      kernel.router.send({ type: 'REPLACE', view: walletView })
    } catch (error) {
      console.error('[airlock]', texts.initFailed, error)
      // docs/behaviour.md §8: this failure disconnects. The session is not kept for the next load to trip on again, nor
      // left to a wallet an earlier login connected: a login is one session and its wallet, or nothing.
      void endSession()
      await Promise.all(
        namespaces.filter(embeddedIn).map((ns) => kernel.disconnect(ns).catch(() => undefined)),
      )
      // Said where the visitor is once the connections ended, which may have taken them back to Connect.
      failed(error instanceof Account.AccountError ? error.message : texts.initFailed)
    } finally {
      opening = false
      changed()
    }
  }

  /** Tells the visitor in the view they are on, or in a snack where that view has no place for it. */
  function failed(message: string) {
    events.failed(message)
    const view = kernel.router.view()
    if (view === socialView && social.slice()) social.failed(message)
    else if (view === walletView && recovery) recovery = { ...recovery, error: message, busy: false }
    else if (view === farcasterView) farcaster.failed(message)
    else if (view === codeView) return email.failed(message)
    else kernel.snackbar.show('error', message)
    kernel.shake()
  }

  /**
   * Ends the login here, whatever the API says, and at the API: a sign-out, or a login that opened no wallet.
   * The modal, as docs/behaviour.md §9 says, waits for the API's answer at most 3 s.
   */
  async function endSession() {
    const token = session?.token
    session = undefined
    wallet = undefined
    secrets.keepSession(undefined)
    approvals.rejectAll(new Errors.DisconnectedError())
    if (token)
      await Promise.race([account.logout(token).catch(() => {}), new Promise((r) => setTimeout(r, 3000))])
  }

  /**
   * The wallet is open. Where this frame may keep nothing past the page load (third-party storage blocked),
   * the visitor is first offered a window of the modal origin to keep the login, as WalletConnect sessions are.
   */
  function ready(opened: Vault.Wallet) {
    wallet = opened
    if (!secrets.lasting() && !kernel.storage.getLoginKept()) {
      recovery = { mode: 'keep', busy: false }
      if (kernel.router.view() !== walletView) kernel.router.send({ type: 'REPLACE', view: walletView })
      return changed()
    }
    connect()
  }

  function connect() {
    recovery = undefined
    embeddedConnector?.approve()
    events.connected()
  }

  /** In the click: the window keeps (or, without `put`, hands back) the login; resolves with what it keeps. */
  async function keepWindow(put?: Record<string, string>) {
    const origin = kernel.origin()
    if (!origin) return undefined
    try {
      return await Keeper.keep({ scope: `embedded ${origin}`, ...(put ? { put } : {}) })
    } catch {
      return undefined
    }
  }

  const farcaster = Farcaster.create({ kernel, account, loggedIn: (next) => void loggedIn(next) })
  const manage = Manage.create({
    kernel,
    custody,
    account,
    secrets,
    session: () => session,
    wallet: () => wallet,
    renamed(next) {
      session = next
      secrets.keepSession(next)
    },
    forgetKept: () => void keepWindow({}),
  })
  const email = EmailLogin.create({ kernel, account, loggedIn: (next) => loggedIn(next) })
  const social = Flow.create({
    kernel,
    endpoint,
    secrets,
    loggedIn: (next) => void loggedIn({ token: next.token, user: next.user }),
    failed: events.failed,
    fallback: texts.initFailed,
    view: socialView,
    go,
  })
  const protection = Protection.create({
    kernel,
    account,
    secrets,
    custody,
    session: () => session,
    recovery: () => recovery,
    setRecovery(next) {
      recovery = next
      changed()
    },
    ready,
  })

  kernel.addConnector((context) => {
    embeddedConnector = connector(context, {
      wallet: () => wallet,
      async restore() {
        await secrets.ready()
        const kept = secrets.session()
        if (!kept) return undefined
        session = kept
        try {
          const found = await (await custody()).Vault.find({ account, store: secrets }, kept)
          if (found.kind === 'open') wallet = found.wallet
          return wallet
        } catch (error) {
          // An ended session (401) is forgotten; anything else may pass, so the next load tries again.
          if (error instanceof Account.AccountError && error.status === 401) secrets.keepSession(undefined)
          throw error
        }
      },
      signOut: endSession,
      read: (chainId, request) => rpc(chainId, request.method, request.params ?? []),
      approve: approvals.ask,
      notAllowed: approvals.notAllowed,
      address: accounts.address,
      capabilities: accounts.capabilities,
      callsStatus: accounts.callsStatus,
      refuses: accounts.refuses,
    })
    return embeddedConnector
  })

  return {
    snapshot: () => {
      const login = email.slice()
      return {
        embeddedWallet: {
          socials,
          email: { ...login.email, restorable },
          passkey: passkeys,
          code: { ...login.code, opening },
          social: social.slice() && { ...social.slice(), opening },
          recovery: recovery && Protection.slice(recovery, opening),
          user: session?.user,
          approval: approvals.slice(),
          signedIn: signedIn() && session !== undefined,
          ...manage.slice(),
          farcaster: farcaster.slice(),
          accountType: accounts.type(),
        },
      }
    },
    ui: {
      sendEmailCode(address: string) {
        events.started('email', 'Email')
        email.send(address)
      },
      resendEmailCode: email.resend,
      verifyEmailCode: email.verify,
      // Called in the click: the provider's window opens only then.
      socialLogin(provider: string) {
        events.started('social', provider)
        if (provider === 'farcaster') return void farcaster.begin()
        social.login(provider)
      },
      submitRecovery: protection.submitRecovery,
      // In the click, each: the passkey's ceremony (or the window it runs in) needs the visitor's activation.
      protectWithPasskey: protection.protectWithPasskey,
      unlockWithPasskey: protection.unlockWithPasskey,
      choosePassword: protection.choosePassword,
      passkeyLogin() {
        events.started('passkey', 'Passkey')
        protection.signIn(loggedIn).catch((error: unknown) => failed(Protection.messageOf(error)))
      },
      // In the click, as the window may only open there.
      keepLogin(keep: boolean) {
        if (recovery?.mode !== 'keep' || recovery.busy) return
        if (!keep) return connect()
        recovery = { ...recovery, busy: true }
        changed()
        void keepWindow(secrets.entries()).then((entries) => {
          if (entries?.session) kernel.storage.setLoginKept(true)
          else kernel.snackbar.show('error', texts.wallet.notKept)
          connect()
          changed()
        })
      },
      restoreLogin() {
        if (!restorable) return
        restorable = false
        changed()
        void keepWindow().then((entries) => {
          if (!entries?.session) {
            kernel.storage.setLoginKept(false)
            kernel.snackbar.show('error', texts.wallet.notKept)
            return changed()
          }
          secrets.seed(entries)
          const kept = secrets.session()
          if (kept) void loggedIn(kept)
        })
      },
      ...manage.ui,
      // Settings: the EVM account becomes another one; dApps are told its address.
      chooseAccountType(type: string) {
        const next = accountTypes.find((known) => known === type)
        if (!next || !session || next === accounts.type()) return
        accounts.choose(next)
        embeddedConnector?.accountChanged()
        changed()
      },
      approveRequest: approvals.approve,
      rejectRequest: approvals.reject,
    },
    back(view) {
      if (view === farcasterView) farcaster.left(signedIn(), readProviders)
      if (view === settingsView) manage.clear()
      if (view === socialView) social.stop()
      if (view === approveView) approvals.rejectAll(new Errors.UserRejectedRequestError())
    },
    state() {
      if (!signedIn() || !session) return {}
      const { user } = session
      return {
        user: {
          ...(user.email ? { email: user.email } : {}),
          ...(user.username ? { username: user.username } : {}),
          authProvider: user.provider ?? 'email',
          // The product's social providers (docs/behaviour.md §1); Farcaster is a login of its own (`authProvider` names it).
          ...(user.provider && user.provider !== 'farcaster' ? { socialProvider: user.provider } : {}),
          ...accounts.state(),
        },
      }
    },
    settled() {
      void social.resume()
      restorable = !secrets.lasting() && kernel.storage.getLoginKept() && !wallet
      if (restorable) changed()
    },
    closed() {
      farcaster.stop()
      manage.clear()
      // docs/behaviour.md §2: closing the modal with requests still waiting rejects them.
      approvals.rejectAll(new Errors.UserRejectedRequestError())
      social.stop()
    },
  }
}
