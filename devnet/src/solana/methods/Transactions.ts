/**
 * Sending and reading transactions: sendTransaction and simulateTransaction with the node's preflight
 * errors, the signature statuses wallets poll, and the history an indexer follows (getSignaturesForAddress,
 * getTransaction).
 */
import { type Address, type EncodedAccount, getBase58Decoder, getBase64Encoder } from '@solana/kit'
import { signatureFailure } from '../Bank.ts'
import * as Encoding from '../Encoding.ts'
import type { Landed } from '../Ledger.ts'
import * as Message from '../Message.ts'
import * as Params from '../Params.ts'
import * as Parsed from '../Parsed.ts'
import { invalidParams, RpcError } from '../Rpc.ts'
import * as Tokens from '../Tokens.ts'
import { type Chain, confirmedCommitment, type Handlers, slotFor, withContext } from './Context.ts'

const maxStatuses = 256
const maxHistory = 1000

export const transactionMethods: Handlers = {
  sendTransaction(chain, params) {
    const config = Params.config(params, 1)
    const wire = wireOf(params, config)
    Params.commitment(config, 'preflightCommitment')
    slotFor(chain, config)
    return chain.bank.submit(wire, {
      skipPreflight: Params.optionalBoolean(config, 'skipPreflight') ?? false,
    })
  },

  simulateTransaction(chain, params) {
    const config = Params.config(params, 1)
    const wire = wireOf(params, config)
    const sigVerify = Params.optionalBoolean(config, 'sigVerify') ?? false
    const replace = Params.optionalBoolean(config, 'replaceRecentBlockhash') ?? false
    if (sigVerify && replace) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
    const slot = slotFor(chain, config)
    const { bank } = chain
    const simulation = bank.simulate(wire, { sigVerify, checkBlockhash: !replace })
    if (sigVerify && simulation.err === 'SignatureFailure') throw signatureFailure()
    const tip = bank.clock.tip()
    return withContext(slot, {
      err: simulation.err,
      logs: simulation.logs,
      accounts:
        simulation.err === null
          ? simulatedAccounts(chain, Params.optionalRecord(config, 'accounts'), simulation.postAccounts)
          : null,
      unitsConsumed: simulation.unitsConsumed,
      returnData: simulation.returnData,
      innerInstructions: config.innerInstructions === true ? simulation.innerInstructions : null,
      replacementBlockhash: replace
        ? { blockhash: tip.blockhash, lastValidBlockHeight: bank.clock.lastValidBlockHeight(tip) }
        : null,
    })
  },

  getSignatureStatuses(chain, params) {
    const signatures = Params.array(params, 0, 'signatures', maxStatuses).map((s) => Params.signature(s))
    const { clock, ledger } = chain.bank
    const value = signatures.map((signature) => {
      const landed = ledger.get(signature)
      if (!landed) return null
      const confirmationStatus = clock.commitmentOf(landed.slot)
      return {
        slot: landed.slot,
        confirmations: confirmationStatus === 'finalized' ? null : clock.slot - landed.slot,
        err: landed.err,
        status: landed.err === null ? { Ok: null } : { Err: landed.err },
        confirmationStatus,
      }
    })
    return withContext(clock.slot, value)
  },

  getSignaturesForAddress(chain, params) {
    const address = Params.address(params, 0)
    const config = Params.config(params, 1)
    const commitment = confirmedCommitment(config)
    slotFor(chain, config)
    const limit = Number(Params.optionalU64(config, 'limit') ?? BigInt(maxHistory))
    if (limit < 1 || limit > maxHistory) throw invalidParams(`Invalid limit; max ${maxHistory}`)
    const cursor = (key: string) => {
      const value = Params.optionalString(config, key)
      return value === undefined ? undefined : Params.signature(value, key)
    }
    const { clock, ledger } = chain.bank
    const history = ledger.history(address, {
      before: cursor('before'),
      until: cursor('until'),
      limit,
      visible: (landed) => clock.reached(landed.slot, commitment),
    })
    return history.map((landed) => ({
      signature: landed.signature,
      slot: landed.slot,
      err: landed.err,
      memo: landed.memo,
      blockTime: landed.blockTime,
      confirmationStatus: clock.commitmentOf(landed.slot),
    }))
  },

  getTransaction(chain, params) {
    const signature = Params.signature(params[0])
    const config = Params.config(params, 1)
    const commitment = confirmedCommitment(config)
    const encoding = Params.oneOf(config, 'encoding', ['json', 'jsonParsed', 'base64', 'base58'], 'json')
    const maxVersion = Params.optionalU64(config, 'maxSupportedTransactionVersion')
    const landed = chain.bank.ledger.get(signature)
    if (!landed || !chain.bank.clock.reached(landed.slot, commitment)) return null
    const { version } = landed.wire.message
    if (version === 0 && maxVersion === undefined) {
      throw new RpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      )
    }
    const decimalsOf = (mint: Address) => {
      const account = chain.bank.read(mint)
      return account && Tokens.asMint(account)?.decimals
    }
    const parsed = encoding === 'jsonParsed'
    return {
      blockTime: landed.blockTime,
      meta: {
        ...metaOf(landed),
        ...(parsed ? { innerInstructions: Parsed.innerInstructions(landed, decimalsOf) } : {}),
      },
      slot: landed.slot,
      transaction: parsed ? Parsed.transaction(landed, decimalsOf) : encodedTransaction(landed, encoding),
      ...(maxVersion === undefined ? {} : { version }),
    }
  },

  getFeeForMessage(chain, params) {
    const text = Params.string(params, 0, 'message')
    const slot = slotFor(chain, Params.config(params, 1))
    let message: Message.Message
    try {
      message = Message.decodeMessage(new Uint8Array(getBase64Encoder().encode(text)))
    } catch (error) {
      throw invalidParams(`Invalid params: message is not a base64 transaction message: ${String(error)}`)
    }
    const known = chain.bank.clock.isValid(Message.blockhashOf(message))
    return withContext(slot, known ? Message.fee(message) : null)
  },

  async requestAirdrop(chain, params) {
    const address = Params.address(params, 0)
    const lamports = Params.u64(params[1], 'lamports')
    if (lamports === 0n) throw invalidParams('Invalid params: lamports must be more than 0')
    return chain.airdrop(address, lamports)
  },
}

function wireOf(params: readonly unknown[], config: Params.Config): Message.Wire {
  const text = Params.string(params, 0, 'transaction')
  return Message.decode(text, Params.oneOf(config, 'encoding', ['base58', 'base64'], 'base58'))
}

function simulatedAccounts(
  chain: Chain,
  request: Params.Config | undefined,
  after: readonly EncodedAccount[],
): unknown {
  if (!request) return null
  const addresses = Params.array([request.addresses], 0, 'accounts.addresses', 100).map((_, i, all) =>
    Params.address(all, i, 'accounts.addresses'),
  )
  const view = Encoding.viewOf(request, 'base64')
  if (view.encoding === 'binary' || view.encoding === 'base58') {
    throw invalidParams('Invalid params: base58 encoding not supported')
  }
  const { read } = chain.bank
  return addresses.map((address) => {
    const simulated = after.find((account) => account.address === address)
    return Encoding.render(read, simulated ?? read(address), view)
  })
}

function metaOf(landed: Landed): Record<string, unknown> {
  return {
    computeUnitsConsumed: landed.computeUnitsConsumed,
    err: landed.err,
    fee: landed.fee,
    innerInstructions: landed.innerInstructions,
    loadedAddresses: landed.keys.loaded,
    logMessages: landed.logMessages,
    postBalances: landed.postBalances,
    postTokenBalances: landed.postTokenBalances,
    preBalances: landed.preBalances,
    preTokenBalances: landed.preTokenBalances,
    rewards: [],
    status: landed.err === null ? { Ok: null } : { Err: landed.err },
  }
}

function encodedTransaction(landed: Landed, encoding: 'json' | 'base64' | 'base58'): unknown {
  if (encoding === 'json') return Message.toJson(landed.wire)
  const bytes = landed.wire.bytes
  return encoding === 'base64'
    ? [Buffer.from(bytes).toString('base64'), 'base64']
    : [getBase58Decoder().decode(bytes), 'base58']
}
