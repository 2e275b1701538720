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
 * The paymaster's own gas, always these whatever a client names (the EntryPoint takes a tenth of the postOp
 * gas left unused from the deposit): its validation reads the operation's hash and recovers one signature;
 * it keeps no context, so the EntryPoint never calls its `postOp`.
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
  /** The paymaster's part of an operation to estimate with: its gas, and data whose signature fails. */
  stubPart: UserOperation.PaymasterPart
  stub(): Sponsorship & { isFinal: false }
  /**
   * Signs `op` for {@link validityS} seconds: ERC-7677's answer, the paymaster part it makes of the
   * operation, and the last second the EntryPoint takes it.
   * @throws {RpcError} when the chain cannot be asked for the hash
   */
  sign(
    op: UserOperation.UserOperation,
  ): Promise<{ answer: Sponsorship; part: UserOperation.PaymasterPart; validUntil: number }>
}

/**
 * @example
 * const paymaster = Paymaster.create({ chainId: 'eip155:31337', rpcUrl, address, signerKey, timeoutMs: 10_000 })
 * const { answer } = await paymaster.sign(op) // { paymaster, paymasterData, paymasterVerificationGasLimit, … }
 */
export function create(options: PaymasterOptions): Paymaster {
  const now = options.now ?? Date.now
  const signer = privateKeyToAccount(options.signerKey)
  const client = evmClient(options.rpcUrl, { retryCount: 0, timeoutMs: options.timeoutMs })
  let entryPoint: Promise<Address> | undefined
  const part = (data: Hex): UserOperation.PaymasterPart => ({ address: options.address, ...gasLimits, data })
  const stubPart = part(concat([validity(0, 0), dummySignature]))
  const answer = ({ address, verification, postOp, data }: UserOperation.PaymasterPart): Sponsorship => ({
    paymaster: address,
    paymasterData: data,
    paymasterVerificationGasLimit: numberToHex(verification),
    paymasterPostOpGasLimit: numberToHex(postOp),
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
    stubPart,
    stub: () => ({ ...answer(stubPart), isFinal: false }),
    async sign(op) {
      const validUntil = Math.floor(now() / 1000) + validityS
      const validAfter = 0
      const packed = UserOperation.pack(op, part(validity(validUntil, validAfter)))
      const hash = await read(() =>
        client.readContract({
          address: options.address,
          abi,
          functionName: 'getHash',
          args: [packed, validUntil, validAfter],
        }),
      )
      const signature = await signer.signMessage({ message: { raw: hash } })
      const signed = part(concat([validity(validUntil, validAfter), signature]))
      return { answer: answer(signed), part: signed, validUntil }
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
