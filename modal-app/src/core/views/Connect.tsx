import { useId } from 'react'
import { texts } from '../../shared/texts.ts'
import { onListKeyDown } from '../../shared/ui/keys.ts'
import type { ConnectMethod, ConnectorType, ConnectRows, ViewProps } from '../Feature.ts'
import * as FrameStorage from '../FrameStorage.ts'
import type { CoreSnapshot, CoreUi, WalletEntry } from '../Snapshot.ts'
import { ApproveButton, Unverified } from '../ui/Guard.tsx'

/**
 * The host's origin, then the wallets by group in the order the host chose (`connectorTypeOrder`; by
 * default the page's wallets, recent first, each tagged with its chain family, then the rows features add:
 * WalletConnect's QR code, registry wallets), and All Wallets last.
 */
export function Connect({
  snapshot,
  ui,
  rows = [],
}: {
  snapshot: CoreSnapshot
  ui: CoreUi
  rows?: ViewProps['rows']
}) {
  const { wallets } = snapshot
  return (
    <div className="view">
      {snapshot.origin && (
        <p className="origin">
          <strong data-testid="host-origin">{snapshot.origin}</strong> {texts.connect.wantsToConnect}
        </p>
      )}
      {wallets.length > 0 && (
        <Unverified
          question={() => ({
            title: texts.connect.title,
            origin: snapshot.origin ?? '',
            question: texts.connect.wantsToConnect,
            choices: wallets.map(({ wallet }) => ({ id: wallet.id, label: wallet.name, icon: wallet.icon })),
            cancel: texts.guard.cancel,
          })}
          onChoice={(id) => {
            const chosen = wallets.find((entry) => entry.wallet.id === id)
            if (chosen) ui.selectWallet(chosen.wallet)
          }}
        />
      )}
      {snapshot.connectMethods.map((method) =>
        method === 'wallet' ? (
          <WalletList key={method} snapshot={snapshot} ui={ui} rows={rows} />
        ) : (
          <Method key={method} method={method} snapshot={snapshot} ui={ui} rows={rows} />
        ),
      )}
    </div>
  )
}

/** The wallets: the page's, by group in the host's order, then the features' rows, All Wallets last. */
function WalletList({
  snapshot,
  ui,
  rows,
}: {
  snapshot: CoreSnapshot
  ui: CoreUi
  rows: readonly ConnectRows[]
}) {
  const { wallets } = snapshot
  return wallets.length > 0 || rows.some((group) => Object.keys(group).some((key) => !ways.has(key))) ? (
    <ul
      className="list"
      data-testid="wallet-list"
      aria-label={texts.connect.walletList}
      onKeyDown={onListKeyDown}
      // Choosing a wallet is the click the browser wants before it grants a frame storage of its own.
      onClickCapture={FrameStorage.request}
    >
      {snapshot.connectorOrder.map((type) => (
        <Group key={type} type={type} snapshot={snapshot} ui={ui} rows={rows} />
      ))}
      {rows.map((group, index) => {
        const Last = group.last
        // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
        return Last && <Last key={index} snapshot={snapshot} ui={ui} />
      })}
    </ul>
  ) : (
    <p className="muted">{texts.connect.noWallets}</p>
  )
}

const ways: ReadonlySet<string> = new Set<ConnectMethod>(['email', 'social'])

/** A way in that needs no wallet (an email login, social logins), as the features that offer it render it. */
function Method({
  method,
  snapshot,
  ui,
  rows,
}: {
  method: Exclude<ConnectMethod, 'wallet'>
  snapshot: CoreSnapshot
  ui: CoreUi
  rows: readonly ConnectRows[]
}) {
  return rows.map((group, index) => {
    const Rows = group[method]
    // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
    return Rows && <Rows key={index} snapshot={snapshot} ui={ui} />
  })
}

/** One group of Connect's list: the page's wallets for `recent` and `injected`, else the features' rows. */
function Group({
  type,
  snapshot,
  ui,
  rows,
}: {
  type: ConnectorType
  snapshot: CoreSnapshot
  ui: CoreUi
  rows: readonly ConnectRows[]
}) {
  if (type === 'recent' || type === 'injected') {
    const recent = type === 'recent'
    return snapshot.wallets
      .filter((entry) => entry.recent === recent)
      .map((entry) => <WalletButton key={entry.wallet.id} entry={entry} ui={ui} />)
  }
  return rows.map((group, index) => {
    const Rows = group[type]
    // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
    return Rows && <Rows key={index} snapshot={snapshot} ui={ui} />
  })
}

function WalletButton({ entry, ui }: { entry: WalletEntry; ui: CoreUi }) {
  const tagsId = useId()
  const { wallet, recent } = entry
  return (
    <li>
      {/* Named by the wallet alone; the tags describe it, so they stay out of the name. */}
      <ApproveButton className="row" aria-describedby={tagsId} onClick={() => ui.selectWallet(wallet)}>
        <img className="wallet-icon" src={wallet.icon} alt="" width={32} height={32} />
        <span className="row-label">{wallet.name}</span>
        <span className="tags" id={tagsId} aria-hidden="true">
          {recent && <span className="tag">{texts.connect.recent}</span>}
          <span className="tag">{texts.namespaces[wallet.namespace]}</span>
        </span>
      </ApproveButton>
    </li>
  )
}
