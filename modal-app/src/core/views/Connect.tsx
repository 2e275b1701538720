import { useId, useState } from 'react'
import { texts } from '../../shared/texts.ts'
import { onListKeyDown } from '../../shared/ui/keys.ts'
import type { ConnectMethod, ConnectorType, ConnectRows, ViewProps } from '../Feature.ts'
import * as FrameStorage from '../FrameStorage.ts'
import type { CoreSnapshot, CoreUi, Legal, WalletEntry } from '../Snapshot.ts'
import { ApproveButton, Unverified } from '../ui/Guard.tsx'

/**
 * The host's origin, then the ways in (`connectMethodsOrder`), the wallets by section in the order the host
 * chose (`connectorTypeOrder`; by default Recent, Installed, then the rows features add: WalletConnect's QR
 * code, registry wallets), All Wallets last; "New to wallets?"; the project's terms when it has them.
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
  // Older snapshots (tests that build one by hand) have no legal part: nothing to accept then.
  const legal = snapshot.legal ?? { checkbox: false }
  const [agreed, setAgreed] = useState(false)
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
      {/* Until the terms are accepted (when the project asks for that), no way in can be chosen. */}
      <fieldset className="connect-methods" disabled={legal.checkbox && !agreed}>
        {snapshot.connectMethods.map((method) =>
          method !== 'wallet' ? (
            <Method key={method} method={method} snapshot={snapshot} ui={ui} rows={rows} />
          ) : snapshot.collapseWallets && rows.some((group) => group.email || group.social) ? (
            <ContinueWithWallet key={method} ui={ui} />
          ) : (
            <WalletList key={method} snapshot={snapshot} ui={ui} rows={rows} />
          ),
        )}
      </fieldset>
      <NewToWallets snapshot={snapshot} ui={ui} rows={rows} />
      {(legal.checkbox || legal.terms || legal.privacy) && (
        <LegalFoot legal={legal} agreed={agreed} onAgree={setAgreed} />
      )}
    </div>
  )
}

/**
 * In place of the wallets, where the host wants the ways in that need no wallet to lead
 * (`emailShowWallets: false` or `collapseWallets: true`): the wallets wait one click away, in ConnectWallets.
 */
function ContinueWithWallet({ ui }: { ui: CoreUi }) {
  return (
    <ul className="list">
      <li>
        <button type="button" className="row" onClick={() => ui.showWallets()}>
          <span className="wallet-icon wallet-icon-grid" aria-hidden="true" />
          <span className="row-label">{texts.connect.continueWithWallet}</span>
        </button>
      </li>
    </ul>
  )
}

/** ConnectWallets: the wallets alone, for a visitor who chose "Continue with a wallet". */
export function ConnectWallets({ snapshot, ui, rows = [] }: ViewProps) {
  return (
    <div className="view">
      <WalletList snapshot={snapshot} ui={ui} rows={rows} />
    </div>
  )
}

/**
 * The wallets in sections (Recent, Installed, Popular: the host's group order, consecutive groups of one
 * section together), then the features' rows, All Wallets last. One arrow-key list across the sections. A
 * section whose groups render nothing hides with its heading (styles.css, `:has`).
 */
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
  const id = useId()
  if (wallets.length === 0 && !rows.some((group) => Object.keys(group).some((key) => !ways.has(key))))
    return <p className="muted">{texts.connect.noWallets}</p>
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would draw a box and read a legend; this is a group of lists.
    <div
      role="group"
      data-testid="wallet-list"
      aria-label={texts.connect.walletList}
      onKeyDown={onListKeyDown}
      // Choosing a wallet is the click the browser wants before it grants a frame storage of its own.
      onClickCapture={FrameStorage.request}
    >
      {sectionsOf(snapshot.connectorOrder).map(({ section, types }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the sections follow the configured order, fixed for the modal's life.
        <div key={index} className="connect-section">
          <h2 className="section-title" id={`${id}-${index}`}>
            {texts.connect[section]}
          </h2>
          <ul className="list" aria-labelledby={`${id}-${index}`}>
            {types.map((type) => (
              <Group key={type} type={type} snapshot={snapshot} ui={ui} rows={rows} />
            ))}
          </ul>
        </div>
      ))}
      {rows.some((group) => group.last) && (
        <ul className="list" aria-label={texts.connect.walletList}>
          {rows.map((group, index) => {
            const Last = group.last
            // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
            return Last && <Last key={index} snapshot={snapshot} ui={ui} />
          })}
        </ul>
      )}
    </div>
  )
}

type Section = 'recent' | 'installed' | 'popular'

/** The host's group order cut into sections: `recent`, `injected` (installed), and the rest (popular). */
export function sectionsOf(order: readonly ConnectorType[]): { section: Section; types: ConnectorType[] }[] {
  const sections: { section: Section; types: ConnectorType[] }[] = []
  for (const type of order) {
    const section: Section = type === 'recent' ? 'recent' : type === 'injected' ? 'installed' : 'popular'
    const last = sections[sections.length - 1]
    if (last?.section === section) last.types.push(type)
    else sections.push({ section, types: [type] })
  }
  return sections
}

/**
 * "New to wallets?": what a wallet is, and where to get one (the features' `getWallet` rows: the registry's
 * wallets). A disclosure, so it costs one line until asked.
 */
function NewToWallets({
  snapshot,
  ui,
  rows,
}: {
  snapshot: CoreSnapshot
  ui: CoreUi
  rows: readonly ConnectRows[]
}) {
  return (
    <details className="new-to-wallets">
      <summary>{texts.connect.newToWallets}</summary>
      <p className="muted">{texts.connect.whatIsWallet}</p>
      {rows.map((group, index) => {
        const Rows = group.getWallet
        // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
        return Rows && <Rows key={index} snapshot={snapshot} ui={ui} />
      })}
    </details>
  )
}

/** The project's terms and privacy links; with `legalCheckbox`, the box that must be ticked first. */
function LegalFoot({
  legal,
  agreed,
  onAgree,
}: {
  legal: Legal
  agreed: boolean
  onAgree: (agreed: boolean) => void
}) {
  const link = (href: string | undefined, label: string) =>
    href && (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    )
  return (
    <div className="legal">
      {legal.checkbox && (
        <label className="legal-check">
          <input type="checkbox" checked={agreed} onChange={(event) => onAgree(event.target.checked)} />
          <span>{texts.connect.agree}</span>
        </label>
      )}
      {(legal.terms || legal.privacy) && (
        <p className="legal-links">
          {link(legal.terms, texts.connect.terms)}
          {link(legal.privacy, texts.connect.privacy)}
        </p>
      )}
    </div>
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

/**
 * One group of Connect's list: the page's wallets for `recent`, `injected` and `external` (the providers the
 * dApp handed the host SDK), then the rows features add to the group (the host's `custom` wallets, registry
 * wallets).
 */
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
  return [
    ...snapshot.wallets
      .filter((entry) => (entry.recent ? 'recent' : entry.wallet.external ? 'external' : 'injected') === type)
      .map((entry) => <WalletButton key={entry.wallet.id} entry={entry} ui={ui} />),
    ...rows.map((group, index) => {
      const Rows = group[type]
      // biome-ignore lint/suspicious/noArrayIndexKey: the features' rows never reorder.
      return Rows && <Rows key={index} snapshot={snapshot} ui={ui} />
    }),
  ]
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
