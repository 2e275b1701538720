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

async function time(runs: number, once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await once()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await once()
    samples.push(performance.now() - start)
  }
  return samples
}

async function bridge(runs: number): Promise<number[]> {
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
      ping: () => 'pong' as const,
    },
  })
  return time(runs, () => messenger.remote.ping())
}

async function raw(runs: number): Promise<number[]> {
  const iframe = await frame(echoUrl)
  const { port1, port2 } = new MessageChannel()
  iframe.contentWindow?.postMessage('echo', new URL(echoUrl).origin, [port2])
  let resolveNext: (() => void) | undefined
  port1.onmessage = () => resolveNext?.()
  return time(
    runs,
    () =>
      new Promise<void>((resolve) => {
        resolveNext = resolve
        port1.postMessage({ id: 'x', type: 'APPLY', path: ['ping'], argumentList: [] })
      }),
  )
}

Object.assign(window, {
  runBridgeBench: async (runs: number) => {
    // Interleaved in one run so both see the same machine load.
    const bridgeSamples = await bridge(runs)
    const rawSamples = await raw(runs)
    return { bridgeSamples, rawSamples }
  },
})
