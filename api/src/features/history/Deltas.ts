/**
 * Transfers read from balance changes, for chains whose transactions say how balances moved rather than
 * who paid whom: Solana's pre- and post-balances, a Bitcoin transaction's inputs and outputs. The accounts
 * that lost are paired with those that gained, in the order the transaction lists them. Exact when one
 * side is a single account (a payment, a payout, a consolidation); with several senders and several
 * receivers the chain does not say who paid whom, and the pairing is one faithful reading: every amount
 * sent and received adds up. Pure, so every rule is tested alone.
 */

/** How much an account's balance changed: negative when it lost. */
export type Change = { account: string; amount: bigint }

export type Flow = { from: string; to: string; amount: bigint }

/**
 * The changes of each account added up, in the order accounts first appear, without those that net to
 * nothing (an account that paid itself).
 */
function net(changes: readonly Change[]): Change[] {
  const sums = new Map<string, bigint>()
  for (const { account, amount } of changes) sums.set(account, (sums.get(account) ?? 0n) + amount)
  return [...sums].flatMap(([account, amount]) => (amount === 0n ? [] : [{ account, amount }]))
}

/**
 * Pairs the losers with the gainers: each loser's amount goes to the gainers in order until it is spent.
 * What no account gained is burnt (to ''), what no account lost was minted (from '').
 * @example
 * Deltas.pair([{ account: 'a', amount: -5n }, { account: 'b', amount: 3n }, { account: 'c', amount: 2n }])
 * // [{ from: 'a', to: 'b', amount: 3n }, { from: 'a', to: 'c', amount: 2n }]
 */
export function pair(changes: readonly Change[]): Flow[] {
  const netted = net(changes)
  const outs = netted.filter((c) => c.amount < 0n).map((c) => ({ account: c.account, left: -c.amount }))
  const ins = netted.filter((c) => c.amount > 0n).map((c) => ({ account: c.account, left: c.amount }))
  const flows: Flow[] = []
  let i = 0
  let o = 0
  for (;;) {
    const out = outs[o]
    const into = ins[i]
    if (!out && !into) return flows
    if (!into) {
      if (out) flows.push({ from: out.account, to: '', amount: out.left })
      o++
      continue
    }
    if (!out) {
      flows.push({ from: '', to: into.account, amount: into.left })
      i++
      continue
    }
    const amount = smaller(out.left, into.left)
    flows.push({ from: out.account, to: into.account, amount })
    out.left -= amount
    into.left -= amount
    if (out.left === 0n) o++
    if (into.left === 0n) i++
  }
}

/**
 * Who paid a fee out of `changes`, and how much each: the losers in order, each as far as its loss goes. A
 * fee larger than every loss (the chain says otherwise than the changes) is charged to '' for the rest.
 */
export function feePayers(changes: readonly Change[], fee: bigint): Change[] {
  const payers: Change[] = []
  let left = fee
  for (const change of net(changes)) {
    if (left === 0n) break
    if (change.amount >= 0n) continue
    const paid = smaller(-change.amount, left)
    payers.push({ account: change.account, amount: paid })
    left -= paid
  }
  if (left > 0n) payers.push({ account: '', amount: left })
  return payers
}

function smaller(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
