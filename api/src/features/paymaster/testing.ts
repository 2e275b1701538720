/**
 * Test support for the bundler and paymaster routes: the devnet (its EntryPoints, smart account factory and
 * verifying paymaster), Alto on chain A, and the API serving both routes for a sponsored project (`shop`,
 * with budgets no test reaches), one that is not (`free`) and any others a suite's policies name; with a
 * counterfactual AirlockAccount of a fresh owner, as the modal makes it.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type PublicClient,
  parseGwei,
} from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  formatUserOperationRequest,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as AccountAbstraction from '../../../../devnet/src/aa/AccountAbstraction.ts'
import * as Bundler from '../../../../devnet/src/aa/Bundler.ts'
import { accountAbstraction } from '../../../../devnet/src/Chains.ts'
import * as Devnet from '../../../../devnet/src/Devnet.ts'
import type * as Config from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { configOf, ether } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import type * as Sponsorship from './Sponsorship.ts'

export const chainId = 'eip155:31337'
export const sponsored = 'shop'
export const unsponsored = 'free'
export const shopOrigin = 'https://shop.example'

export type AaStack = Awaited<ReturnType<typeof start>>

/** A policy with budgets far over what a suite spends, in wei (the devnet's paymaster holds 100 ETH). */
export function roomy(projectId: string): Sponsorship.Sponsorship[number] {
  return {
    projectId,
    budget: { perDay: String(10n ** 19n), total: String(10n ** 19n), perSenderPerDay: String(10n ** 18n) },
  }
}

/**
 * @param options.bundlerUrl another bundler for the chain (a dead one), instead of Alto
 * @param options.policies the suite's own projects' policies, beside `shop`'s (whose gas cap `maxGas` sets)
 */
export async function start(
  options: { bundlerUrl?: string; maxGas?: number; policies?: Sponsorship.Sponsorship } = {},
) {
  const devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  const [chainA] = devnet.chains
  const bundler = options.bundlerUrl ? undefined : await Bundler.start({ rpcUrl: chainA.rpcUrl, port: 0 })
  const [pglite] = databases()
  if (!pglite) throw new Error('no test database')
  const db: Database = await pglite.open()
  await Projects.add(db, sponsored, [shopOrigin])
  await Projects.add(db, unsponsored, ['https://free.example'])
  const policies = options.policies ?? []
  for (const { projectId } of policies) await Projects.add(db, projectId, [`https://${projectId}.example`])
  const chain: Config.Chain = {
    id: chainId,
    name: 'Devnet A',
    rpcUrl: chainA.rpcUrl,
    nativeCurrency: ether,
    accountAbstraction: {
      bundlerUrl: options.bundlerUrl ?? bundler?.url ?? '',
      entryPoints: [accountAbstraction.entryPoint08, accountAbstraction.entryPoint07],
      paymaster: { address: accountAbstraction.paymaster, signerKey: AccountAbstraction.paymasterSignerKey },
    },
  }
  const config: Config.Config = {
    ...configOf([chain]),
    sponsorship: [
      { ...roomy(sponsored), ...(options.maxGas ? { maxGas: options.maxGas } : {}) },
      ...policies,
    ],
  }
  // The API's clock runs with the test's: a suite moves it on to let the base fee's cache lapse.
  let ahead = 0
  const clock = {
    now: () => Date.now() + ahead,
    advance(ms: number) {
      ahead += ms
    },
  }
  const api = await Service.listen(Service.create({ db, config, now: clock.now }), { apiPort: 0 })
  const client: PublicClient = createPublicClient({
    chain: chainA.chain,
    transport: http(chainA.rpcUrl),
    pollingInterval: 50,
  })
  const testClient = createTestClient({ mode: 'anvil', chain: chainA.chain, transport: http(chainA.rpcUrl) })
  const routeUrl = (route: 'bundler' | 'paymaster', projectId = sponsored) =>
    `${api.apiUrl}/v1/${route}/${chainId}?projectId=${projectId}`

  /** One JSON-RPC call to a route for `projectId`, as any client makes it. */
  const call = async <T>(
    route: 'bundler' | 'paymaster',
    method: string,
    params: unknown[],
    projectId?: string,
  ) => {
    const response = await fetch(routeUrl(route, projectId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return (await response.json()) as { result?: T; error?: { code: number; message: string } }
  }

  /** What an honest client offers by default here: a 2 gwei tip over three times the chain's base fee. */
  const chainFees = async () => {
    const { baseFeePerGas } = await client.getBlock()
    const tip = parseGwei('2')
    return { maxFeePerGas: (baseFeePerGas ?? 0n) * 3n + tip, maxPriorityFeePerGas: tip }
  }

  /**
   * A fresh counterfactual account's first operation making `calls` (or with that call data), at
   * {@link chainFees}, with its stub signature: what a client sends for a stub.
   */
  const draft = async (calls: readonly { to: Address; data?: Hex; value?: bigint }[] | Hex) => {
    const account = await newAccount()
    const { factory, factoryData } = await account.getFactoryArgs()
    const op: UserOperation<'0.8'> = {
      sender: account.address,
      nonce: 0n,
      factory,
      factoryData,
      callData:
        typeof calls === 'string'
          ? calls
          : await account.encodeCalls(
              calls.map(({ to, data, value }) => ({ to, value: value ?? 0n, data: data ?? '0x' })),
            ),
      callGasLimit: 0n,
      verificationGasLimit: 0n,
      preVerificationGas: 0n,
      ...(await chainFees()),
      signature: await account.getStubSignature(),
    }
    return { account, op }
  }

  /** One of ERC-7677's calls for `op`, on chain A's EntryPoint v0.8. */
  const paymaster = (
    method: 'pm_getPaymasterStubData' | 'pm_getPaymasterData',
    op: UserOperation<'0.8'>,
    projectId?: string,
  ) =>
    call<Answer>(
      'paymaster',
      method,
      [formatUserOperationRequest(op), accountAbstraction.entryPoint08, '0x7a69', {}],
      projectId,
    )

  /**
   * `op` with the paymaster's stub and the gas the bundler estimates for it, as an honest client asks for the
   * paymaster's data; the paymaster's refusal of the stub instead.
   */
  const estimated = async (op: UserOperation<'0.8'>, projectId?: string) => {
    const stub = await paymaster('pm_getPaymasterStubData', op, projectId)
    if (!stub.result) return { refused: stub.error }
    const withStub = { ...op, ...sponsorshipOf(stub.result) }
    const gas = await call<Record<'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas', Hex>>(
      'bundler',
      'eth_estimateUserOperationGas',
      [formatUserOperationRequest(withStub), accountAbstraction.entryPoint08],
      projectId,
    )
    if (!gas.result) throw new Error(`the bundler did not estimate: ${gas.error?.message}`)
    return {
      op: {
        ...withStub,
        callGasLimit: BigInt(gas.result.callGasLimit),
        verificationGasLimit: BigInt(gas.result.verificationGasLimit),
        preVerificationGas: BigInt(gas.result.preVerificationGas),
      },
    }
  }

  /** `pm_getPaymasterData` for `op`: the operation with the paymaster's part, or the refusal. */
  const sponsor = async (op: UserOperation<'0.8'>, projectId?: string) => {
    const answer = await paymaster('pm_getPaymasterData', op, projectId)
    return answer.result ? { op: { ...op, ...sponsorshipOf(answer.result) } } : { refused: answer.error }
  }

  /** A counterfactual AirlockAccount of a fresh owner: not deployed, no ETH. */
  const newAccount = () =>
    toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })

  /** The clients a dApp or the modal would use: the API's bundler and paymaster routes, for `projectId`. */
  const clientsFor = async (projectId = sponsored, paymaster = true) => {
    const account = await newAccount()
    const bundlerClient = createBundlerClient({
      account,
      client,
      transport: http(routeUrl('bundler', projectId), { retryCount: 0 }),
      ...(paymaster
        ? { paymaster: createPaymasterClient({ transport: http(routeUrl('paymaster', projectId)) }) }
        : {}),
      pollingInterval: 50,
    })
    return { account, bundlerClient }
  }

  /** What the paymaster holds at EntryPoint v0.8 to pay with. */
  const deposit = () =>
    client.readContract({
      address: accountAbstraction.entryPoint08,
      abi: [
        {
          type: 'function',
          name: 'balanceOf',
          stateMutability: 'view',
          inputs: [{ name: 'account', type: 'address' }],
          outputs: [{ type: 'uint256' }],
        },
      ],
      functionName: 'balanceOf',
      args: [accountAbstraction.paymaster as Address],
    })

  const stop = async () => {
    await api.stop()
    await bundler?.stop()
    await devnet.stop()
    await db.close()
  }
  return {
    devnet,
    db,
    config,
    rpcUrl: chainA.rpcUrl,
    client,
    testClient,
    api,
    routeUrl,
    clock,
    call,
    chainFees,
    draft,
    estimated,
    sponsor,
    newAccount,
    clientsFor,
    deposit,
    stop,
  }
}

/** ERC-7677's answer, quantities in hex. */
type Answer = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
}

function sponsorshipOf(answer: Answer) {
  return {
    paymaster: answer.paymaster,
    paymasterData: answer.paymasterData,
    paymasterVerificationGasLimit: BigInt(answer.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: BigInt(answer.paymasterPostOpGasLimit),
  }
}
