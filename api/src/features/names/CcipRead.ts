/**
 * The ENS client's CCIP-read (EIP-3668) requests. An offchain resolver names its gateway's URLs in the
 * `OffchainLookup` it reverts with, and anyone can deploy a resolver and point a name at it, so those URLs
 * are a stranger's: each is asked through `internal/outbound.ts` (public addresses only, checked after DNS
 * and connected to as checked, no redirects, 4 s and 256 KiB at most), except the origins the
 * configuration's `names.internalGateways` lists (the deployment's own gateway, on loopback on the dev
 * stack). Otherwise as viem's own `ccipRequest`: `{sender}` and `{data}` filled in, a GET when the URL
 * carries `{data}`, else a POST of `{ data, sender }`; the URLs in order until one answers hex.
 */
import { type CcipRequestParameters, type Hex, HttpRequestError, isHex } from 'viem'
import * as Outbound from '../../internal/outbound.ts'

/** Time for one gateway request, within the API's 10 s request time-out even after a retried read. */
const timeoutMs = 4_000

/**
 * Bytes of one gateway answer: a signed record with the longest text the API keeps (an avatar, 32 KiB)
 * is about 70 KB as hex.
 */
const maxBytes = 262_144

export type CcipReadOptions = {
  /** Origins asked whatever their addresses (`names.internalGateways`). */
  internal: readonly string[]
  /** Tests resolve names of their own. @default the system resolver */
  resolve?: Outbound.Resolve | undefined
}

/**
 * viem's `ccipRead.request` for a client whose lookups may only reach public gateways or `internal` ones.
 * @example createPublicClient({ transport, ccipRead: { request: CcipRead.request({ internal: [] }) } })
 */
export function request(options: CcipReadOptions) {
  const outbound = { ...options, timeoutMs, maxBytes }
  return async ({ data, sender, urls }: CcipRequestParameters): Promise<Hex> => {
    let failure: Error = new Error('The lookup named no gateway')
    for (const template of urls) {
      const filled = template.replace('{sender}', sender.toLowerCase()).replace('{data}', data)
      const get = template.includes('{data}')
      try {
        const answer = await Outbound.request(
          new URL(filled),
          get
            ? { method: 'GET' }
            : {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ data, sender }),
              },
          outbound,
        )
        const result = answer.contentType?.startsWith('application/json')
          ? (JSON.parse(answer.text) as { data?: unknown }).data
          : answer.text
        if (answer.status >= 200 && answer.status < 300 && typeof result === 'string' && isHex(result))
          return result
        failure = new Error(`answered ${answer.status} without hex data`)
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error))
      }
      // A URL the parser refuses is as much a failure as one that does not answer: on to the next.
      failure = new HttpRequestError({ url: template, details: failure.message, cause: failure })
    }
    throw failure
  }
}
