import { type Address, encodeFunctionData, erc20Abi, type Hex, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import * as Calls from './Calls.ts'
import * as Sponsorship from './Sponsorship.ts'
import type * as UserOperation from './UserOperation.ts'

const account = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
  'function grantSession(address key, address target, bytes4 selector, uint128 limit, uint48 validUntil)',
  'function createAccount(address owner, uint256 salt)',
])
const sender: Address = '0x0B00C7Dc9D7c38AF5BD0ecda5fcfeB9Bb1DED634'
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const factory: Address = '0x0081788D048C299127Bb76E3e63e782f4CD4f447'
const delegate: Address = '0x07cF98f07755a367A6979B0140e49ab4098f952a'
const bob: Address = '0x00000000000000000000000000000000000B0b00'

const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1n] })
const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bob, 1n] })
const grant = encodeFunctionData({
  abi: account,
  functionName: 'grantSession',
  args: [bob, token, '0xa9059cbb', 10n, 1],
})
const execute = (to: Address, data: Hex, value = 0n) =>
  encodeFunctionData({ abi: account, functionName: 'execute', args: [to, value, data] })
const batch = (...calls: { target: Address; value: bigint; data: Hex }[]) =>
  encodeFunctionData({ abi: account, functionName: 'executeBatch', args: [calls] })

const op = (
  callData: Hex,
  fields: Partial<UserOperation.UserOperation> = {},
): UserOperation.UserOperation => ({
  sender,
  nonce: 0n,
  factory: undefined,
  factoryData: undefined,
  callData,
  callGasLimit: 0n,
  verificationGasLimit: 0n,
  preVerificationGas: 0n,
  maxFeePerGas: 0n,
  maxPriorityFeePerGas: 0n,
  signature: '0x',
  authorization: undefined,
  ...fields,
})
const budget = { perDay: '1', total: '1', perSenderPerDay: '1' }
const policyWith = (calls?: Sponsorship.Sponsorship[number]['calls']) => {
  const policy = Sponsorship.policyOf([{ projectId: 'p', budget, ...(calls ? { calls } : {}) }], 'p')
  if (!policy) throw new Error('no policy')
  return policy
}
const listed = policyWith([
  { to: token, selectors: ['0xa9059cbb'] },
  { to: 'self', selectors: ['0x06fca92c'] },
  { to: factory, selectors: ['0x5fbfb9cf'] },
  { to: delegate },
])

describe('Calls.of', () => {
  it('reads the account’s execute and executeBatch, and nothing else', () => {
    expect(Calls.of(execute(token, transfer))).toEqual([{ to: token, value: 0n, data: transfer }])
    expect(
      Calls.of(batch({ target: token, value: 0n, data: approve }, { target: bob, value: 5n, data: '0x' })),
    ).toEqual([
      { to: token, value: 0n, data: approve },
      { to: bob, value: 5n, data: '0x' },
    ])
    expect(Calls.of('0x')).toEqual([])
    expect(Calls.of('0xdeadbeef')).toBeUndefined()
    expect(Calls.of(grant)).toBeUndefined()
    // execute's selector with call data that does not decode.
    expect(Calls.of('0xb61d27f600')).toBeUndefined()
  })
})

describe('Calls.refusalOf', () => {
  it('allows any call when the policy lists none', () => {
    expect(Calls.refusalOf(policyWith(), op('0xdeadbeef'))).toBeUndefined()
  })

  it('allows listed contracts and functions, the account itself as `self`, and names the first call it does not', () => {
    expect(Calls.refusalOf(listed, op(execute(token, transfer)))).toBeUndefined()
    expect(Calls.refusalOf(listed, op(execute(sender, grant)))).toBeUndefined()
    expect(Calls.refusalOf(listed, op(execute(token, approve)))).toEqual({
      kind: 'call',
      to: token,
      selector: '0x095ea7b3',
    })
    expect(
      Calls.refusalOf(
        listed,
        op(batch({ target: token, value: 0n, data: transfer }, { target: bob, value: 1n, data: '0x' })),
      ),
    ).toEqual({ kind: 'call', to: bob, selector: undefined })
    // A listed function is a selector: plain ETH to a listed contract with selectors is not one of them.
    expect(Calls.refusalOf(listed, op(execute(token, '0x', 1n)))?.kind).toBe('call')
    expect(Calls.refusalOf(listed, op('0xdeadbeef'))).toEqual({ kind: 'unreadable' })
    expect(Calls.refusalOf(listed, op(grant))).toEqual({ kind: 'unreadable' })
  })

  it('takes the account’s deployment as a call to its factory, and an EIP-7702 delegation as naming its contract', () => {
    const createAccount = encodeFunctionData({ abi: account, functionName: 'createAccount', args: [bob, 0n] })
    const deploy = (to: Address, data: Hex) =>
      op(execute(token, transfer), { factory: to, factoryData: data })
    expect(Calls.refusalOf(listed, deploy(factory, createAccount))).toBeUndefined()
    expect(Calls.refusalOf(listed, deploy(bob, createAccount))).toEqual({ kind: 'deployment', to: bob })
    expect(Calls.refusalOf(listed, deploy(factory, '0xdeadbeef'))).toEqual({
      kind: 'deployment',
      to: factory,
    })
    const authorization = {
      address: delegate,
      chainId: 1,
      nonce: 0,
      r: '0x01',
      s: '0x02',
      yParity: 0,
    } as const
    const delegating = (fields: Partial<UserOperation.UserOperation>) =>
      op(execute(token, transfer), { factory: '0x7702', ...fields })
    expect(Calls.refusalOf(listed, delegating({ authorization }))).toBeUndefined()
    expect(
      Calls.refusalOf(listed, delegating({ authorization: { ...authorization, address: bob } })),
    ).toEqual({
      kind: 'deployment',
      to: bob,
    })
    expect(Calls.refusalOf(listed, delegating({}))).toEqual({ kind: 'unreadableDeployment' })
  })
})
