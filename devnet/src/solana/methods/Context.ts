/**
 * What every RPC method is handed, and the pieces of the node's answers they share: the `{ context, value }`
 * wrapper, the commitment → slot rules and the minContextSlot check.
 */
import type { Address } from '@solana/kit'
import type { Bank } from '../Bank.ts'
import * as Params from '../Params.ts'
import { RpcError } from '../Rpc.ts'

/** The node version this chain reports; its RPC shapes are those of this Agave release. */
export const solanaCore = '2.3.13'
export const featureSet = 3_294_202_862

export type Chain = {
  bank: Bank
  genesisHash: string
  /** requestAirdrop: a faucet transfer, landed. */
  airdrop(address: Address, lamports: bigint): Promise<string>
}

export type Handlers = Record<string, (chain: Chain, params: readonly unknown[]) => unknown>

/** The slot a read at `config`'s commitment sees, after checking `minContextSlot`. */
export function slotFor(chain: Chain, config: Params.Config): bigint {
  const slot = chain.bank.clock.slotAt(Params.commitment(config))
  const minimum = Params.optionalU64(config, 'minContextSlot')
  if (minimum !== undefined && slot < minimum) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: slot })
  }
  return slot
}

export function withContext(slot: bigint, value: unknown): unknown {
  return { context: { apiVersion: solanaCore, slot }, value }
}

/** getTransaction and getSignaturesForAddress only read what a supermajority has voted on. */
export function confirmedCommitment(config: Params.Config): Params.Commitment {
  const commitment = Params.commitment(config)
  if (commitment === 'processed') {
    throw new RpcError(-32602, 'Method does not support commitment below `confirmed`')
  }
  return commitment
}
