/**
 * Test support for the sandbox on-ramp: one anvil chain with a tUSD of its own, and a sandbox with random
 * credentials and a freshly funded treasury on it. The API's route tests use it too (by path).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { type Address, createPublicClient, createWalletClient, erc20Abi, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import * as Accounts from '../Accounts.ts'
import * as Anvil from '../Anvil.ts'
import { devnetTokens } from '../Chains.ts'
import { testTokenAbi, testTokenBytecode } from '../TestToken.ts'
import * as Sandbox from './Sandbox.ts'
import * as Treasury from './Treasury.ts'

export type TestChain = { chain: Treasury.SandboxChain; tusd: Address; stop(): Promise<void> }

/** Anvil on a free port (chain id 31337) with tUSD deployed by account 0. */
export async function startChain(): Promise<TestChain> {
  const anvil = await Anvil.start({ port: 0, chainId: foundry.id })
  const key = Accounts.all()[0]?.privateKey ?? '0x'
  const admin = createWalletClient({
    account: privateKeyToAccount(key),
    chain: foundry,
    transport: http(anvil.rpcUrl),
  })
  const { tUSD } = devnetTokens
  const hash = await admin.deployContract({
    abi: testTokenAbi,
    bytecode: testTokenBytecode,
    args: [tUSD.name, tUSD.symbol, tUSD.decimals],
  })
  const receipt = await createPublicClient({
    chain: foundry,
    transport: http(anvil.rpcUrl),
  }).waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('tUSD was not deployed')
  const tusd = receipt.contractAddress
  return {
    chain: {
      id: `eip155:${foundry.id}`,
      name: 'Onramp Test Chain',
      network: 'onramp-test',
      native: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrl: anvil.rpcUrl,
      tokens: [{ ...tUSD, address: tusd }],
    },
    tusd,
    stop: anvil.stop,
  }
}

export type TestSandbox = Sandbox.Instance & {
  /** MoonPay's keys. */
  credentials: { publishableKey: string; secretKey: string; webhookSecret: string }
  /** Coinbase's: the CDP key's id and its private key in PEM, and the webhook secret. */
  cdp: { keyId: string; secretKey: string; webhookSecret: string }
}

/**
 * A sandbox on a free port with random credentials, its treasury funded on `chain`; each protocol's webhooks
 * go to its URL.
 */
export async function startSandbox(
  chain: Treasury.SandboxChain,
  webhookUrls: { moonpay: string; coinbase: string },
): Promise<TestSandbox> {
  const random = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`
  const credentials = {
    publishableKey: random('pk'),
    secretKey: random('sk'),
    webhookSecret: random('whsec'),
  }
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const cdp = {
    keyId: random('organizations/test/apiKeys/key'),
    secretKey: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    webhookSecret: random('whsec'),
  }
  const treasury = { evm: generatePrivateKey() }
  await Treasury.fund([chain], treasury)
  const sandbox = await Sandbox.start({
    port: 0,
    moonpay: { ...credentials, webhookUrl: webhookUrls.moonpay },
    coinbase: {
      keyId: cdp.keyId,
      publicKey: key.publicKey,
      webhookSecret: cdp.webhookSecret,
      webhookUrl: webhookUrls.coinbase,
    },
    chains: [chain],
    prices: { ETH: 3000, tUSD: 1 },
    treasury,
    retryDelaysMs: [50, 100, 200],
  })
  return { ...sandbox, credentials, cdp }
}

/** What `address` holds of native ETH (`token` undefined) or of an ERC-20, in its smallest unit. */
export function balanceOf(rpcUrl: string, address: Address, token?: Address): Promise<bigint> {
  const client = createPublicClient({ chain: foundry, transport: http(rpcUrl) })
  return token
    ? client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
    : client.getBalance({ address })
}

/** Makes the sandbox answer 503 to everything (`down: true`) or serve again. */
export async function setDown(url: string, down: boolean): Promise<void> {
  const response = await fetch(`${url}/__control`, { method: 'POST', body: JSON.stringify({ down }) })
  if (!response.ok) throw new Error(`__control answered ${response.status}`)
}

/** A fresh address that holds nothing. */
export const stranger = (): Address => privateKeyToAccount(generatePrivateKey()).address
