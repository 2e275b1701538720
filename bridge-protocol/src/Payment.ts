/**
 * Pay's part of the contract (since 1.3): the payment a dApp asks for with `airlock.pay`, checked by the
 * host before it leaves the page and by the modal again, and the hash it resolves with.
 */
import { isChainId } from './Caip.ts'
import * as S from './Shape.ts'

/** Why a payment's field was refused, said to the dApp's developer. */
export const payTexts = {
  off: 'Pay is not enabled: create Airlock with `features: { pay: true }`.',
  to: '`to` must be an EVM address: 0x and 40 hex digits.',
  amount: '`amount` must be a positive decimal number in the asset\'s units, such as "0.05".',
  asset: '`asset` must be "native" or an ERC-20 contract address.',
  chain: '`chain` must be an EVM network id (CAIP-2), such as "eip155:1".',
} as const
const evmAddress = /^0x[0-9a-fA-F]{40}$/

/**
 * A payment a dApp asks for with `airlock.pay`: `amount` (a decimal in the asset's units) of `asset` (the
 * chain's native currency, or an ERC-20 contract) to `to` on `chain`. Payments are EVM's for now.
 */
export const payment = S.object({
  to: S.check(S.string(100), (to) => evmAddress.test(to), payTexts.to),
  amount: S.check(
    S.string(100),
    (amount) => /^(?:\d+\.?\d*|\.\d+)$/.test(amount) && /[1-9]/.test(amount),
    payTexts.amount,
  ),
  asset: S.optional(
    S.check(S.string(100), (asset) => asset === 'native' || evmAddress.test(asset), payTexts.asset),
  ),
  chain: S.check(S.string(100), (chain) => isChainId(chain) && chain.startsWith('eip155:'), payTexts.chain),
})
export type Payment = S.Infer<typeof payment>
/** A transaction's hash (docs/behaviour.md §5: 0x and 64 hex digits). */
export const transactionHash = S.string(66, 66, /^0x[0-9a-fA-F]{64}$/)
