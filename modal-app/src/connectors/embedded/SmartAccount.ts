/**
 * The embedded wallet's smart accounts (ERC-4337 v0.8), owned by its EVM key, which never leaves the vault:
 * - `smartAccount`: an AirlockAccount the factory deploys at a counterfactual address (its first user
 *   operation deploys it), driven by permissionless's SimpleAccount, whose ABI it keeps;
 * - `eip7702`: the EOA itself, delegated (EIP-7702) to Airlock7702Account on its first user operation, so the
 *   address stays.
 * User operations go through the Airlock API's bundler route and, when sponsored, its paymaster route
 * (ERC-7677); chain reads through its relay. Loaded on demand, the first time a smart account is used.
 */
import { type Caip, Errors } from '@airlock/bridge-protocol'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  custom,
  defineChain,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  serializeErc6492Signature,
} from 'viem'
import {
  type BundlerClient,
  createBundlerClient,
  createPaymasterClient,
  entryPoint08Address,
  type PaymasterClient,
  type SmartAccount,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { smartAccountsUnsupported } from './AccountType.ts'
import type { Rpc } from './Rpc.ts'
import * as Signing from './Signing.ts'
import type { Wallet } from './Vault.ts'

/**
 * Where the dev stack deploys the contracts (devnet `accountAbstraction`): CREATE2 through the deterministic
 * deployer, so the same on every chain; `SmartAccount.test.ts` checks them against the devnet's.
 */
export const contracts = {
  entryPoint08: entryPoint08Address,
  accountFactory: '0xe19fF6dDFD5B330F94e0bd4d6AfcE8dCCede1022',
  account7702: '0x01495ee2087684f808ecA9E5e32DAB77c3A24786',
} as const satisfies Record<string, Address>

/** The smart account kinds; the plain EOA is the third account type. */
export type Kind = 'smartAccount' | 'eip7702'

/** A smart account on one chain, and the clients that read its chain and carry its user operations. */
export type Smart = {
  kind: Kind
  chainId: Caip.ChainId
  account: SmartAccount
  /** The embedded key, each signature borrowing the secret for just that call. */
  owner: PrivateKeyAccount
  /** Reads through the API's relay. */
  client: PublicClient
  /** The API's bundler route (`/v1/bundler/{chainId}`). */
  bundler: BundlerClient
  /** The API's paymaster route, or a dApp's ERC-7677 service (`url`). */
  paymaster(url?: string): PaymasterClient
  /** Whether the account's code is on chain: deployed (4337) or delegated to Airlock7702Account (7702). */
  deployed(): Promise<boolean>
}

/** A bundler or paymaster that has not answered in 20 s is taken as down, as a node is. */
const timeoutMs = 20_000

/** The AirlockAccount's salt: one account per key. */
const salt = 0n

const factoryAbi = [
  {
    type: 'function',
    name: 'getAddress',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'address' }],
  },
] as const

export type Options = {
  rpc: Rpc
  /** The API's URL of a path, with the project id (`Api.Client.endpoint`). */
  endpoint(path: string): string
}

/**
 * The wallet's smart account of `kind` on `chainId`. Throws 4200 with docs/behaviour.md §8's 'This application might not
 * support Smart Accounts' where the chain has no factory or 7702 implementation to use.
 * @example
 * const smart = await smartAccountFor(wallet, 'eip155:31337', 'smartAccount', { rpc, endpoint })
 * smart.account.address // the counterfactual address, deployed or not
 */
export async function smartAccountFor(
  wallet: Wallet,
  chainId: Caip.ChainId,
  kind: Kind,
  { rpc, endpoint }: Options,
): Promise<Smart> {
  const id = Number(chainId.slice('eip155:'.length))
  const chain = defineChain({
    id,
    name: chainId,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  })
  const client = createPublicClient({
    chain,
    // One try: a failed read already falls back to the key's own account (SmartAccounts), and viem's
    // backoff would hold a login for a second on a chain the API does not serve.
    transport: custom(
      { request: ({ method, params }) => rpc(chainId, method, params ?? []) },
      { retryCount: 0 },
    ),
  }) as PublicClient
  const owner = borrowingOwner(wallet)
  const implementation = kind === 'smartAccount' ? contracts.accountFactory : contracts.account7702
  const code = await client.getCode({ address: implementation })
  if (!code || code === '0x') throw new SmartAccountsUnsupportedError()
  const account =
    kind === 'smartAccount'
      ? await airlockAccount(client, owner)
      : await toSimple7702SmartAccount({ client, owner, implementation: contracts.account7702 })
  const route = (kind: 'bundler' | 'paymaster') =>
    http(endpoint(`/v1/${kind}/${chainId}`), { timeout: timeoutMs, retryCount: 0 })
  const bundler = createBundlerClient({
    chain,
    client,
    account,
    transport: route('bundler'),
    // The bundler's own price (Alto's), which it checks operations against; the node's where it has none.
    userOperation: {
      async estimateFeesPerGas({ bundlerClient }) {
        try {
          const { fast } = (await bundlerClient.request({
            method: 'pimlico_getUserOperationGasPrice',
          } as never)) as { fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }
          return {
            maxFeePerGas: BigInt(fast.maxFeePerGas),
            maxPriorityFeePerGas: BigInt(fast.maxPriorityFeePerGas),
          }
        } catch {
          return client.estimateFeesPerGas()
        }
      },
    },
  })
  return {
    kind,
    chainId,
    account,
    owner,
    client,
    bundler,
    paymaster: (url) =>
      createPaymasterClient({
        transport: url ? http(url, { timeout: timeoutMs, retryCount: 0 }) : route('paymaster'),
      }),
    async deployed() {
      const onChain = await client.getCode({ address: account.address })
      if (kind === 'smartAccount') return Boolean(onChain && onChain !== '0x')
      // EIP-7702's delegation designator: 0xef0100 then the implementation's address.
      return onChain?.toLowerCase() === `0xef0100${contracts.account7702.slice(2)}`.toLowerCase()
    },
  }
}

/** The product's error (docs/behaviour.md §8) for what a smart account cannot do (4200, as for any method the wallet does not support). */
export class SmartAccountsUnsupportedError extends Errors.UnsupportedMethodError {
  constructor() {
    super(smartAccountsUnsupported)
  }
}

/**
 * The AirlockAccount through permissionless's SimpleAccount (same ABI), at the factory's address for the
 * key (read from the factory, not simulated). Its signatures are the owner's over the hash the account
 * checks (ERC-1271), wrapped in ERC-6492 while it is not deployed, so a verifier can deploy it to check.
 */
async function airlockAccount(client: PublicClient, owner: PrivateKeyAccount): Promise<SmartAccount> {
  const address = await client.readContract({
    address: contracts.accountFactory,
    abi: factoryAbi,
    functionName: 'getAddress',
    args: [owner.address, salt],
  })
  const simple = await toSimpleSmartAccount({
    client,
    owner,
    address,
    index: salt,
    factoryAddress: contracts.accountFactory,
    entryPoint: { address: contracts.entryPoint08, version: '0.8' },
  })
  const wrapped = async (signature: Hex) => {
    const { factory, factoryData } = await simple.getFactoryArgs()
    return factory && factoryData
      ? serializeErc6492Signature({ address: factory, data: factoryData, signature })
      : signature
  }
  return {
    ...simple,
    signMessage: async ({ message }) => wrapped(await owner.signMessage({ message })),
    signTypedData: async (definition) =>
      wrapped(await owner.signTypedData(definition as Parameters<typeof owner.signTypedData>[0])),
  } as SmartAccount
}

/** The embedded EVM key as a viem account: every signature opens the vault for just that call. */
function borrowingOwner(wallet: Wallet): PrivateKeyAccount {
  const borrow = <T>(use: (key: PrivateKeyAccount) => Promise<T>) =>
    wallet.withSecret(async (secret) => use(await Signing.evmAccount(secret)))
  return {
    address: wallet.addresses.eip155 as Address,
    publicKey: '0x',
    source: 'privateKey',
    type: 'local',
    sign: (parameters) => borrow((key) => key.sign(parameters)),
    signAuthorization: (parameters) => borrow((key) => key.signAuthorization(parameters)),
    signMessage: (parameters) => borrow((key) => key.signMessage(parameters)),
    signTransaction: (transaction, options) => borrow((key) => key.signTransaction(transaction, options)),
    signTypedData: (parameters) => borrow((key) => key.signTypedData(parameters)),
  } as PrivateKeyAccount
}
