/**
 * One chain's verifying paymaster, as the API signs for it (ERC-7677's two calls): a stub with a dummy
 * signature for gas estimation, then the real `paymasterData`, `abi.encode(validUntil, validAfter)` and an
 * EIP-191 signature over the contract's own `getHash(userOp, validUntil, validAfter)`, asked of the chain
 * (an `eth_call`) rather than re-implemented here, so what is signed is what the contract checks.
 */
import {
  type Address,
  BaseError,
  concat,
  encodeAbiParameters,
  type Hex,
  HttpRequestError,
  numberToHex,
  parseAbi,
  TimeoutError,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { evmClient, RpcError } from '../../internal/rpc.ts'
import * as UserOperation from './UserOperation.ts'

const abi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
  'function entryPoint() view returns (address)',
])

/**
 * The paymaster's own gas: its validation reads the operation's hash and recovers one signature; it keeps
 * no context, so the EntryPoint never calls its `postOp`.
 */
export const gasLimits = { verification: 100_000n, postOp: 0n } as const

/** How long a signed sponsorship stays good: long enough for a visitor to read and approve the operation. */
export const validityS = 600

/**
 * A signature of the right length that recovers to no one's key: validation reads it as a failed signature,
 * not a revert, so bundlers can estimate gas with it (the value bundlers and Pimlico use).
 */
const dummySignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type PaymasterOptions = {
  /** CAIP-2 id, named when the chain's RPC fails. */
  chainId: string
  rpcUrl: string
  address: Address
  signerKey: Hex
  timeoutMs: number
  /** @default Date.now */
  now?: (() => number) | undefined
}

/** ERC-7677's answer, with v0.7/v0.8's field names; quantities in hex. */
type Sponsorship = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
}

export type Paymaster = {
  address: Address
  /** The EntryPoint the contract was deployed for, read from it once. */
  entryPoint(): Promise<Address>
  /** The paymaster's gas for `op`: its own limits when it named them, else {@link gasLimits}. */
  gasOf(op: UserOperation.UserOperation): { verification: bigint; postOp: bigint }
  stub(op: UserOperation.UserOperation): Sponsorship & { isFinal: false }
  /** @throws {RpcError} when the chain cannot be asked for the hash */
  sign(op: UserOperation.UserOperation): Promise<Sponsorship>
}

/**
 * @example
 * const paymaster = Paymaster.create({ chainId: 'eip155:31337', rpcUrl, address, signerKey, timeoutMs: 10_000 })
 * await paymaster.sign(op) // { paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit }
 */
export function create(options: PaymasterOptions): Paymaster {
  const now = options.now ?? Date.now
  const signer = privateKeyToAccount(options.signerKey)
  const client = evmClient(options.rpcUrl, { retryCount: 0, timeoutMs: options.timeoutMs })
  let entryPoint: Promise<Address> | undefined
  const gasOf = (op: UserOperation.UserOperation) => ({
    verification: op.paymasterVerificationGasLimit ?? gasLimits.verification,
    postOp: op.paymasterPostOpGasLimit ?? gasLimits.postOp,
  })
  const answer = (gas: { verification: bigint; postOp: bigint }, paymasterData: Hex): Sponsorship => ({
    paymaster: options.address,
    paymasterData,
    paymasterVerificationGasLimit: numberToHex(gas.verification),
    paymasterPostOpGasLimit: numberToHex(gas.postOp),
  })
  const read = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (unreachable(error)) throw new RpcError(options.chainId, { cause: error })
      throw error
    }
  }
  return {
    address: options.address,
    entryPoint() {
      entryPoint ??= read(() =>
        client.readContract({ address: options.address, abi, functionName: 'entryPoint' }),
      ).catch((error) => {
        // Asked again next time: an RPC that was down may be back.
        entryPoint = undefined
        throw error
      })
      return entryPoint
    },
    gasOf,
    stub: (op) => ({ ...answer(gasOf(op), concat([validity(0, 0), dummySignature])), isFinal: false }),
    async sign(op) {
      const gas = gasOf(op)
      const validUntil = Math.floor(now() / 1000) + validityS
      const validAfter = 0
      const packed = UserOperation.pack(op, {
        address: options.address,
        ...gas,
        data: validity(validUntil, validAfter),
      })
      const hash = await read(() =>
        client.readContract({
          address: options.address,
          abi,
          functionName: 'getHash',
          args: [packed, validUntil, validAfter],
        }),
      )
      const signature = await signer.signMessage({ message: { raw: hash } })
      return answer(gas, concat([validity(validUntil, validAfter), signature]))
    },
  }
}

function validity(validUntil: number, validAfter: number): Hex {
  return encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
}

function unreachable(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null
  )
}
