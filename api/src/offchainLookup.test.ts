/**
 * An attacker's contract on anvil that answers every call with EIP-3668's `OffchainLookup`, naming a
 * listener on this machine: whatever route reads it (smart sessions' `sessionOf`, ENS through a name or a
 * reverse record pointed at it), the API never asks the listener, unless the configuration lists its origin
 * as an internal gateway.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  labelhash,
  namehash,
  parseAbi,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { waitForTransactionReceipt } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Ens from '../../devnet/src/ens/Ens.ts'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Accounts, Devnet, ens } from '../../devnet/src/index.ts'
import * as Database from './Database.ts'
import { devnetConfig } from './features/names/testing.ts'
import * as Projects from './features/projects/Projects.ts'
import { closedPort } from './internal/closedPort.ts'
import { compile } from './internal/solidity.ts'
import { calls, shop } from './internal/testApi.ts'
import * as Service from './Service.ts'

const trapSource = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract OffchainLookupTrap {
  error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
  event SessionGranted(
    address indexed key, address target, bytes4 selector, uint128 limit, uint48 validUntil, uint128 gasAllowance
  );
  string[] private urls;

  constructor(string[] memory urls_) {
    for (uint256 i = 0; i < urls_.length; i++) urls.push(urls_[i]);
    // As an account that granted a session key: the API's list reads sessionOf(key) here.
    emit SessionGranted(address(0xBEEF), address(this), 0xa9059cbb, 1, type(uint48).max, 1);
  }

  fallback(bytes calldata input) external returns (bytes memory) {
    revert OffchainLookup(address(this), urls, input, this.answer.selector, "");
  }

  function answer(bytes calldata response, bytes calldata) external pure returns (bytes memory) {
    return response;
  }
}
`

const reverseRegistrarAbi = parseAbi([
  'function claimWithResolver(address owner, address resolver) returns (bytes32)',
])

let devnet: Devnet.Instance
let listener: Server
let listenerOrigin: string
/** What the listener was asked: the requests the API should never have made. */
const asked: string[] = []
let trap: Address
let attacker: Address
let db: Database.Database

beforeAll(async () => {
  listener = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`)
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"0x"}')
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  listenerOrigin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
  devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  const { chain, rpcUrl } = devnet.chains[0]
  const owner = privateKeyToAccount(generatePrivateKey())
  attacker = owner.address
  await createTestClient({ chain, mode: 'anvil', transport: http(rpcUrl) }).setBalance({
    address: attacker,
    value: parseEther('1'),
  })
  const wallet = createWalletClient({ account: owner, chain, transport: http(rpcUrl) })
  const { OffchainLookupTrap } = compile('OffchainLookupTrap.sol', trapSource)
  if (!OffchainLookupTrap) throw new Error('solc produced no OffchainLookupTrap')
  const mined = async (hash: Hex) => {
    const receipt = await waitForTransactionReceipt(wallet, { hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    return receipt
  }
  const deployed = await mined(
    await wallet.deployContract({
      abi: OffchainLookupTrap.abi,
      bytecode: OffchainLookupTrap.bytecode,
      args: [[`${listenerOrigin}/{sender}/{data}.json`, `${listenerOrigin}/post`]],
    }),
  )
  trap = deployed.contractAddress as Address
  // trap.eth resolves through the trap (account 0 holds `eth` on the devnet), and so does the attacker's
  // reverse record: anyone can point their own at any resolver.
  const deployer = privateKeyToAccount(Accounts.all()[0]?.privateKey ?? '0x')
  await mined(
    await createWalletClient({ account: deployer, chain, transport: http(rpcUrl) }).writeContract({
      address: ens.registry,
      abi: Ens.registryAbi,
      functionName: 'setSubnodeRecord',
      args: [namehash('eth'), labelhash('trap'), deployer.address, trap, 0n],
    }),
  )
  await mined(
    await wallet.writeContract({
      address: ens.reverseRegistrar,
      abi: reverseRegistrarAbi,
      functionName: 'claimWithResolver',
      args: [attacker, trap],
    }),
  )
  db = await Database.open({ url: undefined, dataDir: 'memory://' })
  await Projects.add(db, 'demo', [shop])
}, 120_000)
afterAll(async () => {
  await db?.close()
  await devnet?.stop()
  listener?.closeAllConnections()
  await new Promise((resolve) => listener?.close(resolve))
})

/** The API on the devnet's chains, with ENS on chain A and these internal gateways. */
const api = (internalGateways: string[]) =>
  calls(() => Service.create({ db, config: devnetConfig(devnet, internalGateways) }).api)

describe('a contract that answers OffchainLookup naming a URL on this machine', () => {
  it('gets no request from the smart sessions list, which reads sessionOf on it', async () => {
    const { get } = api([])
    const answer = await get(`/v1/sessions/${trap}?chainId=eip155:31337&projectId=demo`)
    expect(answer.status).not.toBe(200)
    expect(asked).toEqual([])
  })

  it('gets no request from ENS, through a name or a reverse record it resolves', async () => {
    const { json } = api([])
    expect(await json('/v1/profile/account/trap.eth?projectId=demo')).toEqual({
      status: 502,
      body: { message: 'Error resolving name' },
    })
    expect((await json(`/v1/profile/reverse/${attacker}?projectId=demo`)).status).toBe(502)
    expect(await json(`/v1/identity/${attacker}?projectId=demo`)).toEqual({
      status: 200,
      body: { name: null, avatar: null },
    })
    expect(asked).toEqual([])
  })

  it('is asked once its origin is listed as an internal gateway: the listener would have seen the others', async () => {
    const { get } = api([listenerOrigin])
    await get('/v1/profile/account/trap.eth?projectId=demo')
    expect(asked[0]).toMatch(new RegExp(`^GET /${trap.toLowerCase()}/0x[0-9a-f]+\\.json$`))
    asked.splice(0)
  })
})
