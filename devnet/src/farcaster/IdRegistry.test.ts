import { readFileSync } from 'node:fs'
import solc from 'solc'
import { createPublicClient, http, parseAbi } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Anvil from '../Anvil.ts'
import * as IdRegistry from './IdRegistry.ts'
import { idRegistryAbi, idRegistryBytecode } from './IdRegistryContract.ts'

type Output = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

describe('the IdRegistry artifact', () => {
  it('is what IdRegistry.sol compiles to, with the settings of devnet/scripts/compile.ts', () => {
    const source = readFileSync(new URL('./IdRegistry.sol', import.meta.url), 'utf8')
    const compile: (input: string) => string = solc.compile
    const output: Output = JSON.parse(
      compile(
        JSON.stringify({
          language: 'Solidity',
          sources: { 'IdRegistry.sol': { content: source } },
          settings: {
            optimizer: { enabled: true, runs: 200 },
            evmVersion: 'cancun',
            outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
          },
        }),
      ),
    )
    expect(output.errors?.filter((e) => e.severity === 'error') ?? []).toEqual([])
    const artifact = output.contracts['IdRegistry.sol']?.IdRegistry
    // A difference means the source changed: regenerate IdRegistryContract.ts from this output.
    expect(`0x${artifact?.evm.bytecode.object}`).toBe(idRegistryBytecode)
    const signatures = parseAbi([
      'error FidTaken(uint256 fid)',
      'error HasId(address custody)',
      'error InvalidCustody()',
      'error InvalidFid()',
      'event Register(address indexed to, uint256 indexed id)',
      'function custodyOf(uint256) view returns (address)',
      'function idOf(address) view returns (uint256)',
      'function register(address custody, uint256 fid)',
    ])
    expect(idRegistryAbi).toEqual(signatures)
    expect(artifact?.abi).toHaveLength(signatures.length)
  })
})

describe('IdRegistry on anvil', () => {
  let anvil: Anvil.Instance
  let target: IdRegistry.Target
  const key = () => privateKeyToAccount(generatePrivateKey()).address

  beforeAll(async () => {
    anvil = await Anvil.start({ port: 0, chainId: 31337 })
    target = { rpcUrl: anvil.rpcUrl, address: await IdRegistry.deploy(anvil.rpcUrl) }
  })
  afterAll(() => anvil?.stop())

  it('answers the fid a custody address owns, and 0 for an address without one', async () => {
    const custody = key()
    expect(await IdRegistry.idOf(target, custody)).toBe(0n)
    await IdRegistry.register(target, custody, 4242n)
    expect(await IdRegistry.idOf(target, custody)).toBe(4242n)
    const reader = createPublicClient({ transport: http(anvil.rpcUrl) })
    const address = target.address ?? '0x'
    expect(
      await reader.readContract({ address, abi: idRegistryAbi, functionName: 'custodyOf', args: [4242n] }),
    ).toBe(custody)
  })

  it('refuses a fid that has a custody address, an address that has a fid, and fid 0', async () => {
    const custody = key()
    await IdRegistry.register(target, custody, 77n)
    await expect(IdRegistry.register(target, key(), 77n)).rejects.toThrow(/FidTaken/)
    await expect(IdRegistry.register(target, custody, 78n)).rejects.toThrow(/HasId/)
    await expect(IdRegistry.register(target, key(), 0n)).rejects.toThrow(/InvalidFid/)
    expect(await IdRegistry.idOf(target, custody)).toBe(77n)
  })
})
