/**
 * Gas for the swap routes: the chain's gas price at three speeds, and the gas a transaction will use, where
 * a transaction that would fail is the visitor's 400 (with the revert's reason), not the node's 502.
 */
import { type Address, BaseError, ExecutionRevertedError, InsufficientFundsError } from 'viem'
import type { Chain } from '../../Config.ts'
import type * as Contract from '../../contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import { RpcError } from '../../internal/rpc.ts'
import { clientOf } from '../balances/Evm.ts'
import type { Call } from './Adapter.ts'
import { swapMessages } from './messages.ts'

/**
 * The node's gas price (`eth_gasPrice`).
 * @throws {RpcError} when the chain cannot be read
 */
export async function gasPrice(chain: Chain): Promise<bigint> {
  try {
    return await clientOf(chain).getGasPrice()
  } catch (error) {
    throw new RpcError(chain.id, { cause: error })
  }
}

/**
 * Wei per gas at three speeds: the node's suggestion, and bids 20 % and 50 % above it for a wallet that
 * wants its transaction in sooner (the answer carries a legacy gas price, which a wallet may turn into
 * EIP-1559 fees).
 */
export async function gasPrices(chain: Chain): Promise<Contract.GasPriceAnswer> {
  const standard = await gasPrice(chain)
  return {
    standard: String(standard),
    fast: String((standard * 6n) / 5n),
    instant: String((standard * 3n) / 2n),
  }
}

/**
 * The gas limit for `call` from `from`: `eth_estimateGas` at the latest block, and a fifth more, as Uniswap's
 * own interface gives its swaps. The estimate is the latest block's state at its time; the transaction meets a
 * later block, where a Uniswap v3 pool swapped in the last block writes its price oracle's observation anew
 * (a storage write the estimate did not pay for), so a swap sent with the bare estimate ran out of gas when
 * mined a second later. Gas not used is not paid for.
 * @throws {HttpError} 400 naming the reason when the call would revert or the account cannot pay for it
 * @throws {RpcError} when the chain cannot be read
 */
export async function estimate(
  chain: Chain,
  from: Address,
  call: Call,
  what: 'swap' | 'approval',
): Promise<bigint> {
  try {
    return ((await clientOf(chain).estimateGas({ account: from, ...call })) * 6n) / 5n
  } catch (error) {
    const reason = failureOf(chain, error)
    if (reason !== undefined) throw new HttpError(400, swapMessages.wouldFail(what, reason))
    throw new RpcError(chain.id, { cause: error })
  }
}

/** Why the node says a call fails, or `undefined` when it said nothing of the call (it was not reached). */
function failureOf(chain: Chain, error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined
  if (error.walk((cause) => cause instanceof InsufficientFundsError))
    return swapMessages.cannotPay(chain.nativeCurrency.symbol)
  const reverted = error.walk((cause) => cause instanceof ExecutionRevertedError)
  if (!(reverted instanceof ExecutionRevertedError)) return undefined
  // viem words it `Execution reverted with reason: UniswapV2Router: EXPIRED.`
  const [, reason] = reverted.shortMessage.match(/with reason: (.+?)\.?$/) ?? []
  return reason ?? swapMessages.unknownRevert
}
