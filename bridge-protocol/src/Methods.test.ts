import { describe, expect, it } from 'vitest'
import * as Methods from './Methods.ts'

describe('Methods', () => {
  it.each([
    ['eth_getBalance', 'safe'],
    ['eth_call', 'safe'],
    ['eth_estimateGas', 'safe'],
    ['eth_getTransactionReceipt', 'safe'],
    ['eth_sendRawTransaction', 'safe'],
    ['wallet_getCapabilities', 'safe'],
    ['wallet_showCallsStatus', 'safe'],
    ['personal_sign', 'unsafe'],
    ['eth_signTypedData_v4', 'unsafe'],
    ['eth_sendTransaction', 'unsafe'],
    ['wallet_sendCalls', 'unsafe'],
    ['wallet_grantPermissions', 'unsafe'],
    ['wallet_revokePermissions', 'unsafe'],
    ['eth_sendUserOperation', 'unsafe'],
    ['solana:signAndSendTransaction', 'unsafe'],
    ['bitcoin:signTransaction', 'unsafe'],
    ['eth_requestAccounts', 'connection'],
    ['eth_accounts', 'connection'],
    ['wallet_switchEthereumChain', 'connection'],
    ['standard:disconnect', 'connection'],
    ['debug_traceCall', 'disallowed'],
    ['eth_signTypedData_v4x', 'disallowed'],
    ['toString', 'disallowed'],
  ] as const)('classifies %s as %s', (method, kind) => {
    expect(Methods.classify(method)).toBe(kind)
    expect(Methods.isAllowed(method)).toBe(kind !== 'disallowed')
  })

  it('puts each method in one list only', () => {
    const all = [...Methods.safe, ...Methods.unsafe, ...Methods.connection]
    expect(new Set(all).size).toBe(all.length)
  })

  it('lets the modal manage the connection of a page wallet, and nothing more', () => {
    expect(Methods.connection.toSorted()).toEqual([
      'bitcoin:connect',
      'eth_accounts',
      'eth_chainId',
      'eth_requestAccounts',
      'standard:connect',
      'standard:disconnect',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ])
    for (const method of Methods.connection) expect(Methods.managesConnection(method)).toBe(true)
    for (const method of [...Methods.safe, ...Methods.unsafe, 'debug_traceCall'])
      expect(Methods.managesConnection(method), method).toBe(false)
  })

  it('has no time-out for what waits on a person: approvals and connect or switch prompts', () => {
    for (const method of Methods.unsafe) expect(Methods.needsUser({ method }), method).toBe(true)
    for (const method of [
      'eth_requestAccounts',
      'wallet_addEthereumChain',
      'standard:connect',
      'bitcoin:connect',
    ])
      expect(Methods.needsUser({ method }), method).toBe(true)
    for (const method of ['eth_accounts', 'eth_chainId', 'standard:disconnect', 'eth_blockNumber', 'foo'])
      expect(Methods.needsUser({ method }), method).toBe(false)
  })

  it('tells transactions, which the modal’s Send may ask a page wallet for, from messages and grants', () => {
    for (const method of ['eth_sendTransaction', 'solana:signTransaction', 'bitcoin:signTransaction'])
      expect(Methods.isTransaction(method), method).toBe(true)
    for (const method of [
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_signTransaction',
      'solana:signMessage',
      'bitcoin:signMessage',
      'wallet_sendCalls',
      'wallet_grantPermissions',
      'eth_sendRawTransaction',
      'solana:signAndSendTransaction',
    ])
      expect(Methods.isTransaction(method), method).toBe(false)
  })

  it('says what people and developers see for a disallowed call, word for word', () => {
    expect(Methods.notAllowed).toBe('Action not allowed')
    expect(Methods.notAllowedLog).toBe('Requested RPC call is not allowed')
  })
})
