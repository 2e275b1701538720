import {
  failureOf,
  type NodeErrorKind,
  nodeError,
  revertReason,
} from '@airlock/modal-app/send/families/evm-errors'
import { RpcError, SendFailure } from '@airlock/modal-app/send/family'
import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'

const errors = parseAbi([
  'error Error(string reason)',
  'error Panic(uint256 code)',
  'error InsufficientBalance(address from, uint256 balance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error Unlisted(uint256 what)',
])
const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const reverting = (reason: string) => encodeErrorResult({ abi: errors, errorName: 'Error', args: [reason] })

describe('nodeError', () => {
  // docs/behaviour.md §8's list, each in the words real nodes use (geth, anvil, reth, nethermind).
  const said: [string, NodeErrorKind][] = [
    ['execution reverted: nope', 'execution-reverted'],
    ['gas required exceeds allowance (30000000)', 'execution-reverted'],
    ['max fee per gas higher than 2^256-1', 'fee-cap-too-high'],
    ['fee cap higher than 2^256-1', 'fee-cap-too-high'],
    ['max fee per gas less than block base fee', 'fee-cap-too-low'],
    ['fee cap less than block base fee: address 0x70…, maxFeePerGas: 1, baseFee: 7', 'fee-cap-too-low'],
    ['nonce too high: address 0x70…, tx: 9 state: 4', 'nonce-too-high'],
    ['nonce too low', 'nonce-too-low'],
    ['already known', 'nonce-too-low'],
    ['nonce has max value: address 0x70…, nonce: 18446744073709551615', 'nonce-max'],
    ['insufficient funds for gas * price + value: address 0x70… have 0 want 1', 'insufficient-funds'],
    ['Insufficient funds for gas * price + value', 'insufficient-funds'],
    ['intrinsic gas too high -- tx.gas_limit > env.block.gas_limit', 'intrinsic-gas-too-high'],
    ['intrinsic gas too low', 'intrinsic-gas-too-low'],
    ['transaction type not supported', 'unsupported-transaction-type'],
    ['max priority fee per gas higher than max fee per gas', 'tip-above-fee-cap'],
    ['tip higher than fee cap', 'tip-above-fee-cap'],
    ['replacement transaction underpriced', 'unknown'],
  ]

  it.each(said)('reads %j as %s', (message, kind) => {
    expect(nodeError(message).kind).toBe(kind)
  })

  it('tells what the error means and quotes the node', () => {
    expect(nodeError('nonce too low').text).toBe(
      'A transaction with this nonce was already sent from this account: this send may have gone through. Check your activity before sending again (nonce too low)',
    )
    expect(nodeError('max fee per gas less than block base fee').text).toMatch(
      /^The fee cap is below the network’s current base fee\. .* \(max fee per gas less than block base fee\)$/,
    )
    expect(nodeError('replacement transaction underpriced').text).toBe(
      'The network refused the transaction (replacement transaction underpriced)',
    )
  })

  it('says insufficient funds in Send’s own words', () => {
    expect(nodeError('insufficient funds for gas * price + value').text).toBe(
      'Insufficient funds for this amount and the network fee',
    )
  })

  it('keeps a long node message short', () => {
    const { text } = nodeError(`execution reverted: custom error 0xdb42144d: ${'00'.repeat(300)}`)
    expect(text.length).toBeLessThan(300)
    expect(text.endsWith('…)')).toBe(true)
  })
})

describe('revertReason', () => {
  it('reads Error(string), Panic, known custom errors, and names unknown ones by selector', () => {
    expect(revertReason(reverting('nope'))).toEqual({ reason: 'nope', lacksFunds: false })
    expect(revertReason(encodeErrorResult({ abi: errors, errorName: 'Panic', args: [0x11n] })).reason).toBe(
      'panic 0x11',
    )
    const unlisted = encodeErrorResult({ abi: errors, errorName: 'Unlisted', args: [1n] })
    expect(revertReason(unlisted).reason).toBe(`custom error ${unlisted.slice(0, 10)}`)
    expect(revertReason('0x').reason).toBe('no reason given')
  })

  it('knows when a token says the balance is too low', () => {
    for (const errorName of ['InsufficientBalance', 'ERC20InsufficientBalance'] as const) {
      const data = encodeErrorResult({ abi: errors, errorName, args: [holder, 1n, 2n] })
      expect(revertReason(data)).toEqual({ reason: `${errorName}(${holder}, 1, 2)`, lacksFunds: true })
    }
    expect(revertReason(reverting('ERC20: transfer amount exceeds balance')).lacksFunds).toBe(true)
  })
})

describe('failureOf', () => {
  it('takes a wallet’s 4001 as declined, also when another error wraps it', () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    for (const error of [rejected, new Error('Request failed', { cause: rejected })])
      expect(failureOf(error)).toMatchObject({ kind: 'declined', message: 'Signature declined' })
  })

  it('reads a revert by its data, and funds when the token lacks them', () => {
    expect(failureOf(new RpcError(3, 'execution reverted', reverting('nope')))).toMatchObject({
      kind: 'chain',
      message: 'The transaction would fail on chain: nope',
    })
    const data = encodeErrorResult({ abi: errors, errorName: 'InsufficientBalance', args: [holder, 1n, 2n] })
    expect(failureOf(new RpcError(3, 'execution reverted: custom error 0xdb42144d', data)).kind).toBe('funds')
    // A wallet passes the node's error on with the data nested.
    const wrapped = Object.assign(new Error('execution reverted'), {
      code: -32603,
      data: { data: reverting('x') },
    })
    expect(failureOf(wrapped).message).toBe('The transaction would fail on chain: x')
  })

  it('maps node refusals to funds or chain, and keeps SendFailures as they are', () => {
    expect(failureOf(new RpcError(-32003, 'Insufficient funds for gas * price + value')).kind).toBe('funds')
    expect(failureOf(new RpcError(-32003, 'nonce too low'))).toMatchObject({ kind: 'chain' })
    expect(failureOf(new RpcError(-32003, 'nonce too low')).message).toMatch(/\(nonce too low\)$/)
    const failure = new SendFailure('unavailable', 'down')
    expect(failureOf(failure)).toBe(failure)
    expect(failureOf('boom')).toMatchObject({ kind: 'chain', message: 'The network refused the transaction' })
  })
})
