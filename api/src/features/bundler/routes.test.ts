import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Address, encodeErrorResult, encodeFunctionData } from 'viem'
import { formatUserOperationRequest } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstraction, testTokenAddress } from '../../../../devnet/src/Chains.ts'
import { testTokenAbi } from '../../../../devnet/src/TestToken.ts'
import type * as Config from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { configOf, ether } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Testing from '../paymaster/testing.ts'
import * as Projects from '../projects/Projects.ts'
import { messages, methods, timeoutMs } from './routes.ts'

const fresh: Address = '0x00000000000000000000000000000000000f7e54'

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

describe('POST /v1/bundler/{chainId} on the dev chain', () => {
  let aa: Testing.AaStack
  beforeAll(async () => {
    aa = await Testing.start()
  })
  afterAll(() => aa?.stop())

  it('relays ERC-4337 calls to the chain’s bundler, one or a batch', async () => {
    const served = [accountAbstraction.entryPoint08, accountAbstraction.entryPoint07]
    expect((await post(aa.routeUrl('bundler'), call('eth_supportedEntryPoints'))).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: served,
    })
    const batch = await post(aa.routeUrl('bundler'), [
      call('eth_chainId', [], 'a'),
      call('eth_supportedEntryPoints', [], 'b'),
    ])
    expect(batch.body).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'a', result: '0x7a69' },
        { jsonrpc: '2.0', id: 'b', result: served },
      ]),
    )
  })

  it('passes no other method, and a batch’s allowed calls still go through', async () => {
    expect(methods.has('eth_sendTransaction')).toBe(false)
    const answer = await post(aa.routeUrl('bundler'), [
      call('eth_sendTransaction', [{ to: testTokenAddress }], 1),
      call('debug_bundler_clearState', [], 2),
      call('eth_chainId', [], 3),
    ])
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(
      expect.arrayContaining([
        {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32601, message: 'The Airlock API does not relay eth_sendTransaction' },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          error: { code: -32601, message: 'The Airlock API does not relay debug_bundler_clearState' },
        },
        { jsonrpc: '2.0', id: 3, result: '0x7a69' },
      ]),
    )
  })

  it('refuses a project that is not configured and a chain without a bundler, asking nothing', async () => {
    const unknown = await post(aa.routeUrl('bundler', 'nope'), call('eth_chainId'))
    expect(unknown).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, error: { code: -32003, message: 'Project id not configured' } },
    })
    const chainB = aa.routeUrl('bundler').replace(Testing.chainId, 'eip155:31338')
    expect((await post(chainB, call('eth_chainId'))).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Unsupported chain: eip155:31338' },
    })
  })

  it('refuses an operation that reverts in simulation, with the bundler’s reason, before anything is signed', async () => {
    // The account holds no ALT: the token reverts InsufficientBalance(account, 0, 5).
    const { account, op } = await aa.draft([
      {
        to: testTokenAddress,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [fresh, 5n] }),
      },
    ])
    const reason = encodeErrorResult({
      abi: testTokenAbi,
      errorName: 'InsufficientBalance',
      args: [account.address, 0n, 5n],
    })
    const stub = await aa.call<Record<string, string>>('paymaster', 'pm_getPaymasterStubData', [
      formatUserOperationRequest(op),
      accountAbstraction.entryPoint08,
      '0x7a69',
    ])
    const { isFinal: _, ...paymaster } = stub.result ?? {}
    const estimated = await aa.call('bundler', 'eth_estimateUserOperationGas', [
      { ...formatUserOperationRequest(op), ...paymaster },
      accountAbstraction.entryPoint08,
    ])
    // Alto's own code for a reverting operation (ERC-7769's), passed through as it sent it.
    expect(estimated.error).toMatchObject({
      code: -32521,
      message: expect.stringContaining(reason.slice(2, 10)),
    })
    expect(await aa.client.getCode({ address: account.address })).toBeUndefined()
  })
})

describe('POST /v1/bundler/{chainId} when the bundler fails', () => {
  let db: Database
  let silent: Server
  const apps: Record<string, Service.App> = {}
  const sockets = { received: 0, closed: 0 }

  beforeAll(async () => {
    const [pglite] = databases()
    if (!pglite) throw new Error('no test database')
    db = await pglite.open()
    await Projects.add(db, 'shop', ['https://shop.example'])
    silent = createServer((request) => {
      sockets.received++
      request.socket.on('close', () => sockets.closed++)
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const rpcUrl = `http://127.0.0.1:${await closedPort()}`
    const chain = (bundlerUrl: string): Config.Chain => ({
      id: 'eip155:31337',
      name: 'Devnet A',
      rpcUrl,
      nativeCurrency: ether,
      accountAbstraction: { bundlerUrl, entryPoints: [accountAbstraction.entryPoint08] },
    })
    const down = `http://127.0.0.1:${await closedPort()}`
    const quiet = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    apps.down = Service.create({ db, config: configOf([chain(down)]) }).api
    apps.silent = Service.create({
      db,
      config: { ...configOf([chain(quiet)]), limits: { requestTimeoutMs: 1_000 } },
    }).api
  })
  afterAll(async () => {
    silent?.closeAllConnections()
    silent?.close()
    await db?.close()
  })

  const ask = async (app: Service.App, body: unknown) => {
    const started = Date.now()
    const response = await app.request('/v1/bundler/eip155:31337?projectId=shop', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as unknown, ms: Date.now() - started }
  }

  it('answers at once, with a JSON-RPC error naming the bundler, when it is down', async () => {
    const answer = await ask(
      apps.down as Service.App,
      call('eth_sendUserOperation', [{}, accountAbstraction.entryPoint08]),
    )
    expect(answer).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: messages.unavailable('eip155:31337') } },
    })
  })

  it('gives up on a silent bundler before the request’s own time-out, and lets it go', async () => {
    expect(timeoutMs).toBe(20_000)
    const answer = await ask(apps.silent as Service.App, [
      call('eth_chainId'),
      call('eth_supportedEntryPoints', [], 2),
    ])
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: messages.unavailable('eip155:31337') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: messages.unavailable('eip155:31337') } },
    ])
    // 1 s of request time-out, less the margin that lets this answer come first (a 200: the request's own
    // time-out would have been a 503).
    expect(answer.ms).toBeGreaterThanOrEqual(700)
    await expect.poll(() => sockets.closed).toBe(sockets.received)
  })
})
