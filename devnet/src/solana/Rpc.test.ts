import { createServer } from 'node:net'
import {
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Solana from './Solana.ts'

type Reply = {
  jsonrpc: string
  id: unknown
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

const finalizedDepth = 4
let chain: Solana.Instance
let payer: KeyPairSigner

beforeAll(async () => {
  chain = await Solana.start({ port: 0, slotMs: 50, finalizedDepth })
  payer = await generateKeyPairSigner()
  await chain.fund([payer.address])
})

afterAll(() => chain?.stop())

async function post(body: string): Promise<Response> {
  return fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
}

async function call(method: string, params?: unknown): Promise<Reply> {
  const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }))
  return (await response.json()) as Reply
}

async function latestBlockhash(): Promise<Blockhash> {
  const reply = await call('getLatestBlockhash', [{ commitment: 'processed' }])
  return (reply.result as { value: { blockhash: Blockhash } }).value.blockhash
}

/** A signed v0 transfer; `amount` keeps signatures apart. */
async function transfer(amount: bigint, blockhash?: Blockhash) {
  const lifetime = { blockhash: blockhash ?? (await latestBlockhash()), lastValidBlockHeight: 0n }
  const to = (await generateKeyPairSigner()).address
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: payer, destination: to, amount }),
          m,
        ),
    ),
  )
  return {
    wire: getBase64EncodedWireTransaction(transaction),
    signature: getSignatureFromTransaction(transaction),
  }
}

async function status(signature: string): Promise<{ confirmationStatus: string } | null> {
  const reply = await call('getSignatureStatuses', [[signature]])
  return (reply.result as { value: [{ confirmationStatus: string } | null] }).value[0]
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

describe('the JSON-RPC envelope', () => {
  it('answers unparsable JSON with -32700 and a null id', async () => {
    expect(await (await post('{"jsonrpc":')).json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
      id: null,
    })
  })

  it('answers an empty batch and a request without jsonrpc 2.0 with -32600', async () => {
    expect(((await (await post('[]')).json()) as Reply).error?.code).toBe(-32600)
    const reply = (await (await post('{"id":3,"method":"getSlot"}')).json()) as Reply
    expect(reply).toMatchObject({ id: 3, error: { code: -32600 } })
  })

  it('answers an unknown method with -32601 under the request id', async () => {
    expect(await call('getEverything')).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 7,
    })
  })

  it('answers bad params with -32602 and says which one', async () => {
    expect((await call('getBalance', ['not-an-address'])).error).toEqual({
      code: -32602,
      message: 'Invalid param: address `not-an-address` is not a valid address',
    })
    expect((await call('getBalance', [payer.address, { commitment: 'soon' }])).error?.message).toMatch(
      /unknown commitment `soon`/,
    )
    expect((await call('getBalance', { address: payer.address })).error?.code).toBe(-32602)
    expect((await call('sendTransaction', ['@@@', { encoding: 'base64' }])).error?.message).toMatch(/base64/)
    expect((await call('getTransaction', ['1'.repeat(64), { commitment: 'processed' }])).error).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    })
  })

  it('answers a batch in order and leaves notifications out', async () => {
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'getHealth' },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
      { jsonrpc: '2.0', id: 'c', method: 'getGenesisHash' },
    ])
    const replies = (await (await post(body)).json()) as Reply[]
    expect(replies.map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(replies[0]?.result).toBe('ok')
    expect(replies[1]?.error?.code).toBe(-32601)
    expect(replies[2]?.result).toBe(Solana.genesisHash)
    expect(await (await post('{"jsonrpc":"2.0","method":"getSlot"}')).text()).toBe('')
  })

  it('serves CORS preflights and /health, refuses GET and oversized bodies', async () => {
    const preflight = await fetch(chain.rpcUrl, { method: 'OPTIONS' })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(await (await fetch(`${chain.rpcUrl}/health`)).text()).toBe('ok')
    expect((await fetch(chain.rpcUrl)).status).toBe(405)
    expect((await post(`"${'x'.repeat(2 * 1024 * 1024)}"`)).status).toBe(413)
  })
})

describe('sending', () => {
  it('refuses an unknown blockhash in preflight with -32002 and the simulation', async () => {
    const { wire } = await transfer(
      1_000_000n,
      getBase58Decoder().decode(new Uint8Array(32).fill(7)) as Blockhash,
    )
    const reply = await call('sendTransaction', [wire, { encoding: 'base64' }])
    expect(reply.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
      data: { err: 'BlockhashNotFound', logs: [], accounts: null },
    })
  })

  it('refuses a bad signature with -32003', async () => {
    const { wire } = await transfer(1_000_001n)
    const bytes = Buffer.from(wire, 'base64')
    bytes[5] = (bytes[5] ?? 0) ^ 0xff
    const reply = await call('sendTransaction', [bytes.toString('base64'), { encoding: 'base64' }])
    expect(reply.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' })
  })

  it('takes base58 by default, and refuses the same transaction twice', async () => {
    const { wire, signature } = await transfer(1_000_002n)
    const base58 = getBase58Decoder().decode(Buffer.from(wire, 'base64'))
    expect((await call('sendTransaction', [base58])).result).toBe(signature)
    expect((await call('sendTransaction', [wire, { encoding: 'base64' }])).error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: This transaction has already been processed',
    })
  })

  it('moves a landed transaction from processed to confirmed to finalized as slots pass', async () => {
    const { wire, signature } = await transfer(1_000_003n)
    // One batch runs without yielding to the slot timer, so the status is read in the slot the transfer landed in.
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [wire, { encoding: 'base64' }] },
      { jsonrpc: '2.0', id: 2, method: 'getSignatureStatuses', params: [[signature]] },
    ])
    const [sent, first] = (await (await post(batch)).json()) as Reply[]
    expect(sent?.result).toBe(signature)
    const firstStatus = first?.result as { value: [{ confirmationStatus: string }] } | undefined
    const seen = [firstStatus?.value[0].confirmationStatus]
    for (let i = 0; i < 400 && seen.at(-1) !== 'finalized'; i++) {
      const current = (await status(signature))?.confirmationStatus
      if (current && current !== seen.at(-1)) seen.push(current)
      await sleep(5)
    }
    expect(seen).toEqual(['processed', 'confirmed', 'finalized'])
  })

  it('asks for maxSupportedTransactionVersion before returning a v0 transaction', async () => {
    const { wire, signature } = await transfer(1_000_004n)
    await call('sendTransaction', [wire, { encoding: 'base64' }])
    // Confirmed, so the refusal below is about the version and not about a transaction not found yet.
    await vi.waitFor(async () =>
      expect(['confirmed', 'finalized']).toContain((await status(signature))?.confirmationStatus),
    )
    const reply = await call('getTransaction', [signature, { commitment: 'confirmed' }])
    expect(reply.error?.code).toBe(-32015)
  })

  it('simulates an unsigned transaction, and refuses it with -32003 under sigVerify', async () => {
    const { wire } = await transfer(1_000_007n)
    const unsigned = Buffer.from(wire, 'base64')
    unsigned.fill(0, 1, 65)
    const text = unsigned.toString('base64')
    const reply = await call('simulateTransaction', [
      text,
      { encoding: 'base64', replaceRecentBlockhash: true },
    ])
    expect(reply.result).toMatchObject({ value: { err: null, unitsConsumed: 150, replacementBlockhash: {} } })
    expect(
      (await call('simulateTransaction', [text, { encoding: 'base64', sigVerify: true }])).error?.code,
    ).toBe(-32003)
  })

  it('reports the fee of a message with getFeeForMessage', async () => {
    const { wire } = await transfer(1_000_005n)
    const bytes = Buffer.from(wire, 'base64')
    const message = bytes.subarray(1 + 64).toString('base64')
    const reply = await call('getFeeForMessage', [message, { commitment: 'processed' }])
    expect((reply.result as { value: number }).value).toBe(5_000)
  })
})

describe('accounts', () => {
  it('encodes small accounts in base58 and refuses base58 past 128 bytes', async () => {
    const mint = await call('getAccountInfo', [chain.usdcMint, { encoding: 'base58' }])
    const data = (mint.result as { value: { data: [string, string] } }).value.data
    expect(data[1]).toBe('base58')
    expect(getBase58Encoder().encode(data[0]).length).toBe(82)
    const [tokenAccount] = await tokenAccounts(payer.address)
    const reply = await call('getAccountInfo', [tokenAccount, { encoding: 'base58' }])
    expect(reply.error).toEqual({
      code: -32600,
      message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
    })
  })

  it('answers -32016 while minContextSlot is ahead of the chain', async () => {
    const reply = await call('getBalance', [payer.address, { minContextSlot: 1e9 }])
    expect(reply.error).toMatchObject({ code: -32016, message: 'Minimum context slot has not been reached' })
  })
})

async function tokenAccounts(owner: Address): Promise<string[]> {
  const reply = await call('getTokenAccountsByOwner', [
    owner,
    { mint: chain.usdcMint },
    { encoding: 'base64' },
  ])
  return (reply.result as { value: { pubkey: string }[] }).value.map((entry) => entry.pubkey)
}

describe('pubsub', () => {
  async function socket(url: string) {
    const ws = new WebSocket(url)
    const frames: Reply[] = []
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Reply))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const next = async (predicate: (frame: Reply) => boolean) => {
      for (let i = 0; i < 400; i++) {
        const found = frames.find(predicate)
        if (found) return found
        await sleep(5)
      }
      throw new Error('no such frame')
    }
    return { ws, frames, next }
  }

  it('notifies signatureSubscribe at finalized only once the transaction is finalized', async () => {
    const { ws, next } = await socket(chain.wsUrl)
    const { wire, signature } = await transfer(1_000_006n)
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'signatureSubscribe',
        params: [signature, { commitment: 'finalized' }],
      }),
    )
    const subscription = (await next((f) => f.id === 1)).result
    await call('sendTransaction', [wire, { encoding: 'base64' }])

    const notification = (await next((f) => 'method' in f)) as unknown as { method: string; params: unknown }

    expect(notification.method).toBe('signatureNotification')
    expect(notification.params).toMatchObject({ subscription, result: { value: { err: null } } })
    expect(await status(signature)).toMatchObject({ confirmationStatus: 'finalized' })
    ws.close()
  })

  it('upgrades on the RPC port too, and refuses an unknown subscription id', async () => {
    const { ws, next } = await socket(chain.rpcUrl.replace('http', 'ws'))
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'accountUnsubscribe', params: [424242] }))
    expect((await next((f) => f.id === 2)).error).toEqual({
      code: -32602,
      message: 'Invalid subscription id.',
    })
    ws.close()
  })
})

describe('lifecycle', () => {
  it('says which port is taken instead of starting', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const address = blocker.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await expect(Solana.start({ port })).rejects.toThrow(
      `Solana RPC port ${port} on 127.0.0.1 is already in use`,
    )
    await new Promise((resolve) => blocker.close(resolve))
  })

  it('serves HTTP and WebSocket on one port when told to, and stops twice without complaint', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const address = probe.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await new Promise((resolve) => probe.close(resolve))
    const single = await Solana.start({ port, wsPort: port })
    expect(single.wsUrl).toBe(`ws://127.0.0.1:${port}`)
    expect(await (await fetch(`${single.rpcUrl}/health`)).text()).toBe('ok')
    await Promise.all([single.stop(), single.stop()])
    await expect(fetch(`${single.rpcUrl}/health`)).rejects.toThrow()
  })
})
