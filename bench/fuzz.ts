/**
 * `npm run bench`: 10⁵ hostile messages at the modal in Chromium, as the e2e hostile journey sends 10⁴
 * (generator: bridge-protocol/src/internal/hostile/). A page on another port frames the modal and posts
 * 10⁵ forged hellos at its window, each with a fresh port, then a genuine hello; then 10⁵ forged calls on
 * the live bridge port, then a genuine call. A rate is messages over the time from the first post to the
 * genuine message's answer: forging and posting included, and every forged message handled by then.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from '@playwright/test'
import { modalApi } from '../bridge-protocol/src/Schema.ts'
import { hostileScript } from '../e2e/journeys/fixtures.ts'

const count = 100_000
const seed = 20_261_125

// Plain JavaScript: a function tsx compiled would carry helpers the page does not have.
const driver = `
window.fuzzBench = async ({ count, seed, modalOrigin, methods }) => {
  const modal = document.getElementById('modal').contentWindow
  const bounded = (promise) => Promise.race([promise, new Promise((r) => setTimeout(r, 300000, 'no reply'))])
  const { port1, port2 } = new MessageChannel()
  const replies = new Map()
  const waiting = new Map()
  port1.onmessage = (event) => {
    const data = event.data
    // The modal's own calls to its host, answered as a host with no wallets would.
    if (data && data.type === 'APPLY') {
      const value = { listWallets: [], ping: 'pong', storageRead: {} }[data.path[0]]
      return port1.postMessage({ id: data.id, type: 'RAW', value: { ok: true, value } })
    }
    const id = String(data && (data.id || data.type))
    replies.set(id, (replies.get(id) || 0) + 1)
    if (waiting.has(id)) waiting.get(id)(data)
  }
  const reply = (id) => new Promise((resolve) => waiting.set(id, resolve))

  let started = performance.now()
  const hellos = Hostile.flood({ seed, target: 'hello', count, post: (data, transfer) => modal.postMessage(data, modalOrigin, transfer) })
  const welcome = reply('airlock:welcome')
  modal.postMessage({ type: 'airlock:hello', version: 1, projectId: 'demo' }, modalOrigin, [port2])
  const welcomed = await bounded(welcome)
  const helloMs = performance.now() - started

  started = performance.now()
  const calls = Hostile.flood({ seed, target: 'bridge', methods, count, post: (data, transfer) => port1.postMessage(data, transfer) })
  const pong = reply('after')
  port1.postMessage({ id: 'after', type: 'APPLY', path: ['ping'], argumentList: [] })
  const ponged = await bounded(pong)
  const bridgeMs = performance.now() - started

  let refused = 0
  for (const id of calls.answers.keys()) if (replies.get(id) === 1) refused++
  const heard = hellos.heard.length + calls.heard.length
  const unsent = hellos.unsent.length + calls.unsent.length
  hellos.close()
  calls.close()
  return { welcomed, ponged, helloMs, bridgeMs, heard, unsent, refused, refusals: calls.answers.size }
}`

type Outcome = {
  welcomed: unknown
  ponged: unknown
  helloMs: number
  bridgeMs: number
  heard: number
  unsent: number
  refused: number
  refusals: number
}

/** Runs the flood once; throws if the modal answered a forged message or stopped answering genuine ones. */
export async function fuzz(browser: Browser, modalUrl: string) {
  const config = encodeURIComponent(JSON.stringify({ networks: ['eip155:31337'] }))
  const sandbox = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms'
  const html = `<!doctype html><iframe id="modal" sandbox="${sandbox}" src="${modalUrl}/?projectId=demo&config=${config}"></iframe>
<script>${await hostileScript()}</script><script>${driver}</script>`
  // From loopback on a localhost port, which the demo project allows to frame the modal.
  const server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html),
  )
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  const { port } = server.address() as AddressInfo
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  try {
    await page.goto(`http://localhost:${port}/fuzz.html`)
    page.setDefaultTimeout(600_000)
    const outcome = (await page.evaluate(
      `window.fuzzBench(${JSON.stringify({ count, seed, modalOrigin: modalUrl, methods: Object.keys(modalApi) })})`,
    )) as Outcome
    const sound =
      (outcome.welcomed as { type?: string }).type === 'airlock:welcome' &&
      (outcome.ponged as { value?: { value?: unknown } }).value?.value === 'pong' &&
      outcome.heard === 0 &&
      outcome.unsent === 0 &&
      outcome.refused === outcome.refusals &&
      errors.length === 0
    if (!sound) throw new Error(`The fuzz bench found a fault: ${JSON.stringify({ ...outcome, errors })}`)
    return {
      fuzzMessages: 2 * count,
      fuzzHelloPerSecond: Math.round(count / (outcome.helloMs / 1000)),
      fuzzBridgePerSecond: Math.round(count / (outcome.bridgeMs / 1000)),
      fuzzAnsweredOnForgedPorts: outcome.heard,
    }
  } finally {
    await page.close()
    const closed = new Promise((resolve) => server.close(resolve))
    server.closeAllConnections()
    await closed
  }
}
