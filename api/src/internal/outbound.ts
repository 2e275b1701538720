/**
 * Requests to URLs a stranger chose (a CCIP-read gateway a contract names, say): only to the public
 * internet, never to this machine or its network. The host is resolved once, every address it resolves to
 * is checked, and the connection goes to those checked addresses (a DNS answer that changes in between,
 * "DNS rebinding", cannot swap in another); redirects are not followed; the answer is cut off at a size
 * and a time. Origins the deployment names (`internal`) skip the address check alone: its own services on
 * loopback or a private network, such as the dev stack's own ENS gateway.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/** Where a host's addresses come from. @default the system resolver (`dns.lookup`, every address) */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>

export type OutboundOptions = {
  /** Origins (`http://127.0.0.1:8787`) that may resolve to any address: the deployment's own services. */
  internal: readonly string[]
  timeoutMs: number
  /** Bytes of the answer's body read at most; a longer one is an error. */
  maxBytes: number
  resolve?: Resolve | undefined
}

export type Answer = { status: number; contentType: string | undefined; text: string }

/** Why a URL was not asked: it names no public host, or the answer broke a cap. */
export class OutboundError extends Error {
  override name = 'OutboundError'
}

/**
 * IPv4 that is not the public internet (RFC 6890's special-purpose registry, with what cloud providers
 * answer instance metadata at): this network, private (RFC 1918), shared/CGNAT (RFC 6598, also Alibaba's
 * metadata 100.100.100.200), loopback, link-local (169.254.169.254: AWS, GCP and Azure metadata), IETF
 * protocol assignments (Oracle's 192.0.0.192), documentation, 6to4 relays, benchmarking, multicast,
 * reserved and broadcast; and Azure's WireServer, 168.63.129.16.
 */
const notPublicV4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['168.63.129.16', 32],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]

/**
 * IPv6 is public only inside global unicast (2000::/3, RFC 4291), which leaves out loopback, unspecified,
 * IPv4-mapped, NAT64 (64:ff9b::/96), unique-local (fc00::/7, AWS's metadata fd00:ec2::254), link-local
 * and multicast at once; inside it, IETF protocol assignments (2001::/23, Teredo's 2001::/32 among them),
 * documentation (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16, which carries an IPv4 address) are not.
 */
const notPublicV6: readonly [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
]

const blockedV4 = new BlockList()
for (const [network, prefix] of notPublicV4) blockedV4.addSubnet(network, prefix, 'ipv4')
const globalV6 = new BlockList()
globalV6.addSubnet('2000::', 3, 'ipv6')
const blockedV6 = new BlockList()
for (const [network, prefix] of notPublicV6) blockedV6.addSubnet(network, prefix, 'ipv6')

/**
 * Whether an IP address is on the public internet.
 * @example isPublic('169.254.169.254') // false
 */
export function isPublic(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !blockedV4.check(address, 'ipv4')
  if (family === 6) return globalV6.check(address, 'ipv6') && !blockedV6.check(address, 'ipv6')
  return false
}

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  )

/**
 * The addresses `url` may be asked at: its host's, every one public unless its origin is `internal`.
 * @throws {OutboundError} for a scheme other than http(s), a host that does not resolve, or one with an
 *   address that is not public
 */
async function addressesOf(url: URL, options: OutboundOptions): Promise<LookupAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError(`${url.protocol} URLs are not asked`)
  // The URL parser already turned every IPv4 spelling (`2130706433`, `0x7f.1`) into dotted decimal.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(host)
  const addresses = family
    ? [{ address: host, family }]
    : await (options.resolve ?? systemResolve)(host).catch((error: unknown) => {
        throw new OutboundError(`${host} does not resolve`, { cause: error })
      })
  if (addresses.length === 0) throw new OutboundError(`${host} does not resolve`)
  if (options.internal.includes(url.origin)) return addresses
  // Every address, not the first: a host with one private address among public ones is refused whole.
  const inside = addresses.find((entry) => !isPublic(entry.address))
  if (inside) throw new OutboundError(`${host} resolves to ${inside.address}, which is not public`)
  return addresses
}

/**
 * One request to `url`, at the addresses {@link addressesOf} checked. A redirect is answered as it came
 * (its status), never followed.
 * @throws {OutboundError} as {@link addressesOf}, or when the answer is over `maxBytes` or `timeoutMs`
 * @example
 * const answer = await Outbound.request(new URL(gateway), { method: 'GET' }, { internal: [], timeoutMs: 4_000, maxBytes: 262_144 })
 */
export async function request(
  url: URL,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  options: OutboundOptions,
): Promise<Answer> {
  const addresses = await addressesOf(url, options)
  // The connection asks this instead of the resolver: it gets the checked addresses and nothing else.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const [first] = addresses
    if (lookupOptions.all) return callback(null, addresses)
    if (first) callback(null, first.address, first.family)
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Answer>((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer)
      outgoing.destroy()
      reject(error)
    }
    const outgoing = send(
      url,
      { method: init.method, headers: init.headers, lookup: pinned, agent: false },
      (incoming: IncomingMessage) => {
        const chunks: Buffer[] = []
        let size = 0
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > options.maxBytes)
            return fail(new OutboundError(`${url.origin} answered more than ${options.maxBytes} bytes`))
          chunks.push(chunk)
        })
        incoming.on('end', () => {
          clearTimeout(timer)
          resolve({
            status: incoming.statusCode ?? 0,
            contentType: incoming.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
          })
        })
        incoming.on('error', fail)
      },
    )
    // One deadline for connecting, sending and reading the whole answer.
    const timer = setTimeout(
      () => fail(new OutboundError(`${url.origin} took longer than ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    outgoing.on('error', fail)
    outgoing.end(init.body)
  })
}
