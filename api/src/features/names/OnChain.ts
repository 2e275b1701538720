/**
 * ENS on the configured chain, for names that are not the project's (`alice.eth`): read through its
 * universal resolver with viem, CCIP-read included, its gateways asked only as `CcipRead.ts` allows. The
 * avatar is read as its text record and never fetched: which avatars to load is the client's choice
 * (`contract/identity.ts`).
 */
import { type Address, encodeFunctionData, type Hex, namehash, parseAbi } from 'viem'
import type { Config } from '../../Config.ts'
import { avatarMax } from '../../contract/identity.ts'
import type { NameRecord } from '../../contract/names.ts'
import { ccipClient } from '../../internal/rpc.ts'
import * as CcipRead from './CcipRead.ts'
import * as Name from './Name.ts'

/** The text records a looked-up name answers as its `attributes` (ENSIP-5's global keys, and the usual). */
const textKeys = ['avatar', 'description', 'url', 'email', 'com.twitter', 'com.github'] as const

export type Ens = {
  /** The address's primary name, checked forward by the universal resolver; `null` when it has none. */
  nameOf(address: Address): Promise<string | null>
  /** A name's address and text records; `undefined` when it resolves to no address. */
  lookup(name: string): Promise<NameRecord | undefined>
  /** One text record; `null` when the name has none. */
  text(name: string, key: string): Promise<string | null>
  /**
   * The transaction that makes `name` the primary name of its sender: ENS's reverse registrar's
   * `setName(name)`, the registrar found as the owner of `addr.reverse` in the resolver's registry.
   */
  primaryTransaction(name: string): Promise<{ to: Address; data: Hex }>
}

const ensAbi = parseAbi([
  'function registry() view returns (address)',
  'function owner(bytes32 node) view returns (address)',
  'function setName(string name) returns (bytes32)',
])

type EnsOptions = CcipRead.CcipReadOptions & {
  /** The chain's JSON-RPC. */
  rpcUrl: string
  /** ENS's universal resolver on that chain. */
  universalResolver: Address
}

/**
 * @example
 * const ens = OnChain.create({ rpcUrl: 'http://127.0.0.1:8545', universalResolver: '0xf505…6f36', internal: [] })
 * await ens.nameOf('0x7099…79C8') // 'alice.eth'
 */
function create(options: EnsOptions): Ens {
  const client = ccipClient(options.rpcUrl, CcipRead.request(options))
  const universalResolverAddress = options.universalResolver
  const text = (name: string, key: string) => client.getEnsText({ name, key, universalResolverAddress })
  return {
    nameOf: (address) => client.getEnsName({ address, universalResolverAddress }),
    async primaryTransaction(name) {
      const registry = await client.readContract({
        address: universalResolverAddress,
        abi: ensAbi,
        functionName: 'registry',
      })
      const registrar = await client.readContract({
        address: registry,
        abi: ensAbi,
        functionName: 'owner',
        args: [namehash('addr.reverse')],
      })
      return {
        to: registrar,
        data: encodeFunctionData({ abi: ensAbi, functionName: 'setName', args: [name] }),
      }
    },
    text,
    async lookup(name) {
      const address = await client.getEnsAddress({ name, universalResolverAddress })
      if (!address) return undefined
      const values = await Promise.all(textKeys.map((key) => text(name, key)))
      // A record longer than the contract carries (a huge data: URL) is left out, not cut.
      const attributes = Object.fromEntries(
        textKeys.flatMap((key, index) => {
          const value = values[index]
          return value && value.length <= avatarMax ? [[key, value]] : []
        }),
      )
      return { name, addresses: { [Name.ethereumCoinType]: { address } }, attributes }
    },
  }
}

/** ENS on the configuration's names chain, or `undefined` when it names none. */
export function fromConfig(config: Config): Ens | undefined {
  const names = config.names
  const chain = names && config.chains.find((entry) => entry.id === names.chainId)
  if (!names || !chain) return undefined
  return create({
    rpcUrl: chain.rpcUrl,
    universalResolver: names.universalResolver as Address,
    internal: names.internalGateways ?? [],
  })
}
