/**
 * WalletConnect in the modal: the connector, the pairing view (QR code, copy link, deep links) and its row
 * in Connect. On when the host gives a WalletConnect project id.
 */
import { lazy } from 'react'
import type { Config } from '../../core/Config.ts'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import type * as Client from './Client.ts'
import { CustomRows } from './CustomRows.tsx'
import type * as FlowModule from './Flow.ts'
import { WalletConnectRow } from './WalletConnectRow.tsx'

export type Options = {
  projectId: string
  relayUrl?: string | undefined
  /** Loads the flow (pairing, session); sign-client is large, so it loads only when a flow needs it. */
  loadFlow?: (() => Promise<typeof FlowModule>) | undefined
  loadClient?: (() => Promise<typeof Client>) | undefined
  /** Opens a deep link. @default window.open in a new tab */
  openUrl?: ((url: string) => void) | undefined
  /** Some browsers suspend a page waiting in the background: a pairing then counts as connecting. @default false */
  pairingConnects?: boolean | undefined
  /** The host's own wallets for Connect's `custom` group, less those it excluded. */
  customWallets?: Config['customWallets']
}

import { pairingView } from './types.ts'

export function walletConnect(options: Options): Feature {
  return {
    id: 'walletConnect',
    views: [
      {
        name: pairingView,
        title: (snapshot) =>
          (snapshot as { pairing?: { target?: { name: string } } }).pairing?.target?.name ??
          texts.walletConnect.name,
        component: lazy(() => import('./ConnectingWalletConnect.tsx')),
      },
    ],
    connectRows: {
      walletConnect: WalletConnectRow,
      custom: CustomRows,
    },
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel, options),
  }
}
