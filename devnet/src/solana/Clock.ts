/**
 * Time on the dev chain: one slot per tick, each with a fresh blockhash, and the depth rules that turn a
 * slot into processed, confirmed or finalized. litesvm has no slots of its own, so this clock warps it one
 * slot at a time and keeps the recent blockhashes the real node would still accept.
 */
import type { Blockhash } from '@solana/kit'
import { EpochSchedule, type LiteSVM, Clock as SvmClock } from 'litesvm'
import type { Commitment } from './Params.ts'

export type Block = { slot: bigint; blockhash: Blockhash; blockTime: number }

/** How many blocks a blockhash stays usable for (`MAX_PROCESSING_AGE` on the real cluster). */
const blockhashValidity = 150n
/** Slots per epoch, without warm-up, so epoch numbers read the same as on mainnet. */
export const slotsPerEpoch = 432_000n
// Kept a little past the validity window so a blockhash fetched at `finalized` is still found.
const blocksKept = 300

export class Clock {
  private readonly blocks: Block[] = []
  private readonly slotOfHash = new Map<string, bigint>()

  constructor(
    private readonly svm: LiteSVM,
    /** Slots behind the tip at which a slot counts as finalized; the real cluster's is about 32. */
    readonly finalizedDepth: bigint,
  ) {
    svm.setEpochSchedule(new EpochSchedule(slotsPerEpoch, slotsPerEpoch, false, 0n, 0n))
    this.enter(0n, svm.latestBlockhash())
  }

  /** The slot being filled now: transactions sent at this moment land in it. */
  get slot(): bigint {
    return this.tip().slot
  }

  tip(): Block {
    const last = this.blocks.at(-1)
    if (!last) throw new Error('the clock has no block')
    return last
  }

  /** Closes the current slot and opens the next, with a new blockhash. */
  tick(): Block {
    this.svm.expireBlockhash()
    return this.enter(this.slot + 1n, this.svm.latestBlockhash())
  }

  /** The newest slot that has reached `commitment`. */
  slotAt(commitment: Commitment): bigint {
    const depth = this.depthOf(commitment)
    return this.slot > depth ? this.slot - depth : 0n
  }

  blockAt(commitment: Commitment): Block {
    const slot = this.slotAt(commitment)
    return this.blocks.find((block) => block.slot === slot) ?? this.tip()
  }

  /** How far a landed slot has got: the status `getSignatureStatuses` reports. */
  commitmentOf(slot: bigint): Commitment {
    if (this.reached(slot, 'finalized')) return 'finalized'
    return this.reached(slot, 'confirmed') ? 'confirmed' : 'processed'
  }

  reached(slot: bigint, commitment: Commitment): boolean {
    return this.slot - slot >= this.depthOf(commitment)
  }

  private depthOf(commitment: Commitment): bigint {
    if (commitment === 'processed') return 0n
    return commitment === 'confirmed' ? 1n : this.finalizedDepth
  }

  /** Whether a transaction with this blockhash may still land (the node's `BlockhashNotFound` check). */
  isValid(blockhash: string): boolean {
    const slot = this.slotOfHash.get(blockhash)
    return slot !== undefined && this.slot - slot <= blockhashValidity
  }

  lastValidBlockHeight(block: Block): bigint {
    return block.slot + blockhashValidity
  }

  epoch(): { epoch: bigint; slotIndex: bigint } {
    return { epoch: this.slot / slotsPerEpoch, slotIndex: this.slot % slotsPerEpoch }
  }

  private enter(slot: bigint, blockhash: Blockhash): Block {
    const block = { slot, blockhash, blockTime: Math.floor(Date.now() / 1000) }
    this.blocks.push(block)
    this.slotOfHash.set(blockhash, slot)
    const dropped = this.blocks.length > blocksKept ? this.blocks.shift() : undefined
    if (dropped) this.slotOfHash.delete(dropped.blockhash)
    const epoch = slot / slotsPerEpoch
    // Programs read the time and slot from the Clock sysvar, so it moves with the chain.
    this.svm.setClock(new SvmClock(slot, BigInt(block.blockTime), epoch, epoch + 1n, BigInt(block.blockTime)))
    return block
  }
}
