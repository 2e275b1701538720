/**
 * `npm run bench`: size and speed figures, printed and written to bench/results.json. Runs the same local
 * stack as `npm start` (production builds) and drives Debian's Chromium with Playwright.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { measureCatchUp, measureHistoryRoute } from '@airlock/api/measure'
import { measureConfirmation } from '@airlock/devnet/solana-measure'
import * as Stack from '@airlock/devnet/stack'
import { type Browser, chromium } from '@playwright/test'
import { build } from 'esbuild'
import { chromiumLaunchOptions } from '../e2e/wallets/playwright.config.ts'
import { createPeer } from '../e2e/wallets/walletconnect-peer.ts'
import { fuzz } from './fuzz.ts'
import { openLatency, traceOpen } from './open.ts'
import { packageSizes } from './packages.ts'
import { productionFlood } from './production.ts'
import { percentile, round } from './stats.ts'
import { swapQuotes } from './swaps.ts'
import { userOperations } from './userops.ts'

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))
const gzip = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length
// The mean of the middle half: steadier than a median when samples bunch on a few frame-aligned values.
const middleMean = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = sorted.slice(Math.floor(sorted.length / 4), Math.ceil((sorted.length * 3) / 4))
  return middle.reduce((sum, n) => sum + n, 0) / middle.length
}

function sizes() {
  const html = readFileSync(root('modal-app/dist/index.html'), 'utf8')
  const entry = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1]
  if (!entry) throw new Error('modal-app/dist/index.html has no module entry script')
  return {
    hostSdkGzipBytes: gzip(root('host-sdk/dist/airlock.js')),
    // Loaded by airlock.js after the host page's load event; reported so the page's total is visible.
    hostSdkBridgeGzipBytes: gzip(root('host-sdk/dist/airlock-bridge.js')),
    modalFirstChunkGzipBytes: gzip(root(`modal-app/dist${entry}`)),
    // The entry and every chunk it imports statically (the page preloads them): what the modal loads before
    // it can draw, however the bundler splits it.
    modalStartupGzipBytes: [...new Set(html.match(/\/assets\/[^"]+\.js/g))].reduce(
      (sum, path) => sum + gzip(root(`modal-app/dist${path}`)),
      0,
    ),
    ...featureSizes(),
  }
}

type ManifestChunk = {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
}

/**
 * What loading each feature adds to the first chunk, gzipped: the chunks its lazy entries (views, logic)
 * import statically, less those the first chunk already has. A chunk two features share counts for both:
 * each may be the first to load it. A Send family (EVM, Solana, Bitcoin) is its own figure, and so are the
 * embedded wallet's parts that load only once a visitor logs in or is asked to approve.
 */
function featureSizes(): Record<string, number> {
  const manifest = JSON.parse(readFileSync(root('modal-app/dist/.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key)) continue
      seen.add(key)
      closure(manifest[key]?.imports ?? [], seen)
    }
    return seen
  }
  const first = closure(Object.keys(manifest).filter((key) => manifest[key]?.isEntry && key === 'index.html'))
  const groups = new Map<string, string[]>()
  for (const [key, chunk] of Object.entries(manifest)) {
    const family =
      /src\/features\/([\w-]+)\/families\/(\w+)\.ts$/.exec(chunk.src ?? key) ??
      // The embedded wallet's key code (loaded at a login) and its request previews (at the first request).
      /src\/connectors\/(embedded)\/(custody|Describe)\.ts$/.exec(chunk.src ?? key)
    const folder = /src\/(?:features|connectors)\/([\w-]+)\//.exec(chunk.src ?? key)
    if (!chunk.isDynamicEntry || !folder) continue
    const name = family ? `${family[1]}-${family[2]}` : (folder[1] as string)
    groups.set(name, [...(groups.get(name) ?? []), key])
  }
  const figures: Record<string, number> = {}
  for (const [name, keys] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const files = [...closure(keys)].filter((key) => !first.has(key)).map((key) => manifest[key]?.file)
    const camel = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
    figures[`feature_${camel}GzipBytes`] = files.reduce(
      (sum, file) => sum + (file ? gzip(root(`modal-app/dist/${file}`)) : 0),
      0,
    )
  }
  return figures
}

/**
 * Serves pages from loopback, as a dApp in development is served. (A page Playwright fulfils by route has
 * no address, so Chromium's Local Network Access counts it as public and keeps it from framing the modal.)
 */
async function serve(pageOf: (path: string) => string) {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end(pageOf(request.url ?? '/'))
  })
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  const { port } = server.address() as AddressInfo
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(resolve)) }
}

async function bridgeRoundTrip(browser: Browser, modalUrl: string) {
  const bundle = await build({
    entryPoints: [root('bench/bridge-page.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    define: { modalUrl: JSON.stringify(modalUrl), echoUrl: JSON.stringify(`${modalUrl}/bench-echo.html`) },
  })
  const page = await browser.newPage()
  // The echo page lives on the modal's origin, so both timings cross the same two origins.
  await page.route(`${modalUrl}/bench-echo.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<script>addEventListener('message', (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage({ id: m.data.id, type: 'RAW', value: { ok: true, value: 'pong' } }) }, { once: true })</script>`,
    }),
  )
  const host = await serve(() => `<!doctype html><script>${bundle.outputFiles[0]?.text}</script>`)
  await page.goto(`${host.origin}/bench-bridge.html`)
  page.setDefaultTimeout(60_000)
  const { bridgeSamples, rawSamples } = await page.evaluate(
    (runs) =>
      (window as unknown as { runBridgeBench(n: number): Promise<Record<string, number[]>> }).runBridgeBench(
        runs,
      ),
    200,
  )
  await page.close()
  await host.close()
  return {
    bridgeRoundTripP50Ms: round(percentile(bridgeSamples as number[], 50)),
    bridgeRoundTripP99Ms: round(percentile(bridgeSamples as number[], 99)),
    rawMessageChannelP50Ms: round(percentile(rawSamples as number[], 50)),
  }
}

/**
 * The host page's load event with and without the Airlock script, alternating, same run. The pages come
 * from a plain local server (not Playwright routing, whose round trips add jitter), and the time counted
 * is from the end of the HTML response to the load event: what the page itself does, script included.
 */
async function hostLoadDelta(browser: Browser, modalUrl: string, runs: number) {
  const body = `<h1>Host page</h1>${'<p>Some content.</p>'.repeat(50)}`
  const script = `<script src="${modalUrl}/airlock.js" data-project-id="demo" data-networks="eip155:31337"></script>`
  const server = await serve((path) => {
    const head = path.includes('with.html') ? script : ''
    return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`
  })
  const page = await browser.newPage()
  const loadOf = async (name: string) => {
    await page.goto(`${server.origin}/bench-load-${name}.html`, { waitUntil: 'load' })
    return page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
      return nav ? nav.loadEventStart - nav.responseEnd : Number.NaN
    })
  }
  try {
    await loadOf('with')
    await loadOf('without')
    const withScript: number[] = []
    const without: number[] = []
    // The order flips every pair, so neither page always follows the other (and its unload).
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        withScript.push(await loadOf('with'))
        without.push(await loadOf('without'))
      } else {
        without.push(await loadOf('without'))
        withScript.push(await loadOf('with'))
      }
    }
    const a = middleMean(withScript)
    const b = middleMean(without)
    return {
      hostLoadEventMs: round(b),
      hostLoadEventDeltaMs: round(a - b),
      hostLoadEventDeltaPct: round(((a - b) / b) * 100),
    }
  } finally {
    await page.close()
    await server.close()
  }
}

/**
 * WalletConnect pairing time with the local relay: from the moment the QR code (its URI) is on screen to
 * the dApp seeing the connected session. The phone wallet is a SignClient in this process that approves at
 * once, so what is measured is the modal, the relay and the two clients' round trips.
 */
async function wcConnect(browser: Browser, dappUrl: string, relayUrl: string, runs: number) {
  const { devnetA } = await import('@airlock/devnet/chains')
  const { Accounts } = await import('@airlock/devnet')
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    const peer = await createPeer({
      relayUrl,
      privateKey: Accounts.all()[2]?.privateKey as `0x${string}`,
      chains: [devnetA],
    })
    try {
      const page = await context.newPage()
      await page.goto(dappUrl)
      const modal = page.frameLocator('iframe[title="Airlock"]')
      await page.getByRole('button', { name: 'Open Airlock' }).click()
      await modal.getByRole('button', { name: 'WalletConnect' }).click()
      await modal.getByRole('img', { name: 'WalletConnect QR code' }).waitFor()
      await modal.getByRole('button', { name: 'Copy link' }).click()
      await modal.getByTestId('snackbar').getByText('Link copied').waitFor()
      const uri = await page.evaluate(() => navigator.clipboard.readText())
      if (!uri.startsWith('wc:')) throw new Error(`No pairing URI on the clipboard: ${uri}`)
      const started = performance.now()
      await peer.pair(uri)
      await page.locator('#status', { hasText: /^connected$/ }).waitFor()
      samples.push(performance.now() - started)
    } finally {
      await peer.stop()
      await context.close()
    }
  }
  return { wcConnectMs: round(percentile(samples, 50)), wcConnectMaxMs: round(Math.max(...samples)) }
}

/**
 * The chains behind the modal, each on chains and a database of its own: the history indexer's catch-up over
 * 1,000 anvil blocks with transfers, the history route at 10k rows, and the Solana facade's time from
 * sendTransaction to confirmed.
 */
async function chains() {
  const catchUp = await measureCatchUp({ blocks: 1_000 })
  const route = await measureHistoryRoute({ rows: 10_000 })
  const solana = await measureConfirmation({ transfers: 50 })
  return {
    indexerCatchUpBlocksPerSecond: round(catchUp.blocksPerSecond),
    historyRouteP50Ms: round(route.p50Ms),
    historyRouteP99Ms: round(route.p99Ms),
    solanaConfirmedP50Ms: round(solana.p50Ms),
  }
}

/** `--workers <n>`: the production server's processes (`serve --workers`). */
function workersFlag(): number | undefined {
  const index = process.argv.indexOf('--workers')
  return index > 0 ? Number(process.argv[index + 1]) : undefined
}

async function main() {
  const results: Record<string, number | string> = { date: new Date().toISOString(), ...sizes() }
  Object.assign(results, await packageSizes())
  const stack = await Stack.start()
  const browser = await chromium.launch(chromiumLaunchOptions)
  // `tsx bench/run.ts --only=open` (`flood`, `trace`, `swaps`): that figure alone (after `npm run build`),
  // printed, not written. `trace` is first open as Chromium's tracing sees it: each main thread's work, by kind
  // and in order. `swaps` is quote latency across venues and for each venue alone.
  const only = /^--only=(open|flood|trace|swaps)$/.exec(
    process.argv.find((arg) => arg.startsWith('--only=')) ?? '',
  )?.[1]
  if (only) {
    try {
      if (only === 'open') console.table(await openLatency(browser, stack.dappUrl, 10, 10))
      if (only === 'flood') console.table(await productionFlood(stack, { workers: workersFlag() }))
      if (only === 'swaps') console.table(await swapQuotes(stack.apiUrl))
      if (only === 'trace')
        for (const trace of await traceOpen(browser, stack.dappUrl, 5)) {
          console.log(`First open: ${trace.ms} ms`)
          for (const [thread, { busyMs, work }] of Object.entries(trace.threads))
            console.log(`  ${thread} main thread busy ${busyMs} ms:`, work)
          console.table(trace.tasks)
        }
    } finally {
      await browser.close()
      await stack.stop()
    }
    return
  }
  try {
    Object.assign(results, await bridgeRoundTrip(browser, stack.modalUrl))
    Object.assign(results, await openLatency(browser, stack.dappUrl, 10, 10))
    Object.assign(results, await hostLoadDelta(browser, stack.modalUrl, 150))
    Object.assign(results, await swapQuotes(stack.apiUrl))
    Object.assign(results, await userOperations(stack.apiUrl))
    Object.assign(results, await wcConnect(browser, stack.dappUrl, stack.relayUrl, 10))
    Object.assign(results, await fuzz(browser, stack.modalUrl))
    Object.assign(results, await productionFlood(stack, { workers: workersFlag() }))
  } finally {
    await browser.close()
    await stack.stop()
  }
  Object.assign(results, await chains())
  results.targets =
    'hostSdkGzipBytes <= 5120; modalFirstChunkGzipBytes <= 112640; bridgeRoundTripP50Ms <= 2 x rawMessageChannelP50Ms; openLatencyP50Ms <= 20; hostLoadEventDeltaPct <= 5; prod_*_registry and prod_*_flood: Timeouts = 0, P99Ms < 100; prod_*_{registry,balance,analytics}: Errors = 0, 429 = 0'
  writeFileSync(root('bench/results.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.table(results)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
