/**
 * A phone wallet for the journeys: a real WalletConnect `SignClient` in the test process, on the local relay,
 * with an anvil account (viem) and a Solana key. It pairs from the URI the modal shows, approves what the
 * modal proposes, and answers requests — or rejects them when told to — the way a wallet app does. Asked to,
 * it batches (EIP-5792) as an EOA wallet app can: it sends a batch's calls one by one, and answers for them.
 */
import { randomUUID } from 'node:crypto'
import * as SignClientStorage from '@airlock/modal-app/sign-client-storage'
import { ed25519 } from '@noble/curves/ed25519'
import { SignClient } from '@walletconnect/sign-client'
import bs58 from 'bs58'
import { type Chain, createPublicClient, createWalletClient, type Hex, http, isHex, numberToHex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { bitcoinKeyFromPrivateKey, signBitcoinMessage } from './keys.ts'

export type PeerOptions = {
  relayUrl: string
  privateKey: Hex
  /** EVM chains the wallet can sign on, with their RPC URLs. */
  chains: readonly Chain[]
  /** 32-byte ed25519 seed of the Solana account. */
  solanaSeed?: Uint8Array
  /** secp256k1 key (hex) of the Bitcoin account, a P2WPKH address of the devnet's chain (rltc). */
  bitcoinKeyHex?: string
  name?: string
  /** Approves and answers wallet_sendCalls, wallet_getCapabilities and wallet_getCallsStatus (EIP-5792). */
  batches?: boolean
}

/** A batch as EIP-5792's wallet_sendCalls carries it. */
type Batch = { chainId: Hex; id?: string; calls: { to: Hex; value?: Hex; data?: Hex }[] }

export type Peer = {
  account: PrivateKeyAccount
  solanaAddress: string
  bitcoin: { address: string; publicKeyHex: string }
  /** Every request the wallet received, by method. */
  requests: string[]
  /** Every batch wallet_sendCalls handed it, as received. */
  batches: unknown[]
  /** From now on, requests are refused (4001) or answered. */
  setMode(mode: 'approve' | 'reject'): void
  /** Scans the URI: pairs, and approves the proposal with every chain the wallet supports. */
  pair(uri: string): Promise<{ topic: string }>
  /** Ends the session from the wallet's side. */
  disconnect(topic: string): Promise<void>
  /** Sends a session event, as a wallet does when the user switches chain or account. */
  emit(topic: string, chainId: string, name: string, data: unknown): Promise<void>
  stop(): Promise<void>
}

/**
 * @example
 * const peer = await createPeer({ relayUrl: 'ws://127.0.0.1:8790', privateKey, chains: [devnetA] })
 * const { topic } = await peer.pair(uri)
 */
export async function createPeer(options: PeerOptions): Promise<Peer> {
  const name = options.name ?? 'Airlock Phone Wallet'
  const client = await SignClient.init({
    projectId: 'airlock-e2e',
    relayUrl: options.relayUrl,
    logger: 'silent',
    telemetryEnabled: false,
    storage: SignClientStorage.memory(),
    // sign-client shares one core per storage prefix in a process; each peer gets its own.
    customStoragePrefix: `peer-${randomUUID()}`,
    metadata: { name, description: 'Test wallet', url: 'https://wallet.airlock.test', icons: [] },
  })
  // Offline, Verify would stall each proposal and request on its 5 s time-out.
  Object.assign(client.core.verify, { isDevEnv: true })
  const account = privateKeyToAccount(options.privateKey)
  const seed = options.solanaSeed ?? new Uint8Array(32).fill(7)
  const solanaPublicKey = ed25519.getPublicKey(seed)
  const solanaAddress = bs58.encode(solanaPublicKey)
  const bitcoinKeyHex = options.bitcoinKeyHex ?? '11'.repeat(32)
  const bitcoinKey = bitcoinKeyFromPrivateKey(bitcoinKeyHex, 'devnet')
  const bitcoin = {
    address: bitcoinKey.address,
    publicKeyHex: Buffer.from(bitcoinKey.publicKey).toString('hex'),
  }
  const requests: string[] = []
  const batches: unknown[] = []
  /** The transactions each batch became, by its id. */
  const sent = new Map<string, { chain: Chain; hashes: Hex[] }>()
  let mode: 'approve' | 'reject' = 'approve'

  const chainOf = (caip: string) => options.chains.find((chain) => `eip155:${chain.id}` === caip)

  client.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown }
    requests.push(method)
    const respond = (result: unknown) => client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
    const fail = (code: number, message: string) =>
      client.respond({ topic, response: { id, jsonrpc: '2.0', error: { code, message } } })
    if (mode === 'reject') return fail(4001, 'User rejected the request.')
    try {
      return await respond(await answer(method, args, params.chainId))
    } catch (error) {
      return fail((error as { code?: number }).code ?? -32603, (error as Error).message)
    }
  })

  async function answer(method: string, args: unknown, chainId: string): Promise<unknown> {
    const list = Array.isArray(args) ? args : []
    switch (method) {
      case 'personal_sign': {
        const message = list[0] as string
        return account.signMessage({ message: isHex(message) ? { raw: message } : message })
      }
      case 'eth_signTypedData_v4': {
        const typed = JSON.parse(list[1] as string)
        return account.signTypedData(typed)
      }
      case 'eth_sendTransaction': {
        const chain = chainOf(chainId)
        if (!chain) throw new Error(`No chain ${chainId}`)
        const wallet = createWalletClient({ account, chain, transport: http() })
        const tx = list[0] as { to: Hex; value?: Hex; data?: Hex }
        return wallet.sendTransaction({
          to: tx.to,
          value: tx.value ? BigInt(tx.value) : undefined,
          data: tx.data,
        })
      }
      case 'wallet_switchEthereumChain':
        return null
      case 'wallet_getCapabilities': {
        // An EOA sends a batch call by call: it batches, but not atomically.
        const chains = (list[1] as Hex[] | undefined) ?? options.chains.map((chain) => numberToHex(chain.id))
        return Object.fromEntries(chains.map((chain) => [chain, { atomic: { status: 'unsupported' } }]))
      }
      case 'wallet_sendCalls': {
        const batch = list[0] as Batch
        batches.push(batch)
        const chain = chainOf(`eip155:${Number(batch.chainId)}`)
        if (!chain) throw new Error(`No chain ${batch.chainId}`)
        const wallet = createWalletClient({ account, chain, transport: http() })
        const hashes: Hex[] = []
        for (const call of batch.calls)
          hashes.push(
            await wallet.sendTransaction({
              to: call.to,
              value: call.value ? BigInt(call.value) : undefined,
              data: call.data,
            }),
          )
        const id = batch.id ?? randomUUID()
        sent.set(id, { chain, hashes })
        return { id }
      }
      case 'wallet_getCallsStatus': {
        const id = list[0] as string
        const batch = sent.get(id)
        if (!batch) throw Object.assign(new Error('Unknown bundle id'), { code: 5730 })
        const client = createPublicClient({ chain: batch.chain, transport: http() })
        const receipts = await Promise.all(
          batch.hashes.map((hash) => client.getTransactionReceipt({ hash }).catch(() => undefined)),
        )
        const done = receipts.every((receipt) => receipt !== undefined)
        return {
          version: '2.0.0',
          id,
          chainId: numberToHex(batch.chain.id),
          status: done ? 200 : 100,
          atomic: false,
          receipts: receipts.flatMap((receipt) =>
            receipt
              ? [
                  {
                    logs: receipt.logs.map(({ address, data, topics }) => ({ address, data, topics })),
                    status: receipt.status === 'success' ? '0x1' : '0x0',
                    blockHash: receipt.blockHash,
                    blockNumber: numberToHex(receipt.blockNumber),
                    gasUsed: numberToHex(receipt.gasUsed),
                    transactionHash: receipt.transactionHash,
                  },
                ]
              : [],
          ),
        }
      }
      case 'signMessage': {
        // BIP-137 over the UTF-8 message, answered base64 as WalletConnect's bip122 methods carry it.
        const { message } = args as { message: string }
        return {
          address: bitcoin.address,
          signature: Buffer.from(
            signBitcoinMessage(new TextEncoder().encode(message), bitcoinKeyHex),
          ).toString('base64'),
        }
      }
      case 'solana_signMessage': {
        const { message } = args as { message: string }
        return { signature: bs58.encode(ed25519.sign(bs58.decode(message), seed)) }
      }
      default:
        throw new Error(`Unsupported method ${method}`)
    }
  }

  return {
    account,
    solanaAddress,
    bitcoin,
    requests,
    batches,
    setMode: (next) => {
      mode = next
    },
    async pair(uri) {
      const proposal = new Promise<{
        id: number
        params: { optionalNamespaces: Record<string, { chains?: string[] }> }
      }>((resolve) => client.once('session_proposal', resolve))
      await client.pair({ uri })
      const { id, params } = await proposal
      const wanted = params.optionalNamespaces
      const namespaces: Record<
        string,
        { chains: string[]; accounts: string[]; methods: string[]; events: string[] }
      > = {}
      const evmChains = (wanted.eip155?.chains ?? []).filter((chain) => chainOf(chain))
      if (evmChains.length)
        namespaces.eip155 = {
          chains: evmChains,
          accounts: evmChains.map((chain) => `${chain}:${account.address}`),
          methods: [
            'personal_sign',
            'eth_signTypedData_v4',
            'eth_sendTransaction',
            'wallet_switchEthereumChain',
            ...(options.batches
              ? ['wallet_sendCalls', 'wallet_getCapabilities', 'wallet_getCallsStatus']
              : []),
          ],
          events: ['accountsChanged', 'chainChanged'],
        }
      const solanaChains = wanted.solana?.chains ?? []
      if (solanaChains.length)
        namespaces.solana = {
          chains: solanaChains,
          accounts: solanaChains.map((chain) => `${chain}:${solanaAddress}`),
          methods: ['solana_signMessage'],
          events: [],
        }
      const bitcoinChains = wanted.bip122?.chains ?? []
      if (bitcoinChains.length)
        namespaces.bip122 = {
          chains: bitcoinChains,
          accounts: bitcoinChains.map((chain) => `${chain}:${bitcoin.address}`),
          methods: ['signMessage'],
          events: [],
        }
      const approved = await client.approve({ id, namespaces })
      await approved.acknowledged()
      return { topic: approved.topic }
    },
    async emit(topic, chainId, name, data) {
      await client.emit({ topic, chainId, event: { name, data } })
    },
    async disconnect(topic) {
      await client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    async stop() {
      client.core.heartbeat.stop()
      await client.core.relayer.transportClose()
    },
  }
}
