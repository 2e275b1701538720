import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on (it was free a moment ago): a dead RPC or API for tests. Ports such as
 * 9 would do, but fetch refuses them outright ("bad port") before any connection is tried.
 */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
