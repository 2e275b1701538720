import { readFileSync } from 'node:fs'
import solc from 'solc'
import { createPublicClient, createWalletClient, http, namehash, type PublicClient, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { normalize, packetToBytes } from 'viem/ens'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import { ens } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import * as Ens from './Ens.ts'
import { offchainResolverAbi } from './OffchainResolverContract.ts'
import { universalResolverAbi, universalResolverBytecode } from './UniversalResolverContract.ts'

const account = (index: number) => {
  const found = Accounts.all()[index]
  if (!found) throw new Error(`no account ${index}`)
  return found
}

describe('ENS on the devnet', () => {
  let devnet: Devnet.Instance
  const clients: PublicClient[] = []
  const gatewayUrl = 'http://127.0.0.1:9/gateway/{sender}/{data}.json'
  beforeAll(async () => {
    // Free ports of its own (0: anvil picks), so the suite runs beside `npm start` and the other suites.
    devnet = await Devnet.start({ ports: [0, 0], ens: { gatewayUrl } })
    for (const running of devnet.chains)
      clients.push(createPublicClient({ chain: running.chain, transport: http(), pollingInterval: 50 }))
  })
  afterAll(() => devnet?.stop())
  const client = (index = 0) => clients[index] as PublicClient

  it.each([0, 1])('resolves alice.eth and bob.eth on chain %i with a plain viem client', async (index) => {
    expect(devnet.chains[index]?.chain.contracts).toMatchObject({
      ensUniversalResolver: { address: '0xf5059a5D33d5853360D16C683c16e67980206f36' },
    })
    expect(await client(index).getEnsAddress({ name: normalize('Alice.eth') })).toBe(account(1).address)
    expect(await client(index).getEnsAddress({ name: 'bob.eth' })).toBe(account(2).address)
    expect(await client(index).getEnsText({ name: 'bob.eth', key: 'description' })).toBe(
      'Bob of the Airlock devnet',
    )
  })

  it('reverse-resolves the holders to their names, checked forward', async () => {
    expect(Ens.seeds.map(({ name, holder }) => [name, holder])).toEqual([
      ['alice.eth', 1],
      ['bob.eth', 2],
    ])
    expect(await client().getEnsName({ address: account(1).address })).toBe('alice.eth')
    expect(await client().getEnsName({ address: account(2).address })).toBe('bob.eth')
    expect(await client().getEnsName({ address: account(3).address })).toBeNull()
  })

  it('reads alice.eth’s avatar, a data: URL', async () => {
    expect(await client().getEnsAvatar({ name: 'alice.eth' })).toBe(Ens.aliceAvatar)
    expect(Ens.aliceAvatar).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(await client().getEnsAvatar({ name: 'bob.eth' })).toBeNull()
  })

  it('answers null for a name nobody holds, and for the coin types it has no reverse records of', async () => {
    expect(await client().getEnsAddress({ name: 'nobody.eth' })).toBeNull()
    expect(await client().getEnsText({ name: 'nobody.eth', key: 'avatar' })).toBeNull()
    expect(await client().getEnsName({ address: account(1).address, coinType: 2147514985n })).toBeNull()
  })

  it('hands the names to their holders, and addr.reverse to the reverse registrar', async () => {
    const owner = (node: `0x${string}`) =>
      client().readContract({
        address: ens.registry,
        abi: Ens.registryAbi,
        functionName: 'owner',
        args: [node],
      })
    expect(await owner(namehash('alice.eth'))).toBe(account(1).address)
    expect(await owner(Ens.reverseNode(account(2).address))).toBe(account(2).address)
    expect(await owner(namehash('addr.reverse'))).toBe(ens.reverseRegistrar)
    expect(await owner(namehash('airlock.id'))).toBe(account(0).address)
  })

  it('lets any account set its primary name through the reverse registrar', async () => {
    const holder = account(1)
    const wallet = createWalletClient({
      account: privateKeyToAccount(holder.privateKey),
      chain: devnet.chains[1].chain,
      transport: http(),
    })
    // alice.eth's holder points her reverse record elsewhere: a name that does not resolve back is refused.
    const hash = await wallet.writeContract({
      address: ens.reverseRegistrar,
      abi: Ens.reverseRegistrarAbi,
      functionName: 'setName',
      args: ['bob.eth'],
    })
    expect((await client(1).waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await client(1).getEnsName({ address: holder.address })).toBeNull()
    await expect(client(1).getEnsName({ address: holder.address, strict: true })).rejects.toThrow(
      /ReverseAddressMismatch/,
    )
    // Chain A is untouched.
    expect(await client(0).getEnsName({ address: holder.address })).toBe('alice.eth')
  })

  it('sends the suffix’s names to the offchain resolver, which asks the gateway it was deployed with', async () => {
    const resolver = { address: ens.offchainResolver, abi: offchainResolverAbi } as const
    expect(await client().readContract({ ...resolver, functionName: 'url' })).toBe(gatewayUrl)
    const signer = privateKeyToAccount(Ens.devGatewayKey).address
    expect(await client().readContract({ ...resolver, functionName: 'signers', args: [signer] })).toBe(true)
    const [found, extended] = await client().readContract({
      address: ens.universalResolver,
      abi: universalResolverAbi,
      functionName: 'findResolver',
      args: [toHex(packetToBytes('newcomer.airlock.id'))],
    })
    expect([found, extended]).toEqual([ens.offchainResolver, true])
    // Nothing listens at the gateway: the failed request comes back as the lookup's error, not as "no address".
    await expect(client().getEnsAddress({ name: 'newcomer.airlock.id' })).rejects.toThrow(
      /HTTP request failed/,
    )
  })

  it('finds no resolver for a name outside ENS’s roots', async () => {
    await expect(
      client().readContract({
        address: ens.universalResolver,
        abi: universalResolverAbi,
        functionName: 'findResolver',
        args: [toHex(packetToBytes('alice.example'))],
      }),
    ).rejects.toThrow(/ResolverNotFound/)
  })
})

describe('the universal resolver artifact', () => {
  it('is what contracts/UniversalResolver.sol compiles to, with devnet/scripts/compile.ts’s settings', () => {
    const source = readFileSync(new URL('../../contracts/UniversalResolver.sol', import.meta.url), 'utf8')
    const compile: (input: string) => string = solc.compile
    const output: {
      errors?: { severity: string; formattedMessage: string }[]
      contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>
    } = JSON.parse(
      compile(
        JSON.stringify({
          language: 'Solidity',
          sources: { 'UniversalResolver.sol': { content: source } },
          settings: {
            optimizer: { enabled: true, runs: 200 },
            evmVersion: 'cancun',
            outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
          },
        }),
      ),
    )
    expect(output.errors?.filter((e) => e.severity === 'error') ?? []).toEqual([])
    // A difference means the source changed: run `npm run -w @airlock/devnet compile`.
    const artifact = output.contracts['UniversalResolver.sol']?.UniversalResolver
    expect(`0x${artifact?.evm.bytecode.object}`).toBe(universalResolverBytecode)
  })
})
