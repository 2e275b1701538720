/**
 * Runs in a dApp page of the bench: times the bridge (handshake port, Messenger, shapes — the code the
 * host SDK runs) against a plain MessageChannel echo between the same two origins.
 */
import { Handshake, Messenger, Schema } from '@airlock/bridge-protocol'

declare const modalUrl: string
declare const echoUrl: string

const sandbox = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms'

function frame(src: string): Promise<HTMLIFrameElement> {
  const iframe = document.createElement('iframe')
  iframe.setAttribute('sandbox', sandbox)
  iframe.src = src
  document.body.append(iframe)
  return new Promise((resolve) => iframe.addEventListener('load', () => resolve(iframe), { once: true }))
}

// performance.now() is coarsened to 0.1 ms outside cross-origin isolation, about one round trip; so each
// sample is the mean of a batch of sequential round trips.
const batch = 10

/** Times batches of `a` and `b` alternately, so both see the same machine at the same moments. */
async function time(samples: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  const batchOf = async (once: () => Promise<unknown>) => {
    const start = performance.now()
    for (let j = 0; j < batch; j++) await once()
    return (performance.now() - start) / batch
  }
  for (let i = 0; i < 50; i++) await Promise.all([a(), b()])
  const out = { a: [] as number[], b: [] as number[] }
  for (let i = 0; i < samples; i++) {
    out.a.push(await batchOf(a))
    out.b.push(await batchOf(b))
  }
  return out
}

async function bridge(): Promise<() => Promise<unknown>> {
  const url = new URL(modalUrl)
  url.searchParams.set('projectId', 'demo')
  url.searchParams.set('config', JSON.stringify({ networks: ['eip155:31337'] }))
  const iframe = await frame(url.href)
  const port = await Handshake.connect({
    target: iframe.contentWindow as Window,
    modalOrigin: url.origin,
    projectId: 'demo',
  })
  const messenger = Messenger.create({
    port,
    local: Schema.hostApi,
    peer: Schema.modalApi,
    implementation: {
      listWallets: () => [],
      walletRequest: () => null,
      setState: () => undefined,
      resize: () => undefined,
      storageRead: () => ({}),
      storageWrite: () => undefined,
      leaveFor: () => undefined,
      socialResult: () => undefined,
      ping: () => 'pong' as const,
    },
  })
  return () => messenger.remote.ping()
}

async function raw(): Promise<() => Promise<unknown>> {
  const iframe = await frame(echoUrl)
  const { port1, port2 } = new MessageChannel()
  iframe.contentWindow?.postMessage('echo', new URL(echoUrl).origin, [port2])
  let resolveNext: (() => void) | undefined
  port1.onmessage = () => resolveNext?.()
  return () =>
    new Promise<void>((resolve) => {
      resolveNext = resolve
      port1.postMessage({ id: 'x', type: 'APPLY', path: ['ping'], argumentList: [] })
    })
}

/** A bench must end by itself even when a frame never answers. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  ])
}

Object.assign(window, {
  runBridgeBench: async (runs: number) => {
    const ping = await within(30_000, 'the bridge handshake', bridge())
    const echo = await within(30_000, 'the echo frame', raw())
    const { a, b } = await within(120_000, 'the round trips', time(runs, ping, echo))
    return { bridgeSamples: a, rawSamples: b }
  },
})
