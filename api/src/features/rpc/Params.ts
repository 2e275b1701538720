/**
 * What the relay refuses in the params of a method it relays, answered -32602 without asking the node:
 * whatever bends the node's state for one call (the state and block overrides of `eth_call`,
 * `eth_estimateGas` and `eth_simulateV1`) or makes one call cost the node many (a simulation of many blocks
 * or calls, a read of many accounts). The modal's Send asks for one block of one call and three accounts.
 */
import type * as Envelope from './Envelope.ts'
import { messages } from './messages.ts'

/** The most one call may ask for. */
export const bounds = {
  /** `eth_simulateV1`'s `blockStateCalls`. */
  simulatedBlocks: 1,
  /** `eth_simulateV1`'s calls in a block. */
  simulatedCalls: 8,
  /** `getMultipleAccounts`' keys, as a Solana validator allows by default. */
  accounts: 100,
} as const

/**
 * The keys `eth_simulateV1` may have, as written. Anything else is refused, in any case: geth reads JSON keys
 * case-insensitively, so `StateOverrides` is an override to it.
 */
const simulationKeys = new Set(['blockStateCalls', 'traceTransfers', 'validation', 'returnFullTransactions'])
const blockKeys = new Set(['calls'])

type Check = (params: unknown[]) => string | undefined

const checks: Readonly<Record<string, Check>> = {
  // Both take state overrides third; geth's eth_call takes block overrides fourth.
  eth_call: (params) => (params.slice(2).some(isSet) ? messages.noOverrides('eth_call') : undefined),
  eth_estimateGas: (params) =>
    params.slice(2).some(isSet) ? messages.noOverrides('eth_estimateGas') : undefined,
  eth_simulateV1: ([simulation]) => checkSimulation(simulation),
  getMultipleAccounts: ([keys]) =>
    Array.isArray(keys) && keys.length > bounds.accounts
      ? messages.atMost('getMultipleAccounts', bounds.accounts, 'keys')
      : undefined,
}

/**
 * Why the call's params are refused, or undefined when they may go to the node (which still answers what it
 * thinks of them).
 * @example
 * Params.check({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [tx, 'latest', { [to]: { code } }] })
 * // 'eth_call takes no state or block overrides'
 */
export function check(call: Envelope.Call): string | undefined {
  const checked = Object.hasOwn(checks, call.method) ? checks[call.method] : undefined
  if (!checked || call.params === undefined) return undefined
  // By name, the checks would have to guess which name a node reads as the overrides.
  if (!Array.isArray(call.params)) return messages.byPosition(call.method)
  return checked(call.params)
}

function checkSimulation(simulation: unknown): string | undefined {
  const method = 'eth_simulateV1'
  // Not an object, or no list of blocks: nothing the node could simulate, so its own error is the answer.
  if (!isObject(simulation)) return undefined
  const refused = unknownKey(method, simulation, simulationKeys)
  if (refused) return refused
  const blocks = simulation.blockStateCalls
  if (!Array.isArray(blocks)) return undefined
  if (blocks.length > bounds.simulatedBlocks) return messages.atMost(method, bounds.simulatedBlocks, 'block')
  for (const block of blocks) {
    if (!isObject(block)) continue
    const refusedKey = unknownKey(method, block, blockKeys)
    if (refusedKey) return refusedKey
    if (Array.isArray(block.calls) && block.calls.length > bounds.simulatedCalls)
      return messages.atMost(method, bounds.simulatedCalls, 'calls')
  }
  return undefined
}

function unknownKey(
  method: string,
  value: Record<string, unknown>,
  allowed: Set<string>,
): string | undefined {
  const key = Object.keys(value).find((name) => !allowed.has(name))
  if (key === undefined) return undefined
  return /overrides$/i.test(key) ? messages.noOverrides(method) : messages.noKey(method, key)
}

/** JSON-RPC's `null` for an optional param is its absence. */
const isSet = (value: unknown) => value !== null && value !== undefined

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
