/**
 * The chain's state and the one way into it: a litesvm instance, the slot clock, and the ledger of landed
 * transactions. `submit` runs the node's checks (signatures, blockhash age, duplicates, preflight), executes
 * the transaction and records it with the balances before and after, exactly once.
 */
import {
  type Address,
  type EncodedAccount,
  getBase58Decoder,
  getBase64Decoder,
  type ReadonlyUint8Array,
} from '@solana/kit'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { type Block, Clock } from './Clock.ts'
import * as Errors from './Errors.ts'
import { type InnerInstruction, type Landed, Ledger } from './Ledger.ts'
import * as Message from './Message.ts'
import { RpcError } from './Rpc.ts'
import * as Tokens from './Tokens.ts'

export type Simulation = {
  err: Errors.TransactionErrorJson | null
  logs: string[]
  unitsConsumed: bigint
  returnData: { programId: Address; data: [string, 'base64'] } | null
  innerInstructions: Landed['innerInstructions']
  /** Accounts as they would be after the transaction; empty when it failed. */
  postAccounts: EncodedAccount[]
}

type Listener<T> = (value: T) => void

export class Bank {
  readonly svm: LiteSVM
  readonly clock: Clock
  readonly ledger = new Ledger()
  private readonly landedListeners = new Set<Listener<Landed>>()
  private readonly slotListeners = new Set<Listener<Block>>()

  constructor(options: { finalizedDepth: bigint }) {
    // The clock keeps the recent blockhashes and checks their age itself: litesvm alone would accept only
    // the very latest one, and a wallet that takes a few slots to sign would always miss it.
    this.svm = new LiteSVM().withBlockhashCheck(false)
    this.clock = new Clock(this.svm, options.finalizedDepth)
  }

  readonly read: Tokens.Reader = (address) => {
    const account = this.svm.getAccount(address)
    return account.exists ? account : undefined
  }

  lamports(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n
  }

  /** Ends the current slot; subscribers hear about the new one. */
  tick(): void {
    const block = this.clock.tick()
    for (const listener of this.slotListeners) listener(block)
  }

  onLanded(listener: Listener<Landed>): () => void {
    this.landedListeners.add(listener)
    return () => this.landedListeners.delete(listener)
  }

  onSlot(listener: Listener<Block>): () => void {
    this.slotListeners.add(listener)
    return () => this.slotListeners.delete(listener)
  }

  /**
   * sendTransaction: the signature, once the transaction has landed or been dropped. With preflight, a
   * transaction that would fail is refused with -32002 and the simulation, as the node does; without it, a
   * failing transaction lands with its error and pays its fee, and one that cannot pay is dropped.
   */
  submit(wire: Message.Wire, options: { skipPreflight: boolean }): string {
    const signature = wire.signatures[0] ?? ''
    if (!options.skipPreflight) this.preflight(wire)
    else if (!wire.signed || this.ageError(wire)) return signature
    this.execute(wire)
    return signature
  }

  simulate(wire: Message.Wire, options: { sigVerify: boolean; checkBlockhash: boolean }): Simulation {
    // litesvm would throw on a missing signature instead of reporting it.
    if (options.sigVerify && !wire.signed) return failedSimulation('SignatureFailure')
    const early = options.checkBlockhash ? this.ageError(wire) : undefined
    if (early) return failedSimulation(early)
    this.svm.withSigverify(options.sigVerify)
    try {
      const outcome = this.svm.simulateTransaction(wire.transaction)
      if (outcome instanceof FailedTransactionMetadata) {
        return { ...describeRun(outcome.meta()), err: Errors.toJson(outcome.err()), postAccounts: [] }
      }
      return { ...describeRun(outcome.meta()), err: null, postAccounts: outcome.postAccounts() }
    } finally {
      this.svm.withSigverify(true)
    }
  }

  private preflight(wire: Message.Wire): void {
    const simulation = this.simulate(wire, { sigVerify: true, checkBlockhash: true })
    if (simulation.err === null) return
    if (simulation.err === 'SignatureFailure') throw signatureFailure()
    throw new RpcError(-32002, `Transaction simulation failed: ${Errors.describe(simulation.err)}`, {
      accounts: null,
      err: simulation.err,
      innerInstructions: null,
      logs: simulation.logs,
      replacementBlockhash: null,
      returnData: simulation.returnData,
      unitsConsumed: simulation.unitsConsumed,
    })
  }

  /** The checks the node makes before executing: a blockhash it still knows, a signature it has not seen. */
  private ageError(wire: Message.Wire): Errors.TransactionErrorJson | undefined {
    if (this.ledger.get(wire.signatures[0] ?? '')) return 'AlreadyProcessed'
    const { message } = wire
    if (Message.usesDurableNonce(message)) return undefined
    return this.clock.isValid(Message.blockhashOf(message)) ? undefined : 'BlockhashNotFound'
  }

  private execute(wire: Message.Wire): void {
    const { message } = wire
    const keys = Message.keysOf(message, this.readTable) ?? {
      all: message.staticAccounts,
      loaded: { writable: [], readonly: [] },
    }
    const preBalances = keys.all.map((key) => this.lamports(key))
    const preTokenBalances = Tokens.balances(this.read, keys.all)
    const outcome = this.svm.sendTransaction(wire.transaction)
    const postBalances = keys.all.map((key) => this.lamports(key))
    const failed = outcome instanceof FailedTransactionMetadata
    // A transaction that could not even pay its fee never makes it into a block.
    if (failed && (postBalances[0] ?? 0n) >= (preBalances[0] ?? 0n)) return
    const run = describeRun(failed ? outcome.meta() : outcome)
    const block = this.clock.tip()
    const landed: Landed = {
      signature: wire.signatures[0] ?? '',
      slot: block.slot,
      blockTime: block.blockTime,
      wire,
      keys,
      writable: keys.all.filter((_, index) => Message.isWritable(message, keys, index)),
      err: failed ? Errors.toJson(outcome.err()) : null,
      fee: Message.fee(message),
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances: Tokens.balances(this.read, keys.all),
      logMessages: run.logs,
      innerInstructions: run.innerInstructions,
      computeUnitsConsumed: run.unitsConsumed,
      memo: Message.memoOf(message),
    }
    this.ledger.add(landed)
    for (const listener of this.landedListeners) listener(landed)
  }

  private readonly readTable = (address: Address): ReadonlyUint8Array | undefined => {
    const account = this.read(address)
    return account?.programAddress === Message.lookupTableOwner ? account.data : undefined
  }
}

export function signatureFailure(): RpcError {
  return new RpcError(-32003, 'Transaction signature verification failure')
}

function failedSimulation(err: Errors.TransactionErrorJson): Simulation {
  return { err, logs: [], unitsConsumed: 0n, returnData: null, innerInstructions: [], postAccounts: [] }
}

function describeRun(meta: TransactionMetadata): Omit<Simulation, 'err' | 'postAccounts'> {
  const base58 = getBase58Decoder()
  const innerInstructions = meta.innerInstructions().flatMap((group, index) => {
    if (group.length === 0) return []
    const instructions = group.map((inner): InnerInstruction => {
      const compiled = inner.instruction()
      return {
        programIdIndex: compiled.programIdIndex(),
        accounts: [...compiled.accounts()],
        data: base58.decode(compiled.data()),
        stackHeight: inner.stackHeight(),
      }
    })
    return [{ index, instructions }]
  })
  const returned = meta.returnData()
  const data = returned.data()
  return {
    logs: meta.logs(),
    unitsConsumed: meta.computeUnitsConsumed(),
    innerInstructions,
    returnData:
      data.length === 0
        ? null
        : {
            programId: base58.decode(returned.programId()) as Address,
            data: [getBase64Decoder().decode(data), 'base64'] as [string, 'base64'],
          },
  }
}
