/**
 * Swap quotes on the dev stack's Uniswap v2: `GET /v1/convert/quotes` one after another, as a visitor's
 * typing asks them (each after the last answered), for amounts that change every time so nothing is served
 * twice. Every quote reads the router at one block through the API's node.
 */
import { devnetTokens } from '@airlock/devnet/chains'

const chainId = 'eip155:31337'
const user = `${chainId}:0x70997970C51812dc3A010C7d01b50e0d17dc79C8`
const token = (address: string) => `${chainId}:${address}`
const native = token('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')

/** Quote latency, ms: p50 and p99 of `count` quotes, half direct (ETH → ALT), half through WETH (ALT → tUSD). */
export async function swapQuotes(apiUrl: string, count = 200) {
  const pairs = [
    [native, token(devnetTokens.ALT.address)],
    [token(devnetTokens.ALT.address), token(devnetTokens.tUSD.address)],
  ] as const
  const took: number[] = []
  for (let i = 0; i < count; i++) {
    const [from, to] = pairs[i % 2] as readonly [string, string]
    // 0.001 to 1 of the token, a different amount each time.
    const amount = (10n ** 15n * BigInt(1 + i * 5)).toString()
    const query = new URLSearchParams({
      projectId: 'demo',
      st: 'bench',
      sv: '0',
      amount,
      userAddress: user,
      from,
      to,
    })
    const started = performance.now()
    const response = await fetch(`${apiUrl}/v1/convert/quotes?${query}`)
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`A quote answered ${response.status}`)
    took.push(performance.now() - started)
  }
  took.sort((a, b) => a - b)
  const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? Number.NaN
  return { swapQuoteP50Ms: Math.round(at(0.5) * 100) / 100, swapQuoteP99Ms: Math.round(at(0.99) * 100) / 100 }
}
