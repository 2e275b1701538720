import type { Features } from '@airlock/bridge-protocol/Features'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { walletFeatureOrder } from '../../core/Feature.ts'
import { Actions, type ActionsUi } from './Actions.tsx'

const all: ActionsUi = { showOnramp() {}, showSwap() {}, showReceive() {}, showSend() {} }
const labels = (html: string) => [...html.matchAll(/>([^<>]+)<\/button>/g)].map((match) => match[1])
const render = (
  features: Features | undefined,
  ui: ActionsUi = all,
  namespace: 'eip155' | 'bip122' = 'eip155',
) =>
  labels(
    renderToStaticMarkup(<Actions order={walletFeatureOrder({ features })} namespace={namespace} ui={ui} />),
  )

describe("Account's actions", () => {
  it('come in the default walletFeaturesOrder: onramp, swaps, receive, send', () => {
    expect(render(undefined)).toEqual(['Buy', 'Swap', 'Receive', 'Send'])
  })

  it("follow the host's order, the ones it left out after in the default order", () => {
    expect(render({ walletFeaturesOrder: ['send', 'receive'] })).toEqual(['Send', 'Receive', 'Buy', 'Swap'])
  })

  it('show only the features that are on, and no Buy for a Bitcoin account', () => {
    expect(render(undefined, { showReceive() {} })).toEqual(['Receive'])
    expect(render(undefined, all, 'bip122')).toEqual(['Swap', 'Receive', 'Send'])
    expect(render(undefined, {})).toEqual([])
  })
})
