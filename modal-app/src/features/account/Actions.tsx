/**
 * Account's actions (Buy, Swap, Receive, Send) in the host's `walletFeaturesOrder` (docs/behaviour.md §1), each only where
 * its feature is on: the actions are a proxy that answers any name, so only `in` tells.
 */
import type { WalletFeature } from '../../core/Feature.ts'
import type { AccountInfo } from '../../core/Snapshot.ts'
import { tabTexts } from './texts.ts'

export type ActionsUi = {
  showOnramp?: (() => void) | undefined
  showSwap?: (() => void) | undefined
  showReceive?: (() => void) | undefined
  showSend?: (() => void) | undefined
}

const actions: Record<WalletFeature, { key: keyof ActionsUi; label: () => string }> = {
  onramp: { key: 'showOnramp', label: () => tabTexts.buy },
  swaps: { key: 'showSwap', label: () => tabTexts.swap },
  receive: { key: 'showReceive', label: () => tabTexts.receive },
  send: { key: 'showSend', label: () => tabTexts.send },
}

/**
 * @example <Actions order={snapshot.walletFeatures} namespace={account.namespace} ui={ui} />
 */
export function Actions({
  order,
  namespace,
  ui,
}: {
  order: readonly WalletFeature[]
  namespace: AccountInfo['namespace']
  ui: ActionsUi
}) {
  const shown = order.filter(
    // docs/behaviour.md §9: the on-ramp serves EVM and Solana accounts.
    (feature) => actions[feature].key in ui && !(feature === 'onramp' && namespace === 'bip122'),
  )
  if (shown.length === 0) return null
  return (
    <div className="account-actions">
      {shown.map((feature) => {
        const { key, label } = actions[feature]
        return (
          <button
            key={feature}
            type="button"
            className="button button-secondary"
            data-testid={`action-${feature}`}
            onClick={() => ui[key]?.()}
          >
            {label()}
          </button>
        )
      })}
    </div>
  )
}
