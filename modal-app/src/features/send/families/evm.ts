/**
 * Send on EVM networks (`eip155`): the network's currency or an ERC-20 `transfer`. The preview pins the
 * nonce, the EIP-1559 fees and the gas, and shows what the node's simulation says the transaction does; the
 * wallet signs exactly that with `eth_sendTransaction`. Every node call goes through `chain.rpc`, so the same
 * code runs against the network's RPC URL or the API's relay.
 */
import { Caip } from '@airlock/bridge-protocol'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  isHex,
} from 'viem'
import type { Network } from '../../../shared/Network.ts'
import type { Chain, Draft, Family, Preview, WalletRequest } from '../Family.ts'
import { SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import { failureOf } from './evm-errors.ts'
import * as Node from './evm-node.ts'
import { type Pinned, simulate } from './evm-simulation.ts'
import { evmTexts } from './evmTexts.ts'

// Texts Send's table does not have (yet): the flow shows them as they are.
const texts = evmTexts

/** How often settle asks for the receipt, and how long it waits. */
const pollMs = 500
const settleTimeoutMs = 120_000

/**
 * Whether `address` can receive on an EVM network: `0x` and 40 hex digits; one in mixed case must carry
 * a valid EIP-55 checksum (a typo then shows), all lower or all upper case has none to check.
 * @example checkAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', network) // undefined
 */
export function checkAddress(address: string, network: Network): string | undefined {
  const invalid = sendTexts.invalidAddress(network.name)
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return invalid
  const digits = address.slice(2)
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined
  return getAddress(address) === address ? undefined : invalid
}

/** What the wallet signs: the pinned transaction, every quantity in hex, on the preview's network. */
type Payload = {
  network: string
  transaction: {
    from: Address
    to: Address
    value: Hex
    data: Hex
    gas: Hex
    nonce: Hex
    maxFeePerGas: Hex
    maxPriorityFeePerGas: Hex
    /** Wallets that read it (MetaMask) refuse to sign on another chain than the one previewed. */
    chainId: Hex
  }
}

/**
 * The token balance; for the native currency the balance less a plain transfer's gas at the fee cap preview
 * will offer, so that a max send previews without running short.
 */
async function max(chain: Chain, draft: Omit<Draft, 'amount' | 'to'>): Promise<bigint> {
  const from = draft.from as Address
  try {
    if (draft.asset.address) return await Node.tokenBalance(chain, draft.asset.address as Address, from)
    const [balance, fees] = await Promise.all([Node.balance(chain, from), Node.fees(chain)])
    const left = balance - Node.transferGas * fees.maxFeePerGas
    return left > 0n ? left : 0n
  } catch (error) {
    throw failureOf(error)
  }
}

async function preview(chain: Chain, draft: Draft): Promise<Preview> {
  const { network } = chain
  const invalid = checkAddress(draft.to, network)
  if (invalid) throw new SendFailure('invalid', invalid)
  const token = draft.asset.address as Address | undefined
  if (token && isAddressEqual(token, draft.to as Address))
    throw new SendFailure('invalid', sendTexts.tokenContract(draft.asset.symbol))
  try {
    const tx = await pin(chain, draft, token)
    const outcome = await simulate(chain, tx, draft)
    const { decimals, symbol } = network.nativeCurrency
    const details = [
      { label: texts.nonce, value: tx.nonce.toString() },
      { label: texts.maxFee, value: `${formatUnits(tx.gas * tx.maxFeePerGas, decimals)} ${symbol}` },
    ]
    if (!outcome.simulated) details.push({ label: texts.simulation, value: texts.notSimulated })
    const payload: Payload = { network: network.id, transaction: walletTransaction(network, tx) }
    return { draft, fee: outcome.fee, changes: outcome.changes, details, payload }
  } catch (error) {
    throw failureOf(error)
  }
}

/** The transaction with its nonce, fees and gas fixed, so the one signed is the one simulated. */
async function pin(chain: Chain, draft: Draft, token: Address | undefined): Promise<Pinned> {
  const from = draft.from as Address
  const call: Node.Call = token
    ? {
        from,
        to: token,
        value: 0n,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [draft.to as Address, draft.amount],
        }),
      }
    : { from, to: draft.to as Address, value: draft.amount, data: '0x' }
  const [nonce, fees, gas] = await Promise.all([
    Node.nextNonce(chain, from, 'pending'),
    Node.fees(chain),
    Node.estimateGas(chain, call),
  ])
  const maxFeePerGas = token ? fees.maxFeePerGas : await fitFeeCap(chain, call, gas, fees)
  return { ...call, gas, nonce, maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
}

/**
 * A max send was sized with the fee cap of its moment; fees may have risen since. Rather than refuse it, the
 * cap comes down to what the balance leaves, as long as that still pays the tip and the highest base fee the
 * next block can have (EIP-1559 raises it by at most an eighth a block).
 */
async function fitFeeCap(chain: Chain, call: Node.Call, gas: bigint, fees: Node.Fees): Promise<bigint> {
  const balance = await Node.balance(chain, call.from)
  if (balance >= call.value + gas * fees.maxFeePerGas) return fees.maxFeePerGas
  const affordable = balance > call.value ? (balance - call.value) / gas : 0n
  const baseFee = fees.baseFee ?? fees.maxFeePerGas
  const floor = baseFee + baseFee / 8n + fees.maxPriorityFeePerGas
  return affordable >= floor ? affordable : fees.maxFeePerGas
}

function walletTransaction(network: Network, tx: Pinned): Payload['transaction'] {
  return {
    from: tx.from,
    to: tx.to,
    value: Node.toQuantity(tx.value),
    data: tx.data,
    gas: Node.toQuantity(tx.gas),
    nonce: Node.toQuantity(tx.nonce),
    maxFeePerGas: Node.toQuantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: Node.toQuantity(tx.maxPriorityFeePerGas),
    chainId: Caip.toHexChainId(network.id),
  }
}

/**
 * Submits per payload, so the same preview submitted again (a double click, a retry after an answer that
 * never came) answers the first hash instead of asking the wallet twice. A failed submit is forgotten so it
 * can be retried; the pinned nonce keeps that retry from sending twice.
 */
const submitted = new Map<string, Promise<string>>()

function submit(chain: Chain, preview: Preview, wallet: WalletRequest): Promise<string> {
  const payload = payloadOf(preview.payload)
  if (!payload || payload.network !== chain.network.id)
    return Promise.reject(new SendFailure('invalid', texts.stalePreview))
  const key = JSON.stringify(payload)
  const known = submitted.get(key)
  if (known) return known
  const attempt = send(chain, payload, wallet)
  submitted.set(key, attempt)
  attempt.catch(() => {
    if (submitted.get(key) === attempt) submitted.delete(key)
  })
  return attempt
}

const quantities = ['value', 'gas', 'nonce', 'maxFeePerGas', 'maxPriorityFeePerGas', 'chainId'] as const

/** The preview's payload, as preview made it; the flow holds it opaque, so it is checked on the way back. */
function payloadOf(value: unknown): Payload | undefined {
  const { network, transaction: tx } = (value ?? {}) as Partial<Payload>
  if (typeof network !== 'string' || !tx || typeof tx !== 'object') return undefined
  const fine =
    isAddress(tx.from, { strict: false }) &&
    isAddress(tx.to, { strict: false }) &&
    isHex(tx.data) &&
    quantities.every((field) => isHex(tx[field]) && tx[field].length > 2)
  return fine ? { network, transaction: tx } : undefined
}

async function send(chain: Chain, payload: Payload, wallet: WalletRequest): Promise<string> {
  const { transaction } = payload
  const nonce = BigInt(transaction.nonce)
  // A transaction already holds the nonce, mined or waiting in the node's pool (an earlier attempt whose
  // answer was lost, or another app). Wallets may pick their own nonce rather than ours, so asking again
  // could send twice: say what it means instead of asking the visitor to sign.
  if ((await Node.nextNonce(chain, transaction.from, 'pending')) > nonce)
    throw new SendFailure('chain', texts.nonceUsed(nonce))
  let hash: unknown
  try {
    hash = await wallet({ namespace: 'eip155', method: 'eth_sendTransaction', params: [transaction] })
  } catch (error) {
    throw failureOf(error)
  }
  if (!isHash(hash)) throw new SendFailure('chain', texts.noHash)
  return hash
}

/** docs/behaviour.md §5: a transaction hash is 0x and 64 hex digits. */
function isHash(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)
}

async function settle(chain: Chain, id: string): Promise<'confirmed' | 'failed'> {
  if (!isHash(id)) throw new SendFailure('invalid', texts.noHash)
  const deadline = Date.now() + settleTimeoutMs
  for (;;) {
    try {
      const status = await Node.receiptStatus(chain, id)
      if (status) return status
    } catch (error) {
      // A node that drops out for a moment is asked again; its refusals are not passing.
      if (!(error instanceof SendFailure && error.kind === 'unavailable')) throw failureOf(error)
    }
    if (Date.now() + pollMs > deadline) throw new SendFailure('chain', texts.notSettled(chain.network.name))
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

export const family: Family = { namespace: 'eip155', checkAddress, max, preview, submit, settle }
