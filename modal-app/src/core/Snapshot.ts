/**
 * What the views render, built from the kernel's state in one object per change, and the core's actions
 * the views may take. Features add their slices and actions (see `Feature.ts`); the types here are the
 * core's part, and `features/index.ts` names the whole.
 */
import { Caip, type PageWallet } from '@airlock/bridge-protocol'
import { isOn } from '@airlock/bridge-protocol/Features'
import type { Actor } from 'xstate'
import { addressUrl, type Network } from '../shared/Network.ts'
import type { Alert, Alerts } from './Alerts.ts'
import type { Config } from './Config.ts'
import type * as Connection from './Connection.ts'
import type { Connections } from './Connections.ts'
import { excludes } from './Excluded.ts'
import type { ConnectMethod, ConnectorType, Kernel, WalletFeature } from './Feature.ts'
import * as Feature from './Feature.ts'
import type { Networks } from './Networks.ts'
import * as Router from './Router.ts'
import type { Shaker, Snack, Snackbar } from './Snackbar.ts'
import { sameWallet } from './Storage.ts'

/** A page wallet as the Connect view lists it: in the `recent` group when it was connected lately. */
export type WalletEntry = { wallet: PageWallet; recent: boolean }

/** A connected account as the Account view shows it; features add fields (balance, tokens). */
export type AccountInfo = {
  namespace: Caip.Namespace
  address: string
  chainId: Caip.ChainId
  /** The configured network the account is on; absent when the wallet is on an unsupported one. */
  network?: Network | undefined
  explorerUrl?: string | undefined
  wallet: PageWallet
}

/** The core's part of what the views render. A new object on every change, the same one otherwise. */
export type CoreSnapshot<A extends AccountInfo = AccountInfo> = {
  /** The host's origin as the browser reported it at the handshake; absent before it. */
  origin?: string | undefined
  alerts: Alert[]
  embedded: boolean
  open: boolean
  view: string
  canGoBack: boolean
  wallets: WalletEntry[]
  /** The wallet being connected (ConnectingExternal). */
  prompt?: { wallet: PageWallet; failure?: Connection.Failure | undefined; pending: boolean } | undefined
  account?: A | undefined
  otherAccounts: A[]
  /** Networks the user can switch to: the active namespace's when connected, else all configured. */
  networks: Network[]
  activeNetworkId?: Caip.ChainId | undefined
  snackbar?: Snack | undefined
  shake: boolean
  /** The view may be closed (not a required sign-in still open). */
  closable: boolean
  /** The order of Connect's groups. */
  connectorOrder: ConnectorType[]
  /** Connect shows "Continue with a wallet" in place of the wallets, beside an email or social login. */
  collapseWallets: boolean
  connectMethods: ConnectMethod[]
  /** The order of Account's actions (Buy, Swap, Receive, Send). */
  walletFeatures: WalletFeature[]
  /** Connect's foot: the project's terms and privacy links, and whether they must be accepted first. */
  legal: Legal
}

/** `legalCheckbox` (off by default): wallets stay disabled until the visitor ticks it. */
export type Legal = { checkbox: boolean; terms?: string | undefined; privacy?: string | undefined }

/** The core's actions. */
export type CoreUi = {
  selectWallet(wallet: PageWallet): void
  retry(): void
  back(): void
  close(): void
  /** Ends the shown account's connection (`account`), or every connection. */
  disconnect(scope?: 'account'): Promise<void>
  /** Shows another connected namespace's account; nothing is reconnected. */
  showAccount(namespace: Caip.Namespace): void
  /** Embedded mode: the card's height changed, so the host resizes its element. */
  resized(height: number): void
  /** "Continue with a wallet": the wallets on a view of their own. */
  showWallets(): void
}

// The whole snapshot and actions: the core's and every feature's (named in `features/index.ts`).
// biome-ignore lint/suspicious/noExplicitAny: the slices are typed by each feature's own views.
export type Snapshot = CoreSnapshot<AccountInfo & Record<string, any>> & Record<string, any>
// biome-ignore lint/suspicious/noExplicitAny: the actions are typed by each feature's own views.
export type Ui = CoreUi & Record<string, any>

type BuilderOptions = {
  kernel: Kernel
  config: Config
  router: Actor<typeof Router.machine>
  connections: Connections
  networks: Networks
  alerts: Alerts
  snackbar: Snackbar
  shake: Shaker
  filter(): Caip.Namespace | undefined
  origin(): string | undefined
  slices(): Record<string, unknown>[]
  accountFields(namespace: Caip.Namespace, connection: Connection.Connection): Record<string, unknown>
}

export function builder(options: BuilderOptions): () => Snapshot {
  const { connections, networks, router, kernel } = options
  const connectorOrder = Feature.connectorOrder(options.config)
  const connectMethods = Feature.connectMethodOrder(options.config)
  const walletFeatures = Feature.walletFeatureOrder(options.config)
  const collapseWallets = !isOn(options.config, 'emailShowWallets') || isOn(options.config, 'collapseWallets')
  const legal: Legal = {
    checkbox: isOn(options.config, 'legalCheckbox'),
    terms: options.config.termsConditionsUrl,
    privacy: options.config.privacyPolicyUrl,
  }

  function accountInfo(namespace: Caip.Namespace, connection: Connection.Connection): AccountInfo {
    const address = connection.accounts[0]?.address ?? ''
    const network = networks.configured(connection.chainId)
    return {
      namespace,
      address,
      chainId: connection.chainId,
      network,
      explorerUrl: network && addressUrl(network, address),
      wallet: connection.wallet,
      ...options.accountFields(namespace, connection),
    }
  }

  const hidden = excludes(options.config)

  /**
   * The page's wallets of configured namespaces (of the awaited one only, while a dApp waits), recent first,
   * without those the host excluded.
   */
  function walletEntries(): WalletEntry[] {
    const namespaces = networks.namespaces()
    const filter = options.filter()
    const recent = kernel.storage.getRecentWallets()
    const visible = connections
      .wallets()
      .filter(
        (wallet) =>
          namespaces.has(wallet.namespace) && (!filter || wallet.namespace === filter) && !hidden(wallet),
      )
    const isRecent = (wallet: PageWallet) => recent.some((key) => sameWallet(key, wallet))
    const ordered = [
      ...recent.flatMap((key) => visible.filter((wallet) => sameWallet(key, wallet))),
      ...visible.filter((wallet) => !isRecent(wallet)),
    ]
    return ordered.map((wallet) => ({ wallet, recent: isRecent(wallet) }))
  }

  return () => {
    const snap = router.getSnapshot()
    const active = networks.activeNamespace()
    const accounts = Caip.namespaces.flatMap((namespace) => {
      const connection = connections.connectionOf(namespace)
      return connection ? [accountInfo(namespace, connection)] : []
    })
    const account = accounts.find((info) => info.namespace === active) ?? accounts[0]
    const prompting = Caip.namespaces
      .map((namespace) => connections.actors[namespace].getSnapshot())
      .find((s) => (s.value === 'prompting' || s.value === 'failed') && s.context.prompt)
    const prompt = prompting?.context.prompt
    const core: CoreSnapshot = {
      origin: options.origin(),
      alerts: options.alerts.list(),
      embedded: options.config.embedded ?? false,
      open: Router.isOpen(snap),
      view: Router.currentView(snap.context),
      canGoBack: snap.context.history.length > 1,
      wallets: walletEntries(),
      prompt: prompt && {
        wallet: prompt.wallet,
        failure: prompt.failure,
        pending: prompting?.value === 'prompting',
      },
      account,
      otherAccounts: accounts.filter((info) => info !== account),
      networks: account
        ? networks.list().filter((network) => network.namespace === account.namespace)
        : [...networks.list()],
      activeNetworkId: networks.current(),
      snackbar: options.snackbar.current(),
      shake: options.shake.active(),
      closable: !Router.closeBlocked(snap.context),
      connectorOrder,
      collapseWallets,
      connectMethods,
      walletFeatures,
      legal,
    }
    return Object.assign(core, ...options.slices())
  }
}

/**
 * The snapshot once the router has only opened or closed the modal: `previous` with `open` flipped and every
 * other field the same object, so what is memoised on the rest (the card's view, App.tsx) does not render
 * again for it. Undefined when the router changed more than that (the view, its history) or there is no
 * snapshot to keep: then one is built afresh. Whether the view may close follows from the view and the
 * sign-in lock, which opening and closing never change.
 */
export function reopened(
  previous: Snapshot | undefined,
  router: Router.RouterSnapshot,
): Snapshot | undefined {
  if (
    !previous ||
    previous.view !== Router.currentView(router.context) ||
    previous.canGoBack !== router.context.history.length > 1
  )
    return undefined
  return { ...previous, open: Router.isOpen(router) }
}

/**
 * Whether `after` differs from `before` in `open` alone (a snapshot kept by {@link reopened}): one built
 * afresh has new lists (its wallets), so it never passes for the one before.
 */
export function sameButOpen(before: Snapshot, after: Snapshot): boolean {
  return Object.keys(after).every((key) => key === 'open' || Object.is(before[key], after[key]))
}

export function coreUi(options: {
  kernel: Kernel
  connections: Connections
  router: Actor<typeof Router.machine>
  retry(): (() => void)[]
  back(): ((view: string) => void)[]
  dismissAlerts(): void
  /** Makes the network (and so its namespace's account) the one the modal shows. */
  activate(chainId: Caip.ChainId): void
}): CoreUi {
  const { connections, router, kernel } = options
  const currentView = () => Router.currentView(router.getSnapshot().context)
  return {
    selectWallet(wallet) {
      // A connection of the namespace stays until the new one succeeds (the machine keeps it meanwhile).
      connections.send(wallet.namespace, { type: 'CONNECT', wallet })
      const view = currentView()
      router.send({ type: view === 'ConnectingExternal' ? 'REPLACE' : 'PUSH', view: 'ConnectingExternal' })
    },
    retry() {
      connections.sendAll({ type: 'RETRY' })
      for (const retry of options.retry()) retry()
    },
    back() {
      const view = currentView()
      if (view === 'ConnectingExternal') connections.sendAll({ type: 'CANCEL' })
      for (const back of options.back()) back(view)
      router.send({ type: 'BACK' })
    },
    close() {
      options.dismissAlerts()
      router.send({ type: 'CLOSE' })
    },
    async disconnect(scope) {
      const namespace = scope === 'account' ? kernel.activeNamespace() : undefined
      try {
        await kernel.disconnect(namespace)
      } catch {
        // kernel.disconnect told the user.
        return
      }
      // The other accounts stay connected: the Account view shows the next one.
      if (!connections.anyConnected()) router.send({ type: 'CLOSE' })
    },
    showAccount(namespace) {
      const chainId = connections.connectionOf(namespace)?.chainId
      if (chainId) options.activate(chainId)
    },
    showWallets() {
      router.send({ type: 'PUSH', view: 'ConnectWallets' })
    },
    resized(height) {
      kernel
        .host()
        ?.resize({ height: Math.min(10_000, Math.max(0, Math.ceil(height))) })
        .catch(() => {})
    },
  }
}
