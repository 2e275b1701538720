import { describe, expect, it } from 'vitest'
import * as Deltas from './Deltas.ts'

const change = (account: string, amount: bigint) => ({ account, amount })

describe('Deltas.pair', () => {
  it('pays each receiver from the one sender, in order', () => {
    expect(Deltas.pair([change('a', -5n), change('b', 3n), change('c', 2n)])).toEqual([
      { from: 'a', to: 'b', amount: 3n },
      { from: 'a', to: 'c', amount: 2n },
    ])
  })

  it('nets an account that paid itself (change back to the sender) away', () => {
    expect(Deltas.pair([change('a', -10n), change('b', 4n), change('a', 6n)])).toEqual([
      { from: 'a', to: 'b', amount: 4n },
    ])
  })

  it('splits several senders over several receivers so every amount adds up', () => {
    const flows = Deltas.pair([change('a', -3n), change('b', -4n), change('c', 5n), change('d', 2n)])
    expect(flows).toEqual([
      { from: 'a', to: 'c', amount: 3n },
      { from: 'b', to: 'c', amount: 2n },
      { from: 'b', to: 'd', amount: 2n },
    ])
  })

  it("mints what no one lost (from '') and burns what no one gained (to '')", () => {
    expect(Deltas.pair([change('a', 7n)])).toEqual([{ from: '', to: 'a', amount: 7n }])
    expect(Deltas.pair([change('a', -7n), change('b', 2n)])).toEqual([
      { from: 'a', to: 'b', amount: 2n },
      { from: 'a', to: '', amount: 5n },
    ])
  })
})

describe('Deltas.feePayers', () => {
  it('charges the fee to the senders in order, each as far as its loss goes', () => {
    const changes = [change('r', 5n), change('a', -2n), change('b', -4n)]
    expect(Deltas.feePayers(changes, 3n)).toEqual([change('a', 2n), change('b', 1n)])
  })

  it("charges what no loss covers to ''", () => {
    expect(Deltas.feePayers([change('a', -1n)], 3n)).toEqual([change('a', 1n), change('', 2n)])
  })
})
