import {
  decodeFunctionData,
  encodeAbiParameters,
  parseAbi,
  parseAbiParameters,
  parseEther,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import * as Permissions from './Permissions.ts'
import * as SessionCalls from './SessionCalls.ts'

const account = '0x1111111111111111111111111111111111111111'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const dapp = privateKeyToAccount(generatePrivateKey())
const now = 1_800_000_000
// The account's ABI as SessionKeys.sol declares it, read independently of the module's.
const abi = parseAbi([
  'function grantSession(address key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance)',
  'function revokeSession(address key)',
  'function sessionOf(address key) view returns ((address, bytes4, uint48, uint128, uint128, uint128, uint128))',
])
const sessionShape = parseAbiParameters('(address, bytes4, uint48, uint128, uint128, uint128, uint128)')

describe('SessionCalls', () => {
  it('grants with the account’s own grantSession call, gas allowance included, and revokes with revokeSession', () => {
    const session = Permissions.sessionOf(
      {
        chainId: '0x7a69',
        expiry: now + 3600,
        signer: { type: 'account', data: { address: dapp.address } },
        permission: {
          type: 'erc20-token-transfer',
          data: { address: token, allowance: '0x8ac7230489e80000' },
        },
        policies: [{ type: 'gas-limit', data: { limit: '0x2386f26fc10000' } }],
      },
      { chainId: 'eip155:31337', account, now },
    )
    const grant = SessionCalls.grantCall(session)
    expect(grant.to).toBe(account)
    expect(decodeFunctionData({ abi, data: grant.data }).args).toEqual([
      dapp.address,
      token,
      Permissions.transferSelector,
      parseEther('10'),
      now + 3600,
      parseEther('0.01'),
    ])
    const revoke = SessionCalls.revokeCall(account, dapp.address)
    expect(revoke.to).toBe(account)
    expect(decodeFunctionData({ abi, data: revoke.data }).args).toEqual([dapp.address])
  })

  it('reads sessionOf as the chain answers it: live, past its expiry, or revoked (all zeros)', () => {
    const read = SessionCalls.sessionOfCall(account, dapp.address)
    expect(read.to).toBe(account)
    expect(decodeFunctionData({ abi, data: read.data }).args).toEqual([dapp.address])
    const answer = (validUntil: number) =>
      encodeAbiParameters(sessionShape, [
        [token, '0xa9059cbb', validUntil, parseEther('10'), parseEther('6'), parseEther('0.01'), 5n],
      ])
    expect(SessionCalls.sessionOfResult(answer(now + 1), now)).toEqual({
      limit: parseEther('10').toString(),
      spent: parseEther('6').toString(),
      gasAllowance: parseEther('0.01').toString(),
      gasSpent: '5',
      validUntil: now + 1,
      status: 'active',
    })
    expect(SessionCalls.sessionOfResult(answer(now), now).status).toBe('expired')
    const revoked = encodeAbiParameters(sessionShape, [[zeroAddress, '0x00000000', 0, 0n, 0n, 0n, 0n]])
    expect(SessionCalls.sessionOfResult(revoked, now).status).toBe('revoked')
  })
})
