/**
 * How an indexed transaction reads for one account: the direction of each transfer, what the transaction
 * did (its operation type) and the amounts in whole units. Pure, so every rule is tested alone.
 */
import { formatUnits } from 'viem'
import type * as Contract from '../../contract/index.ts'
import type { TransactionKind } from './Source.ts'

export type Direction = Contract.HistoryTransfer['direction']

/** A transfer's direction as `account` sees it. */
export function direction(account: string, from: string, to: string): Direction {
  if (from === account && to === account) return 'self'
  return from === account ? 'out' : 'in'
}

/**
 * What the transaction did for the account: from its transfers when any concern it (both ways is a trade;
 * only minted to it a mint, only burned from it a burn), else what the transaction itself was.
 */
export function operationType(
  kind: TransactionKind,
  transfers: readonly { direction: Direction; from: string; to: string }[],
): Contract.OperationType {
  if (transfers.length === 0) return kind
  const ins = transfers.filter((transfer) => transfer.direction === 'in')
  const outs = transfers.filter((transfer) => transfer.direction === 'out')
  if (ins.length > 0 && outs.length > 0) return 'trade'
  if (ins.length > 0) return ins.every((transfer) => transfer.from === '') ? 'mint' : 'receive'
  if (outs.length > 0 && outs.every((transfer) => transfer.to === '')) return 'burn'
  return 'send'
}

/**
 * An amount in whole units: scaled by `decimals` for a currency or token (unscaled when the token never
 * said), as is for an NFT.
 */
export function quantity(amount: bigint, decimals: number | null): string {
  return decimals ? formatUnits(amount, decimals) : amount.toString()
}

/** Text from a token contract, cut to what the contract shape allows. */
export function label(text: string | null | undefined, max: number): string {
  return (text ?? '').slice(0, max)
}
