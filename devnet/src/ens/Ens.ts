/**
 * ENS on the devnet chains, deployed by account 0 after everything else (`Devnet.start`): the registry and
 * reverse registrar of `@ensdomains/ens`, the public resolver of `@ensdomains/resolver`, ENS's offchain
 * resolver (`OffchainResolverContract.ts`) for the project's name suffix, whose answers come from the API's
 * CCIP-read gateway, and a universal resolver of ours (`contracts/UniversalResolver.sol`), the one contract
 * viem's `getEnsAddress`, `getEnsName`, `getEnsText` and `getEnsAvatar` call. `alice.eth` and `bob.eth` are
 * seeded ({@link seeds}), each with its reverse record.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { ensGatewayPath } from '@airlock/api/contract'
import { type Address, type Hex, isHex, labelhash, namehash, parseAbi } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import * as Accounts from '../Accounts.ts'
import { ens } from '../Chains.ts'
import type * as Pools from '../dex/Pools.ts'
import { offchainResolverAbi, offchainResolverBytecode } from './OffchainResolverContract.ts'
import { universalResolverAbi, universalResolverBytecode } from './UniversalResolverContract.ts'

/**
 * The key the dev stack's API signs its gateway answers with, and the one signer the devnet's offchain
 * resolver trusts by default. Fixed, so a devnet started before the API still trusts it; it vouches for
 * nothing but names on these loopback chains.
 */
export const devGatewayKey: Hex = '0x8a7c2e1b9d3f4a5c6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5'

/** The project's name suffix on the devnet. The API's is configurable (`names.suffix`); this is its default. */
export const defaultSuffix = 'airlock.id'

export type Options = {
  /**
   * The offchain resolver's gateway, an EIP-3668 URL template.
   * @default the dev stack's API: `http://127.0.0.1:8787/v1/ens/gateway/{sender}/{data}.json`
   */
  gatewayUrl?: string
  /** Who may sign the gateway's answers. @default the address of {@link devGatewayKey} */
  gatewaySigners?: readonly Address[]
  /** The suffix the offchain resolver answers for (its names and every name under it). @default 'airlock.id' */
  suffix?: string
}

/** A small avatar as a `data:` URL, so the devnet needs no image host. */
export const aliceAvatar = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="#7c3aed"/><text x="32" y="42" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">A</text></svg>',
).toString('base64')}`

/** The `.eth` names the devnet holds, each its holder's primary name (reverse record) too. */
export const seeds = [
  {
    name: 'alice.eth',
    holder: 1,
    texts: { avatar: aliceAvatar, description: 'Alice of the Airlock devnet' },
  },
  { name: 'bob.eth', holder: 2, texts: { description: 'Bob of the Airlock devnet' } },
] as const

export const registryAbi = parseAbi([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
  'function setOwner(bytes32 node, address owner)',
  'function setSubnodeOwner(bytes32 node, bytes32 label, address owner) returns (bytes32)',
  'function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl)',
])

const publicResolverAbi = parseAbi([
  'constructor(address ens)',
  'function addr(bytes32 node) view returns (address)',
  'function name(bytes32 node) view returns (string)',
  'function text(bytes32 node, string key) view returns (string)',
  'function setAddr(bytes32 node, address a)',
  'function setName(bytes32 node, string name)',
  'function setText(bytes32 node, string key, string value)',
])

// The artifact's own ABI names its constructor `ens` (a truffle quirk of that build), so it is written here.
export const reverseRegistrarAbi = parseAbi([
  'constructor(address ensAddr, address resolverAddr)',
  'function node(address addr) pure returns (bytes32)',
  'function setName(string name) returns (bytes32)',
])

const require = createRequire(import.meta.url)

/** Creation code of a truffle artifact (`build/contracts/*.json`, `bytecode` with its 0x), by its path. */
function bytecodeOf(artifact: string): Hex {
  // Read rather than imported: the artifacts carry their sources and ASTs, hundreds of KB of JSON.
  const parsed: unknown = JSON.parse(readFileSync(artifact, 'utf8'))
  const bytecode =
    typeof parsed === 'object' && parsed !== null && 'bytecode' in parsed ? parsed.bytecode : ''
  if (typeof bytecode !== 'string' || !isHex(bytecode) || bytecode.length < 4)
    throw new Error(`${artifact} holds no bytecode`)
  return bytecode
}

/** A deployment of account 0's, with the address `Chains.ts` names for it. */
export type Deployment = Pools.Step & { expected: Address }

/**
 * Gas for every ENS step, so none is estimated: the steps go out back to back and each relies on the ones
 * before it, which the node may not have mined when a later one would be estimated.
 */
const gas = { deploy: 6_000_000n, record: 400_000n, text: 1_500_000n } as const

/** The registry, public resolver, universal resolver, offchain resolver and reverse registrar, in this order. */
export function deployments(options: Options = {}): Deployment[] {
  const gatewayUrl = options.gatewayUrl ?? `http://127.0.0.1:8787${ensGatewayPath}`
  const signers = options.gatewaySigners ?? [privateKeyToAddress(devGatewayKey)]
  return [
    {
      what: 'ENS registry',
      expected: ens.registry,
      send: (client) =>
        client.deployContract({
          abi: [],
          bytecode: bytecodeOf(require.resolve('@ensdomains/ens/build/contracts/ENSRegistry.json')),
          gas: gas.deploy,
        }),
    },
    {
      what: 'ENS public resolver',
      expected: ens.publicResolver,
      send: (client) =>
        client.deployContract({
          abi: publicResolverAbi,
          bytecode: bytecodeOf(require.resolve('@ensdomains/resolver/build/contracts/PublicResolver.json')),
          args: [ens.registry],
          gas: gas.deploy,
        }),
    },
    {
      what: 'ENS universal resolver',
      expected: ens.universalResolver,
      send: (client) =>
        client.deployContract({
          abi: universalResolverAbi,
          bytecode: universalResolverBytecode,
          args: [ens.registry],
          gas: gas.deploy,
        }),
    },
    {
      what: 'ENS offchain resolver',
      expected: ens.offchainResolver,
      send: (client) =>
        client.deployContract({
          abi: offchainResolverAbi,
          bytecode: offchainResolverBytecode,
          args: [gatewayUrl, [...signers]],
          gas: gas.deploy,
        }),
    },
    {
      what: 'ENS reverse registrar',
      expected: ens.reverseRegistrar,
      // Its constructor asks the registry who owns addr.reverse: nobody yet, so it claims nothing.
      send: (client) =>
        client.deployContract({
          abi: reverseRegistrarAbi,
          bytecode: bytecodeOf(require.resolve('@ensdomains/ens/build/contracts/ReverseRegistrar.json')),
          args: [ens.registry, ens.publicResolver],
          gas: gas.deploy,
        }),
    },
  ]
}

/**
 * The names: `eth`, `reverse` and `addr.reverse` for account 0, the seeds with their records, then
 * `addr.reverse` handed to the reverse registrar (so any account can set its own primary name) and the
 * suffix pointed at the offchain resolver. Account 0 writes every record, then hands each name to its holder.
 */
export function records(options: Options = {}): Pools.Step[] {
  const suffix = options.suffix ?? defaultSuffix
  const me = Accounts.all()[0]?.address
  if (!me) throw new Error('no default accounts')
  const seeded = seeds.flatMap(({ name, holder, texts }): Pools.Step[] => {
    const address = Accounts.all()[holder]?.address
    if (!address) throw new Error(`no account ${holder}`)
    const reverse = reverseNode(address)
    return [
      setSubnodeRecord(`creating ${name}`, name, ens.publicResolver),
      setAddr(`pointing ${name} at its holder`, name, address),
      ...Object.entries(texts).map(([key, value]) => setText(`writing ${name}'s ${key}`, name, key, value)),
      setSubnodeRecord(`creating ${name}'s reverse record`, reverseName(address), ens.publicResolver),
      setName(`naming ${name}'s holder`, reverse, name),
      setOwner(`handing ${name}'s reverse record to its holder`, reverse, address),
      setOwner(`handing ${name} to its holder`, namehash(name), address),
    ]
  })
  const labels = suffix.split('.')
  // The suffix's ancestors, the top-level one first: `id` for `airlock.id`.
  const ancestors = labels.slice(1).map((_, index) => labels.slice(index + 1).join('.'))
  return [
    setSubnodeOwner('creating eth', 'eth', me),
    setSubnodeOwner('creating reverse', 'reverse', me),
    setSubnodeOwner('creating addr.reverse', 'addr.reverse', me),
    ...seeded,
    setSubnodeOwner('handing addr.reverse to the reverse registrar', 'addr.reverse', ens.reverseRegistrar),
    ...ancestors.reverse().map((ancestor) => setSubnodeOwner(`creating ${ancestor}`, ancestor, me)),
    setSubnodeRecord(`pointing ${suffix} at the offchain resolver`, suffix, ens.offchainResolver),
  ]
}

/** `<lower-case hex>.addr.reverse`, the name of an address's reverse record. */
function reverseName(address: Address): string {
  return `${address.slice(2).toLowerCase()}.addr.reverse`
}

/** The node of an address's reverse record. */
export function reverseNode(address: Address): Hex {
  return namehash(reverseName(address))
}

/** `alice.eth` → the label hash of `alice` and the node of `eth`. */
function split(name: string): [parent: Hex, label: Hex] {
  const [label = '', parent = ''] = name.split(/\.(.*)/)
  return [namehash(parent), labelhash(label)]
}

const registry = { address: ens.registry, abi: registryAbi, gas: gas.record } as const
const resolver = { address: ens.publicResolver, abi: publicResolverAbi, gas: gas.record } as const

function setSubnodeOwner(what: string, name: string, owner: Address): Pools.Step {
  return {
    what,
    send: (client) =>
      client.writeContract({ ...registry, functionName: 'setSubnodeOwner', args: [...split(name), owner] }),
  }
}

/** Creates `name` for account 0, with `resolverAddress` as its resolver. */
function setSubnodeRecord(what: string, name: string, resolverAddress: Address): Pools.Step {
  return {
    what,
    send: (client) =>
      client.writeContract({
        ...registry,
        functionName: 'setSubnodeRecord',
        args: [...split(name), client.account.address, resolverAddress, 0n],
      }),
  }
}

function setOwner(what: string, node: Hex, owner: Address): Pools.Step {
  return {
    what,
    send: (client) => client.writeContract({ ...registry, functionName: 'setOwner', args: [node, owner] }),
  }
}

function setAddr(what: string, name: string, address: Address): Pools.Step {
  return {
    what,
    send: (client) =>
      client.writeContract({ ...resolver, functionName: 'setAddr', args: [namehash(name), address] }),
  }
}

function setText(what: string, name: string, key: string, value: string): Pools.Step {
  return {
    what,
    send: (client) =>
      client.writeContract({
        ...resolver,
        functionName: 'setText',
        args: [namehash(name), key, value],
        gas: gas.text,
      }),
  }
}

function setName(what: string, node: Hex, name: string): Pools.Step {
  return {
    what,
    send: (client) => client.writeContract({ ...resolver, functionName: 'setName', args: [node, name] }),
  }
}
