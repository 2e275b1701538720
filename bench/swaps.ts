/**
 * Swap quotes on the dev stack's Uniswap v2 and v3: `GET /v1/convert/quotes` one after another, as a
 * visitor's typing asks them (each after the last answered), for amounts that change every time so nothing
 * is served twice. Measured across every venue (both read at one block, the best taken: what the modal asks)
 * and for each venue alone (`venue=`), so a slow venue shows.
 */
import { devnetTokens } from '@airlock/devnet/chains'

const chainId = 'eip155:31337'
const user = `${chainId}:0x70997970C51812dc3A010C7d01b50e0d17dc79C8`
const token = (address: string) => `${chainId}:${address}`
const native = token('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')

/** p50 and p99 of `count` quotes, ms: half direct (ETH → ALT), half through WETH or direct (ALT → tUSD). */
async function latency(apiUrl: string, count: number, venue?: string) {
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
      ...(venue ? { venue } : {}),
    })
    const started = performance.now()
    const response = await fetch(`${apiUrl}/v1/convert/quotes?${query}`)
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`A quote answered ${response.status}`)
    took.push(performance.now() - started)
  }
  took.sort((a, b) => a - b)
  const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? Number.NaN
  return { p50: Math.round(at(0.5) * 100) / 100, p99: Math.round(at(0.99) * 100) / 100 }
}

/** Quote latency, ms, across venues (the modal's quote) and for Uniswap v2 and v3 alone. */
export async function swapQuotes(apiUrl: string, count = 200) {
  const all = await latency(apiUrl, count)
  const v2 = await latency(apiUrl, count / 2, 'uniswap-v2')
  const v3 = await latency(apiUrl, count / 2, 'uniswap-v3')
  return {
    swapQuoteP50Ms: all.p50,
    swapQuoteP99Ms: all.p99,
    swapQuoteV2P50Ms: v2.p50,
    swapQuoteV2P99Ms: v2.p99,
    swapQuoteV3P50Ms: v3.p50,
    swapQuoteV3P99Ms: v3.p99,
  }
}
