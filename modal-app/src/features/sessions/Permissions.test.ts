import { decodePci } from '@airlock/api/contract'
import { Errors } from '@airlock/bridge-protocol'
import { erc20Abi, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import * as Permissions from './Permissions.ts'

const account = '0x1111111111111111111111111111111111111111'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const dapp = privateKeyToAccount(generatePrivateKey())
const now = 1_800_000_000
const context = { chainId: 'eip155:31337', account, now } as const

const asked = (fields: Record<string, unknown> = {}) => ({
  chainId: '0x7a69',
  expiry: now + 3600,
  signer: { type: 'account', data: { address: dapp.address } },
  permissions: [
    { type: 'erc20-token-transfer', data: { address: token, allowance: toHex(parseEther('10')) } },
  ],
  ...fields,
})

const refusal = (params: unknown) => {
  try {
    Permissions.sessionOf(params, context)
  } catch (error) {
    return { code: Errors.codeOf(error), message: (error as Error).message }
  }
  throw new Error('granted')
}

describe('sessionOf', () => {
  it('maps an ERC-20 transfer allowance to a session on the token’s transfer, limited in token units', () => {
    const session = Permissions.sessionOf([asked()], context)
    expect(session).toMatchObject({
      chainId: 'eip155:31337',
      account,
      key: dapp.address,
      target: token,
      selector: Permissions.transferSelector,
      functionName: 'transfer',
      limit: parseEther('10'),
      spends: 'token',
      // The request names no gas-limit: the default, which the grant view says.
      gasAllowance: Permissions.defaultGasAllowance,
      validUntil: now + 3600,
    })
    expect(decodePci(session.pci)).toEqual({ account, key: dapp.address.toLowerCase(), chainId: 31337 })
  })

  it('maps a contract call by name from its ABI, with a token-allowance policy, and by signature', () => {
    const call = (data: Record<string, unknown>, policies?: unknown[]) =>
      Permissions.sessionOf(
        asked({ permissions: [{ type: 'contract-call', data: { address: token, ...data }, policies }] }),
        context,
      )
    const byAbi = call({ abi: erc20Abi, functions: [{ functionName: 'transfer' }] }, [
      { type: 'token-allowance', data: { allowance: toHex(5n) } },
    ])
    expect(byAbi).toMatchObject({ selector: Permissions.transferSelector, limit: 5n, spends: 'token' })
    // Another function spends ETH only: without a limit, none at all.
    const mint = call({ functions: [{ functionName: 'mint(address,uint256)' }] })
    expect(mint).toMatchObject({ functionName: 'mint', limit: 0n, spends: 'native' })
  })

  it('takes the gas allowance from a gas-limit policy (wei), beside the permission or in it', () => {
    const gas = (limit: string) => ({ type: 'gas-limit', data: { limit } })
    const beside = asked({ policies: [gas(toHex(parseEther('0.002')))] })
    expect(Permissions.sessionOf(beside, context).gasAllowance).toBe(parseEther('0.002'))
    const within = asked({
      permissions: [
        {
          type: 'contract-call',
          data: { address: token, functions: [{ functionName: 'transfer(address,uint256)' }] },
          policies: [{ type: 'token-allowance', data: { allowance: '0x5' } }, gas('0x0')],
        },
      ],
    })
    // 0: only operations a paymaster pays.
    expect(Permissions.sessionOf(within, context)).toMatchObject({ limit: 5n, gasAllowance: 0n })
    expect(refusal(asked({ policies: [gas('0x1'), gas('0x2')] })).message).toContain('one gas-limit')
    expect(refusal(asked({ policies: [gas(`0x1${'0'.repeat(32)}`)] })).message).toContain('uint128')
    expect(refusal(asked({ policies: [gas('ten')] })).code).toBe(-32602)
  })

  it('takes the key from key and keys signers (address or uncompressed public key)', () => {
    const { publicKey } = dapp
    for (const signer of [
      { type: 'key', data: { id: dapp.address } },
      { type: 'key', data: { id: publicKey } },
      { type: 'keys', data: { keys: [{ type: 'secp256k1', publicKey }] } },
    ])
      expect(Permissions.sessionOf(asked({ signer }), context).key).toBe(dapp.address)
  })

  it('refuses what the account cannot enforce, rather than granting more', () => {
    const invalid = -32602
    expect(
      refusal(asked({ permissions: [{ type: 'erc721-token-transfer', data: { address: token } }] })).code,
    ).toBe(invalid)
    const rate = refusal(
      asked({
        permissions: [
          {
            type: 'contract-call',
            data: { address: token, functions: [{ functionName: 'transfer(address,uint256)' }] },
            policies: [{ type: 'rate-limit', data: { count: 1, interval: 60 } }],
          },
        ],
      }),
    )
    expect(rate).toEqual({ code: invalid, message: expect.stringContaining('rate-limit cannot be enforced') })
    // Two permissions would need two sessions of one key.
    expect(refusal(asked({ permissions: [asked().permissions[0], asked().permissions[0]] })).code).toBe(
      invalid,
    )
    // ETH to anyone: a session reaches one address.
    expect(
      refusal(asked({ permissions: [{ type: 'native-token-transfer', data: { allowance: '0x1' } }] }))
        .message,
    ).toContain('data.to')
    expect(refusal(asked({ signer: { type: 'wallet', data: {} } })).code).toBe(invalid)
    expect(refusal(asked({ expiry: now - 1 })).message).toContain('expiry')
    expect(refusal(asked({ expiry: now + Permissions.maxDurationS + 1 })).message).toContain('30 days')
    // A session that calls the account itself could grant itself more.
    expect(
      refusal(
        asked({
          permissions: [{ type: 'erc20-token-transfer', data: { address: account, allowance: '0x1' } }],
        }),
      ).code,
    ).toBe(invalid)
    expect(
      refusal(asked({ permissions: [{ type: 'erc20-token-transfer', data: { address: 'bad' } }] })).code,
    ).toBe(invalid)
  })

  it('refuses another account (4100) and another chain (5710)', () => {
    expect(refusal(asked({ address: `0x${'2'.repeat(40)}` })).code).toBe(4100)
    expect(refusal(asked({ chainId: '0x7a6a' })).code).toBe(5710)
  })
})

describe('calls and answers', () => {
  it('answers the request with its context, and takes that context back to revoke', () => {
    const session = Permissions.sessionOf([asked()], context)
    const [answer] = Permissions.response([asked()], session)
    expect(answer).toMatchObject({
      context: session.pci,
      permissionsContext: session.pci,
      expiry: now + 3600,
      // The request named no gas-limit: the answer says the one granted.
      policies: [{ type: 'gas-limit', data: { limit: toHex(Permissions.defaultGasAllowance) } }],
    })
    const policies = [{ type: 'gas-limit', data: { limit: '0x0' } }]
    const named = asked({ policies })
    const [asAsked] = Permissions.response([named], Permissions.sessionOf([named], context))
    expect(asAsked?.policies).toEqual(policies)
    expect(Permissions.revokedPci([{ permissionContext: session.pci }])).toBe(session.pci)
    expect(() => Permissions.revokedPci([{ permissionContext: '0x12' }])).toThrow(Errors.InvalidParamsError)
  })
})
