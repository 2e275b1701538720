/**
 * The sandbox's treasury: a key of its own on each devnet chain, holding ETH and the test tokens it sells
 * (SOL on the Solana chain, `SolanaTreasury.ts`), from which a paid purchase is really delivered. Deliveries
 * on one chain go one at a time, so two purchases never race for a nonce.
 */
import { isAddress as isSolanaAddress } from '@solana/kit'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  isAddress,
  parseEther,
  parseUnits,
  publicActions,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { testTokenAbi } from '../TestToken.ts'
import * as SolanaTreasury from './SolanaTreasury.ts'

/** A chain the sandbox sells on, and the tokens it sells there beside the native currency. */
export type SandboxChain = {
  /** CAIP-2. */
  id: string
  name: string
  /** The providers' name of the network: MoonPay's `networkCode`, Coinbase's network `name`. */
  network: string
  native: { symbol: string; name: string; decimals: number }
  rpcUrl: string
  tokens: readonly { symbol: string; name: string; address: Address; decimals: number }[]
}

/**
 * The treasury's keys: one EVM key for every EVM chain, and the 32-byte seed (hex) of its Solana key where it
 * sells on a Solana chain.
 */
export type Keys = { evm: Hex; solana?: string | undefined }

/** Whether `address` is a wallet address of the chain `chainId` (CAIP-2). */
export function isAddressOf(chainId: string, address: string): boolean {
  if (chainId.startsWith('solana:')) return isSolanaAddress(address)
  return chainId.startsWith('eip155:') && isAddress(address, { strict: false })
}

const isSolana = (chain: SandboxChain) => chain.id.startsWith('solana:')

/** The Solana seed of `keys`, which a Solana chain needs. */
function solanaSeed(keys: Keys): string {
  if (!keys.solana) throw new Error('The treasury has no Solana key')
  return keys.solana
}

/** What {@link fund} gives the treasury on each EVM chain. */
const funding = { ether: parseEther('1000'), tokens: '10000000' } as const

export type Treasury = {
  address: Address
  /** Sends `amount` (whole units) of `symbol` to `to` on `chainId`; its hash (signature) once mined. */
  deliver(delivery: { chainId: string; symbol: string; to: string; amount: string }): Promise<string>
}

function clientOf(chain: SandboxChain, key: Hex) {
  // The dev chains mine at once: viem's 4 s default would hold a delivered purchase's page for seconds.
  return createWalletClient({
    account: privateKeyToAccount(key),
    transport: http(chain.rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions)
}

/**
 * Funds the treasury on anvil: {@link funding}'s ether by `anvil_setBalance`, and its test tokens minted to
 * it (the devnet's tokens mint to anyone); on a Solana chain, from its faucet.
 */
export async function fund(chains: readonly SandboxChain[], keys: Keys): Promise<void> {
  await Promise.all(
    chains.map(async (chain) => {
      if (isSolana(chain)) return SolanaTreasury.fund(chain.rpcUrl, solanaSeed(keys))
      const client = clientOf(chain, keys.evm)
      const { address } = client.account
      await client.request({ method: 'anvil_setBalance', params: [address, toHex(funding.ether)] } as never)
      for (const token of chain.tokens) {
        const hash = await client.writeContract({
          chain: null,
          address: token.address,
          abi: testTokenAbi,
          functionName: 'mint',
          args: [address, parseUnits(funding.tokens, token.decimals)],
        })
        await client.waitForTransactionReceipt({ hash })
      }
    }),
  )
}

/** @example const treasury = Treasury.create(chains, key); await treasury.deliver({ … }) */
export function create(chains: readonly SandboxChain[], keys: Keys): Treasury {
  const key = keys.evm
  const queues = new Map<string, Promise<unknown>>()
  const send = async (delivery: Parameters<Treasury['deliver']>[0]): Promise<string> => {
    const chain = chains.find((entry) => entry.id === delivery.chainId)
    if (!chain) throw new Error(`The sandbox does not sell on ${delivery.chainId}`)
    if (!isAddressOf(chain.id, delivery.to))
      throw new Error(`${delivery.to} is not an address of ${chain.id}`)
    if (isSolana(chain)) {
      const lamports = parseUnits(delivery.amount, chain.native.decimals)
      return SolanaTreasury.deliver(chain.rpcUrl, solanaSeed(keys), delivery.to, lamports)
    }
    const client = clientOf(chain, key)
    const to = delivery.to as Address
    const token = chain.tokens.find((entry) => entry.symbol.toLowerCase() === delivery.symbol.toLowerCase())
    const hash = token
      ? await client.writeContract({
          chain: null,
          address: token.address,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, parseUnits(delivery.amount, token.decimals)],
        })
      : await client.sendTransaction({ chain: null, to, value: parseEther(delivery.amount) })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`The delivery ${hash} reverted`)
    return hash
  }
  return {
    address: privateKeyToAccount(key).address,
    deliver(delivery) {
      const previous = queues.get(delivery.chainId) ?? Promise.resolve()
      const next = previous.catch(() => {}).then(() => send(delivery))
      queues.set(delivery.chainId, next)
      return next
    },
  }
}
