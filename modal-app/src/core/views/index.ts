/** The core's own views: Connect and the page-wallet prompt are in the first chunk, so opening is instant. */

import { texts } from '../../shared/texts.ts'
import type { ViewSpec } from '../Feature.ts'
import { Connect, ConnectWallets } from './Connect.tsx'
import { ConnectingExternal } from './ConnectingExternal.tsx'

export const coreViews: readonly ViewSpec[] = [
  { name: 'Connect', title: () => texts.connect.title, component: Connect, lazy: false },
  {
    name: 'ConnectWallets',
    title: () => texts.connect.title,
    component: ConnectWallets,
    lazy: false,
    public: 'Connect',
  },
  {
    name: 'ConnectingExternal',
    title: (snapshot) =>
      (snapshot as { prompt?: { wallet: { name: string } } }).prompt?.wallet.name ?? texts.connect.title,
    component: ConnectingExternal,
    lazy: false,
    public: 'Connect',
  },
]
