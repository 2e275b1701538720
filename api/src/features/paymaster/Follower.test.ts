/**
 * The follower on the devnet's chains: operations the devnet's paymaster sponsors (signed the way the API
 * signs, sent to `handleOps` by a relayer), their reservations held in the ledger as the route holds them,
 * and what the follower makes of the EntryPoint's events.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as HandleOps from '../../../../devnet/src/aa/HandleOps.ts'
import { accountAbstraction } from '../../../../devnet/src/Chains.ts'
import * as Devnet from '../../../../devnet/src/Devnet.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { databases } from '../../internal/testing.ts'
import * as Follower from './Follower.ts'
import * as Ledger from './Ledger.ts'

const budget = { perDay: parseEther('1'), total: parseEther('1'), perSenderPerDay: parseEther('1') }
const bob: Address = '0x00000000000000000000000000000000000b0b00'

let devnet: Devnet.Instance
let db: Database
beforeAll(async () => {
  devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  const [pglite] = databases()
  if (!pglite) throw new Error('no test database')
  db = await pglite.open()
}, 120_000)
afterAll(async () => {
  await db?.close()
  await devnet?.stop()
})

/** Chain `index` of the devnet, a relayer funded there (it bundles), and a follower of it into the ledger. */
async function onChain(index: 0 | 1) {
  const running = devnet.chains[index]
  const client: PublicClient = createPublicClient({
    chain: running.chain,
    transport: http(running.rpcUrl),
    pollingInterval: 50,
  })
  const testClient = createTestClient({
    mode: 'anvil',
    chain: running.chain,
    transport: http(running.rpcUrl),
  })
  const relayer = privateKeyToAccount(generatePrivateKey())
  await testClient.setBalance({ address: relayer.address, value: parseEther('10') })
  const follower = Follower.create({
    db,
    chainId: running.caipNetworkId,
    client,
    paymaster: accountAbstraction.paymaster,
    entryPoint: async () => accountAbstraction.entryPoint08,
  })
  const caughtUp = async () => {
    while ((await follower.step()) !== 'idle');
  }

  /** A fresh account's sponsored operation, held in the ledger for `projectId` as the route holds it. */
  const signed = async (projectId: string, validUntil: number) => {
    const account = await toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    const draft = await HandleOps.draft(client, account, [{ to: bob }])
    const sponsored = await HandleOps.sponsor(client, draft, { validUntil })
    const operation = { ...sponsored, signature: await account.signUserOperation(sponsored) }
    const maxCost =
      (operation.callGasLimit +
        operation.verificationGasLimit +
        operation.preVerificationGas +
        (operation.paymasterVerificationGasLimit ?? 0n)) *
      operation.maxFeePerGas
    const reservation = {
      userOpHash: HandleOps.hashOf(operation, running.chainId),
      chainId: running.caipNetworkId,
      projectId,
      sender: account.address,
      nonce: operation.nonce,
      day: Ledger.dayOf(Date.now()),
      maxCost,
      validUntil,
    }
    expect(await Ledger.reserve(db, reservation, budget)).toBeUndefined()
    return { operation, maxCost }
  }

  /** Bundles `operation` and answers what the EntryPoint charged for it. */
  const bundle = async (operation: HandleOps.Operation) => {
    const sender = createWalletClient({
      account: relayer,
      chain: running.chain,
      transport: http(running.rpcUrl),
    })
    const receipt = await HandleOps.submit(sender, [operation])
    const [event] = parseEventLogs({ abi: [Follower.userOperationEvent], logs: receipt.logs })
    if (!event) throw new Error('the EntryPoint ran no operation')
    return event.args.actualGasCost
  }
  return { client, testClient, follower, caughtUp, signed, bundle }
}

describe('Follower', () => {
  it('counts what the EntryPoint charged in place of the reservation, and lets go of the rest once the chain is past them', async () => {
    const chain = await onChain(0)
    await chain.caughtUp()
    const now = Math.floor(Date.now() / 1000)
    const included = await chain.signed('follows', now + 600)
    const unused = await chain.signed('follows', now + 600)
    const charged = await chain.bundle(included.operation)
    await chain.caughtUp()

    expect(charged).toBeGreaterThan(0n)
    expect(charged).toBeLessThan(included.maxCost)
    const [spend] = await Ledger.spend(db, 'follows', Ledger.dayOf(Date.now()))
    expect(spend).toMatchObject({
      total: { cost: charged, operations: 1 },
      today: { cost: charged, operations: 1 },
      reserved: unused.maxCost,
    })
    expect(chain.follower.settled).toBe(1)

    // A block past the unused signature's validUntil: the EntryPoint would refuse it now.
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(now + 601) })
    await chain.testClient.mine({ blocks: 1 })
    await chain.caughtUp()
    expect((await Ledger.spend(db, 'follows', Ledger.dayOf(Date.now())))[0]).toMatchObject({
      total: { cost: charged, operations: 1 },
      reserved: 0n,
    })
  }, 60_000)

  it('steps back over a block the chain no longer has, and counts nothing twice', async () => {
    const chain = await onChain(1)
    const { operation } = await chain.signed('rewinds', Math.floor(Date.now() / 1000) + 600)
    const charged = await chain.bundle(operation)
    await chain.caughtUp()
    // As after a reorg (or a devnet started afresh): the block the cursor names is not the chain's.
    await db.query("update sponsorship_cursors set hash = '0x00' where chain_id = $1", [
      devnet.chains[1].caipNetworkId,
    ])
    expect(await chain.follower.step()).toBe('rewound')
    await chain.caughtUp()
    const [spend] = await Ledger.spend(db, 'rewinds', Ledger.dayOf(Date.now()))
    expect(spend?.total).toEqual({ cost: charged, operations: 1 })
  }, 60_000)
})
