/** The cluster's clock and identity: blockhashes, slots, epochs, version, genesis and health. */
import { slotsPerEpoch } from '../Clock.ts'
import * as Params from '../Params.ts'
import { featureSet, type Handlers, slotFor, solanaCore, withContext } from './Context.ts'

export const clusterMethods: Handlers = {
  getLatestBlockhash(chain, params) {
    const config = Params.config(params, 0)
    const slot = slotFor(chain, config)
    const { clock } = chain.bank
    const block = clock.blockAt(Params.commitment(config))
    return withContext(slot, {
      blockhash: block.blockhash,
      lastValidBlockHeight: clock.lastValidBlockHeight(block),
    })
  },

  isBlockhashValid(chain, params) {
    const blockhash = Params.string(params, 0, 'blockhash')
    const slot = slotFor(chain, Params.config(params, 1))
    return withContext(slot, chain.bank.clock.isValid(blockhash))
  },

  getSlot(chain, params) {
    return slotFor(chain, Params.config(params, 0))
  },

  // No slot is ever skipped here, so the block height is the slot.
  getBlockHeight(chain, params) {
    return slotFor(chain, Params.config(params, 0))
  },

  getEpochInfo(chain, params) {
    const slot = slotFor(chain, Params.config(params, 0))
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: slot / slotsPerEpoch,
      slotIndex: slot % slotsPerEpoch,
      slotsInEpoch: slotsPerEpoch,
      transactionCount: chain.bank.ledger.transactionCount,
    }
  },

  getEpochSchedule() {
    return {
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
      leaderScheduleSlotOffset: slotsPerEpoch,
      slotsPerEpoch,
      warmup: false,
    }
  },

  getTransactionCount(chain) {
    return chain.bank.ledger.transactionCount
  },

  getVersion() {
    return { 'feature-set': featureSet, 'solana-core': solanaCore }
  },

  getGenesisHash(chain) {
    return chain.genesisHash
  },

  getHealth() {
    return 'ok'
  },

  getFirstAvailableBlock() {
    return 0
  },

  // Nobody bids for block space on a one-user chain; an empty list is what a quiet node answers.
  getRecentPrioritizationFees(_chain, params) {
    if (params[0] !== undefined) Params.array(params, 0, 'addresses', 128)
    return []
  },
}
