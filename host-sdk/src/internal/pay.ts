/**
 * `airlock.pay`: a payment the dApp asks the visitor for. The bridge checks the payment against the
 * protocol's shape before it leaves the page (a bad field rejects with -32602 naming it), and the modal
 * checks it again: it trusts nothing the page says.
 */
import type { Payment } from '@airlock/bridge-protocol'
import type { Remote } from './bridge.ts'

export type { Payment }

/**
 * Resolves with the transaction's hash once the transfer is confirmed on chain.
 * @example
 * const hash = await pay(remote, { to: '0x…', amount: '0.05', asset: 'native', chain: 'eip155:1' })
 */
export function pay(remote: () => Promise<Remote>, payment: Payment): Promise<`0x${string}`> {
  return remote().then((r) => r.pay(payment) as Promise<`0x${string}`>)
}
