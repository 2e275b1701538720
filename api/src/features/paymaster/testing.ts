/**
 * Test support for the bundler and paymaster routes: the devnet (its EntryPoints, smart account factory and
 * verifying paymaster), Alto on chain A, and the API serving both routes for a sponsored project (`shop`)
 * and one that is not (`free`); with a counterfactual AirlockAccount of a fresh owner, as the modal makes it.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, createPublicClient, createTestClient, http, type PublicClient } from 'viem'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
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

export const chainId = 'eip155:31337'
const sponsored = 'shop'
export const unsponsored = 'free'
export const shopOrigin = 'https://shop.example'

export type AaStack = Awaited<ReturnType<typeof start>>

/**
 * @param options.bundlerUrl another bundler for the chain (a dead one), instead of Alto
 * @param options.maxGas the sponsored project's gas cap
 */
export async function start(options: { bundlerUrl?: string; maxGas?: number } = {}) {
  const devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  const [chainA] = devnet.chains
  const bundler = options.bundlerUrl ? undefined : await Bundler.start({ rpcUrl: chainA.rpcUrl, port: 0 })
  const [pglite] = databases()
  if (!pglite) throw new Error('no test database')
  const db: Database = await pglite.open()
  await Projects.add(db, sponsored, [shopOrigin])
  await Projects.add(db, unsponsored, ['https://free.example'])
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
    sponsorship: [{ projectId: sponsored, ...(options.maxGas ? { maxGas: options.maxGas } : {}) }],
  }
  const api = await Service.listen(Service.create({ db, config }), { apiPort: 0 })
  const client: PublicClient = createPublicClient({
    chain: chainA.chain,
    transport: http(chainA.rpcUrl),
    pollingInterval: 50,
  })
  const testClient = createTestClient({ mode: 'anvil', chain: chainA.chain, transport: http(chainA.rpcUrl) })
  const routeUrl = (route: 'bundler' | 'paymaster', projectId = sponsored) =>
    `${api.apiUrl}/v1/${route}/${chainId}?projectId=${projectId}`

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
    rpcUrl: chainA.rpcUrl,
    client,
    testClient,
    api,
    routeUrl,
    newAccount,
    clientsFor,
    deposit,
    stop,
  }
}
