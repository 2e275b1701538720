/**
 * What an operation calls, read from its call data as the account will run it, for a sponsorship's list of
 * the calls it pays for. The accounts here (AirlockAccount, Airlock7702Account: eth-infinitism's SimpleAccount
 * and Simple7702Account, EntryPoint v0.8's BaseAccount) take `execute(target, value, data)` and
 * `executeBatch((target, value, data)[])`; any other call data cannot be read, so a list refuses it. The
 * account's deployment runs code too: its factory (or, for EIP-7702, the contract its EOA delegates to)
 * must be listed like a call.
 */
import { type Address, decodeFunctionData, type Hex, parseAbi, size, slice } from 'viem'
import type { Policy } from './Sponsorship.ts'
import * as UserOperation from './UserOperation.ts'

const accountAbi = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
])

export type Call = { to: Address; value: bigint; data: Hex }

/**
 * The calls `callData` makes, or undefined when it is not the account's `execute` or `executeBatch`.
 * @example
 * Calls.of(await account.encodeCalls([{ to, data }])) // [{ to, value: 0n, data }]
 */
export function of(callData: Hex): Call[] | undefined {
  if (callData === '0x') return []
  try {
    const { functionName, args } = decodeFunctionData({ abi: accountAbi, data: callData })
    if (functionName === 'execute') return [{ to: args[0], value: args[1], data: args[2] }]
    return args[0].map(({ target, value, data }) => ({ to: target, value, data }))
  } catch {
    return undefined
  }
}

/** Why `policy`'s list refuses `op`, or undefined when it allows it (or has no list). */
export function refusalOf(policy: Policy, op: UserOperation.UserOperation): Refusal | undefined {
  const { calls: allowed } = policy
  if (!allowed) return undefined
  const deployment = deploymentOf(op)
  if (deployment === 'unreadable') return { kind: 'unreadableDeployment' }
  if (deployment && !allows(allowed, op.sender, deployment.call, deployment.delegation))
    return { kind: 'deployment', to: deployment.call.to }
  const calls = of(op.callData)
  if (!calls) return { kind: 'unreadable' }
  for (const call of calls)
    if (!allows(allowed, op.sender, call))
      return { kind: 'call', to: call.to, selector: selectorOf(call.data) }
  return undefined
}

export type Refusal =
  | { kind: 'unreadable' | 'unreadableDeployment' }
  | { kind: 'deployment'; to: Address }
  | { kind: 'call'; to: Address; selector: Hex | undefined }

/**
 * The account's deployment as a call: its factory with the factory data, or the contract an EIP-7702
 * delegation names (a delegation calls nothing on it); 'unreadable' for a delegation whose authorization
 * was not sent.
 */
function deploymentOf(
  op: UserOperation.UserOperation,
): { call: Call; delegation: boolean } | 'unreadable' | undefined {
  if (!op.factory) return undefined
  if (!UserOperation.delegates(op))
    return { call: { to: op.factory as Address, value: 0n, data: op.factoryData ?? '0x' }, delegation: false }
  if (!op.authorization) return 'unreadable'
  return { call: { to: op.authorization.address, value: 0n, data: '0x' }, delegation: true }
}

/** Whether the list allows `call` from `sender`; a delegation, which calls nothing, needs its contract only. */
function allows(
  allowed: NonNullable<Policy['calls']>,
  sender: Address,
  call: Call,
  delegation = false,
): boolean {
  const to = call.to.toLowerCase() === sender.toLowerCase() ? 'self' : (call.to.toLowerCase() as Address)
  if (!allowed.has(to)) return false
  const selectors = allowed.get(to)
  if (!selectors || delegation) return true
  const selector = selectorOf(call.data)
  return selector !== undefined && selectors.has(selector)
}

function selectorOf(data: Hex): Hex | undefined {
  return size(data) < 4 ? undefined : (slice(data, 0, 4).toLowerCase() as Hex)
}
