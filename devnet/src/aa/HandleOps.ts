/**
 * User operations handed straight to EntryPoint v0.8's `handleOps`, as a bundler hands them, sponsored by the
 * devnet's paymaster with a signature made the way the API makes it (the contract's `getHash`, signed by
 * {@link AccountAbstraction.paymasterSignerKey}). The contracts' own tests use it, so what they check is the
 * on-chain path alone, with no bundler in between; gas limits are fixed, generous for the devnet's accounts.
 */
import {
  type Address,
  type Chain,
  type Client,
  concat,
  encodeAbiParameters,
  type Hex,
  type PublicClient,
  type SignedAuthorizationList,
  type TransactionReceipt,
  type Transport,
  type Account as ViemAccount,
  type WalletClient,
} from 'viem'
import {
  entryPoint08Abi,
  getUserOperationHash,
  type SmartAccount,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import {
  getBlock,
  readContract,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions'
import { accountAbstraction } from '../Chains.ts'
import { paymasterSignerKey } from './AccountAbstraction.ts'
import { verifyingPaymasterAbi } from './VerifyingPaymasterContract.ts'

export type Call = { to: Address; value?: bigint; data?: Hex }

/** A user operation for EntryPoint v0.8, signed or not. */
export type Operation = UserOperation<'0.8'>

/** The account's next operation making `calls`, with its factory while the account is not deployed; unsigned. */
export async function draft(
  client: PublicClient,
  account: SmartAccount,
  calls: readonly Call[],
): Promise<Operation> {
  const [nonce, callData, factoryArgs, block] = await Promise.all([
    account.getNonce(),
    account.encodeCalls(calls.map((call) => ({ ...call, data: call.data ?? '0x' }))),
    account.getFactoryArgs(),
    getBlock(client),
  ])
  const baseFee = block.baseFeePerGas ?? 0n
  return {
    sender: account.address,
    nonce,
    ...(factoryArgs.factory ? { factory: factoryArgs.factory, factoryData: factoryArgs.factoryData } : {}),
    callData,
    // A proxy's deployment and a session's bookkeeping fit well within these; a bundler would estimate.
    callGasLimit: 500_000n,
    verificationGasLimit: factoryArgs.factory ? 1_000_000n : 300_000n,
    preVerificationGas: 60_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerGas: baseFee * 2n + 1_000_000_000n,
    signature: '0x',
  }
}

export type SponsorOptions = {
  /** @default the devnet paymaster's signer */
  signerKey?: Hex
  /** Last second the sponsorship holds. @default an hour from now */
  validUntil?: number
}

/**
 * Adds the paymaster to `operation` and its signature over the contract's own `getHash`, which covers every
 * field but the paymaster data (so sponsor before the account signs: its hash covers the paymaster data).
 */
export async function sponsor(
  client: PublicClient,
  operation: Operation,
  options: SponsorOptions = {},
): Promise<Operation> {
  const validUntil = options.validUntil ?? Math.floor(Date.now() / 1000) + 3600
  const validAfter = 0
  const times = encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
  const withPaymaster: Operation = {
    ...operation,
    paymaster: accountAbstraction.paymaster,
    paymasterVerificationGasLimit: 100_000n,
    // The paymaster returns no context, so the EntryPoint never calls its postOp.
    paymasterPostOpGasLimit: 0n,
    paymasterData: times,
  }
  const hash = await readContract(client, {
    address: accountAbstraction.paymaster,
    abi: verifyingPaymasterAbi,
    functionName: 'getHash',
    args: [toPackedUserOperation(withPaymaster), validUntil, validAfter],
  })
  const signer = privateKeyToAccount(options.signerKey ?? paymasterSignerKey)
  const signature = await signer.signMessage({ message: { raw: hash } })
  return { ...withPaymaster, paymasterData: concat([times, signature]) }
}

/** The hash an account's signer signs (EIP-712 in v0.8): for a session key, its raw ECDSA signature over it. */
export function hashOf(operation: Operation, chainId: number): Hex {
  return getUserOperationHash({
    userOperation: operation,
    entryPointAddress: accountAbstraction.entryPoint08,
    entryPointVersion: '0.8',
    chainId,
  })
}

type Sender = WalletClient<Transport, Chain, ViemAccount>

export type SubmitOptions = {
  /** EIP-7702 authorizations to carry in the same transaction, as a bundler carries an op's `eip7702Auth`. */
  authorizationList?: SignedAuthorizationList
  /** Sends without estimating, so an operation the EntryPoint refuses still lands as a reverted transaction. */
  gas?: bigint
}

/** Sends `operations` to `handleOps` from `sender`, who is also the beneficiary of their fees. */
export async function submit(
  sender: Sender,
  operations: readonly Operation[],
  options: SubmitOptions = {},
): Promise<TransactionReceipt> {
  const hash = await writeContract(sender, {
    address: accountAbstraction.entryPoint08,
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [operations.map((operation) => toPackedUserOperation(operation)), sender.account.address],
    ...options,
  })
  return waitForTransactionReceipt(sender, { hash, pollingInterval: 50 })
}

/** Runs `handleOps` without sending it; rejects as the EntryPoint does, e.g. with `FailedOp(0, "AA24 …")`. */
export async function simulate(
  client: Client,
  operations: readonly Operation[],
  beneficiary: Address,
): Promise<void> {
  await simulateContract(client, {
    address: accountAbstraction.entryPoint08,
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [operations.map((operation) => toPackedUserOperation(operation)), beneficiary],
    account: beneficiary,
  })
}
