import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { compose as create } from '../../compose.ts'
import AccountView from '../../features/account/Account.tsx'
import type { BalanceFields } from '../../features/account/Balances.ts'
import type { Config } from '../Config.ts'
import type { AccountInfo, Snapshot, Ui } from '../Snapshot.ts'
import { create as createStorage, memory } from '../Storage.ts'
import { App } from './App.tsx'
import { Snack } from './Snack.tsx'

function render(config: Config, configError?: string) {
  const modal = create({
    config,
    configError,
    storage: createStorage(memory()),
    loadRegistry: () => import('../../shared/networks.ts'),
    loadChainClient: () => Promise.reject(new Error('not used')),
    api: {
      balances: () => Promise.reject(new Error('not used')),
      wallets: () => Promise.reject(new Error('not used')),
      imageUrl: () => '',
      track: async () => {},
      nonce: () => Promise.reject(new Error('not used')),
      signIn: () => Promise.reject(new Error('not used')),
      sessions: () => Promise.reject(new Error('not used')),
    },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
  })
  return renderToStaticMarkup(<App modal={modal} />)
}

const networks = ['eip155:31337']

describe('App markup', () => {
  it('is a modal dialog when it floats over the page', () => {
    const html = render({ networks })
    expect(html).toContain('role="dialog"')
    expect(html).toContain('aria-modal="true"')
  })

  it('is a labelled region, not a modal dialog, when embedded', () => {
    const html = render({ networks, embedded: true })
    expect(html).toContain('role="region"')
    expect(html).toContain('aria-labelledby="airlock-title"')
    expect(html).not.toContain('role="dialog"')
    expect(html).not.toContain('aria-modal')
  })

  it('shows Connect with its "no wallets" text for the no-adapters views when WalletConnect is off', () => {
    const html = render({ networks: [] })
    expect(html).toContain('No wallets were found on this page.')
    expect(html).toContain('Connect Wallet')
  })

  it('reads an alert’s title once', () => {
    const html = render({ networks }, 'networks must not be empty')
    expect(html.split('Invalid Configuration')).toHaveLength(2)
    expect(html).toContain('networks must not be empty')
  })
})

describe('Snack', () => {
  it('announces errors as alerts and other messages as status, without a redundant aria-live', () => {
    const error = renderToStaticMarkup(<Snack snack={{ id: 1, variant: 'error', message: 'No' }} />)
    const success = renderToStaticMarkup(<Snack snack={{ id: 2, variant: 'success', message: 'Yes' }} />)
    expect(error).toContain('role="alert"')
    expect(success).toContain('role="status"')
    expect(error + success).not.toContain('aria-live')
  })
})

describe('Account view', () => {
  it('says the explorer link opens in a new tab', () => {
    const account: AccountInfo & BalanceFields = {
      namespace: 'solana',
      address: '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q',
      chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      explorerUrl: 'https://explorer.solana.com/address/7v91?cluster=devnet',
      wallet: { id: 's', namespace: 'solana', name: 'S', icon: 'data:image/svg+xml,<svg/>', chains: [] },
      tokens: [],
    }
    const snapshot = { account, otherAccounts: [], walletFeatures: [] } as unknown as Snapshot
    const html = renderToStaticMarkup(<AccountView snapshot={snapshot as never} ui={{} as Ui as never} />)
    expect(html).toContain('href="https://explorer.solana.com/address/7v91?cluster=devnet"')
    expect(html).toContain('<span class="sr-only"> (opens in a new tab)</span>')
  })
})
