/**
 * The CCIP-read gateway (EIP-3668) of ENS's offchain resolver for the project's suffix: a client asks the
 * resolver, the resolver reverts with `OffchainLookup` naming this gateway, and the client brings the answer
 * back to the resolver's `resolveWithProof`, which accepts it only with a signature of one of its signers.
 *
 * The request is the resolver's `resolve(bytes name, bytes data)`, `data` being `addr(node)`,
 * `addr(node, coinType)` or `text(node, key)`. The answer is `(bytes result, uint64 expires, bytes sig)`, `sig`
 * signing `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result))` with the
 * configured key, unprefixed (ENS's `SignatureVerifier`, offchain-resolver-contracts 0.2).
 */
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  hexToBytes,
  isAddressEqual,
  keccak256,
  namehash,
  parseAbi,
  zeroAddress,
} from 'viem'
import { sign } from 'viem/accounts'
import { HttpError } from '../../http/errors.ts'
import * as Name from './Name.ts'
import type { Entry } from './Store.ts'

/** How long a signed answer is good for: clients cache a name no longer than this. */
const answerTtlS = 300

/** The gateway's refusals (EIP-3668: a 4xx with `{ message }`), which clients read as "no answer". */
export const gatewayTexts = {
  badRequest: 'Not a resolve(bytes,bytes) request of the offchain resolver',
  unsupported: 'Unsupported resolver function',
  wrongNode: 'The node is not the name’s',
} as const

const serviceAbi = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes, uint64, bytes)'])

const resolverAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
])

export type GatewayOptions = {
  /** The key the offchain resolver trusts (`names.gatewayKey`). */
  key: Hex
  /** The project's suffix: the gateway answers for names under it. */
  suffix: string
  /** A project name's entry, by its normalised name. */
  find(name: string): Promise<Entry | undefined>
  now(): number
}

/**
 * The signed answer to one request of the resolver at `sender`.
 * @throws {HttpError} 400 for a request that is not the resolver's, or a function it does not answer
 */
export async function answer(options: GatewayOptions, sender: Address, request: Hex): Promise<Hex> {
  const { name, data } = decodeRequest(request)
  const call = decodeCall(data)
  if (call.args[0] !== namehash(name)) throw new HttpError(400, gatewayTexts.wrongNode)
  const entry = await lookup(options, name)
  const result = resultOf(call, entry)
  const expires = BigInt(Math.floor(options.now() / 1000) + answerTtlS)
  const hash = keccak256(
    encodePacked(
      ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
      ['0x1900', sender, expires, keccak256(request), keccak256(result)],
    ),
  )
  const signature = await sign({ hash, privateKey: options.key, to: 'hex' })
  return encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
    [result, expires, signature],
  )
}

function decodeRequest(request: Hex): { name: string; data: Hex } {
  try {
    const { args } = decodeFunctionData({ abi: serviceAbi, data: request })
    return { name: dnsDecode(hexToBytes(args[0])), data: args[1] }
  } catch {
    throw new HttpError(400, gatewayTexts.badRequest)
  }
}

type Call = ReturnType<typeof decodeFunctionData<typeof resolverAbi>>

function decodeCall(data: Hex): Call {
  try {
    return decodeFunctionData({ abi: resolverAbi, data })
  } catch {
    throw new HttpError(400, gatewayTexts.unsupported)
  }
}

/** The entry of a name under the suffix; none for the suffix itself, or a name no one may register. */
async function lookup(options: GatewayOptions, name: string): Promise<Entry | undefined> {
  if (!name.endsWith(`.${options.suffix}`)) return undefined
  try {
    return await options.find(Name.normalized(name))
  } catch (error) {
    if (error instanceof HttpError) return undefined
    throw error
  }
}

/** The resolver function's answer, ABI-encoded: empty (zero address, no bytes, '') when there is none. */
function resultOf(call: Call, entry: Entry | undefined): Hex {
  if (call.functionName === 'text')
    return encodeAbiParameters([{ type: 'string' }], [entry?.attributes[call.args[1]] ?? ''])
  // addr(node, coinType) answers bytes (none when there is no address), addr(node) an address.
  if (call.args.length === 2)
    return encodeAbiParameters([{ type: 'bytes' }], [addressFor(entry, call.args[1]) ?? '0x'])
  const address = addressFor(entry, BigInt(Name.ethereumCoinType)) ?? zeroAddress
  return encodeAbiParameters([{ type: 'address' }], [address])
}

/**
 * The entry's address for a coin type: for the coin type it was registered with, and for Ethereum's (60,
 * what `addr(node)` asks) and ENSIP-19's default EVM coin type whatever EVM chain that was, since an EVM
 * address is the same string on every EVM chain.
 */
function addressFor(entry: Entry | undefined, coinType: bigint): Address | undefined {
  if (!entry || !Name.isEvm(entry.coinType)) return undefined
  if (coinType !== entry.coinType && !Name.isDefaultEvm(coinType)) return undefined
  const address = entry.address as Address
  return isAddressEqual(address, zeroAddress) ? undefined : address
}

/** DNS wire format (`\x08newcomer\x07airlock\x02id\x00`) to `newcomer.airlock.id`. */
function dnsDecode(bytes: Uint8Array): string {
  const labels: string[] = []
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for (let offset = 0; offset < bytes.length; ) {
    const length = bytes[offset] ?? 0
    if (length === 0) {
      if (offset !== bytes.length - 1) break
      return labels.join('.')
    }
    labels.push(decoder.decode(bytes.subarray(offset + 1, offset + 1 + length)))
    offset += length + 1
  }
  throw new Error('not a DNS-encoded name')
}
