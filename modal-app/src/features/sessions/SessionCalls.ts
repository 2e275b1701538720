/**
 * The account's own session calls (`SessionKeys.sol`): `grantSession` and `revokeSession`, which the owner's
 * user operation carries, and `sessionOf`, the chain's word on what a key may still do.
 */
import { type SmartSessionRecord, sessionStatus } from '@airlock/api/contract'
import { type Address, decodeFunctionResult, encodeFunctionData, type Hex } from 'viem'
import type { Session } from './Permissions.ts'

const sessionKeysAbi = [
  {
    type: 'function',
    name: 'grantSession',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'key', type: 'address' },
      { name: 'target', type: 'address' },
      { name: 'selector', type: 'bytes4' },
      { name: 'limit', type: 'uint128' },
      { name: 'validUntil', type: 'uint48' },
      { name: 'gasAllowance', type: 'uint128' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'revokeSession',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'key', type: 'address' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'sessionOf',
    stateMutability: 'view',
    inputs: [{ name: 'key', type: 'address' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'target', type: 'address' },
          { name: 'selector', type: 'bytes4' },
          { name: 'validUntil', type: 'uint48' },
          { name: 'limit', type: 'uint128' },
          { name: 'spent', type: 'uint128' },
          { name: 'gasAllowance', type: 'uint128' },
          { name: 'gasSpent', type: 'uint128' },
        ],
      },
    ],
  },
] as const

/** The account's own call that grants the session (the owner signs the user operation carrying it). */
export function grantCall(session: Session): { to: Address; data: Hex } {
  return {
    to: session.account,
    data: encodeFunctionData({
      abi: sessionKeysAbi,
      functionName: 'grantSession',
      args: [
        session.key,
        session.target,
        session.selector,
        session.limit,
        session.validUntil,
        session.gasAllowance,
      ],
    }),
  }
}

/** The account's own call that revokes the session of `key`. */
export function revokeCall(account: Address, key: Address): { to: Address; data: Hex } {
  return {
    to: account,
    data: encodeFunctionData({ abi: sessionKeysAbi, functionName: 'revokeSession', args: [key] }),
  }
}

/** The `eth_call` that reads the session of `key` on `account`. */
export function sessionOfCall(account: Address, key: Address): { to: Address; data: Hex } {
  return {
    to: account,
    data: encodeFunctionData({ abi: sessionKeysAbi, functionName: 'sessionOf', args: [key] }),
  }
}

type OnChain = Pick<
  SmartSessionRecord,
  'limit' | 'spent' | 'gasAllowance' | 'gasSpent' | 'validUntil' | 'status'
>

/**
 * What `sessionOf` answered, as a record's fields: its limits and what was spent, its expiry, and its status
 * at `nowS` (Unix seconds), the chain's own (a revoked session reads as all zeros).
 */
export function sessionOfResult(data: Hex, nowS: number): OnChain {
  const session = decodeFunctionResult({ abi: sessionKeysAbi, functionName: 'sessionOf', data })
  return {
    limit: session.limit.toString(),
    spent: session.spent.toString(),
    gasAllowance: session.gasAllowance.toString(),
    gasSpent: session.gasSpent.toString(),
    validUntil: session.validUntil,
    status: sessionStatus(session.validUntil, nowS),
  }
}
