import { Siwx as Message } from '@airlock/bridge-protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { closedPort } from '../../../internal/closedPort.ts'
import { RpcError } from '../../../internal/rpc.ts'
import * as Siwx from '../Accounts.ts'

describe('Siwx', () => {
  describe('eip155', () => {
    const owner = privateKeyToAccount(generatePrivateKey())

    it('verifies an EOA signature without asking the chain', async () => {
      const rpcUrl = `http://127.0.0.1:${await closedPort()}`
      const account = `eip155:1:${owner.address}`
      const signature = await owner.signMessage({ message: 'Sign in' })
      expect(await Siwx.verify({ account, message: 'Sign in', signature, rpcUrl })).toBe(true)
      expect(
        await Siwx.verify({ account: account.toLowerCase(), message: 'Sign in', signature, rpcUrl }),
      ).toBe(true)
    })

    it('throws RpcError rather than guessing when a contract account needs an unreachable RPC', async () => {
      const rpcUrl = `http://127.0.0.1:${await closedPort()}`
      const account = 'eip155:1:0x0000000000000000000000000000000000000001'
      const signature = await owner.signMessage({ message: 'Sign in' })
      await expect(Siwx.verify({ account, message: 'Sign in', signature, rpcUrl })).rejects.toThrow(RpcError)
      await expect(Siwx.verify({ account, message: 'Sign in', signature })).rejects.toThrow(RpcError)
      expect(await Siwx.verify({ account, message: 'Sign in', signature: 'not hex', rpcUrl })).toBe(false)
    })

    it('formats SIWE messages exactly as viem does, and viem parses ours', () => {
      const fields = {
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        chainId: 31337,
        domain: 'localhost:5173',
        nonce: 'a1B2c3D4e5F6g7H8',
        uri: 'http://localhost:5173/',
        version: '1',
        issuedAt: new Date(Date.UTC(2026, 10, 22)),
        expirationTime: new Date(Date.UTC(2026, 10, 23)),
        requestId: 'r1',
        resources: ['https://shop.example/terms'],
      } as const
      for (const statement of [undefined, 'Sign in to the shop']) {
        const ours = Message.format({
          domain: fields.domain,
          accountAddress: fields.address,
          chainId: 'eip155:31337',
          uri: fields.uri,
          version: '1',
          nonce: fields.nonce,
          issuedAt: fields.issuedAt.toISOString(),
          expirationTime: fields.expirationTime.toISOString(),
          requestId: fields.requestId,
          resources: [...fields.resources],
          statement,
        })
        expect(ours).toBe(createSiweMessage({ ...fields, resources: [...fields.resources], statement }))
        const parsed = parseSiweMessage(ours)
        expect(parsed).toMatchObject({ address: fields.address, nonce: fields.nonce, chainId: 31337 })
        expect(parsed.statement).toBe(statement)
      }
    })
  })
})
