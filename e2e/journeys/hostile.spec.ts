import { createServer as createHttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'
import type { Frame, Page } from '@playwright/test'
import { hostApi, modalApi } from '../../bridge-protocol/src/Schema.ts'
import { walletCalls } from '../wallets/index.ts'
import {
  addresses,
  connectEvm,
  expect,
  hostileScript,
  modalFrame,
  modalOrigin,
  request,
  test,
} from './fixtures.ts'
import { rogueModal } from './rogueModal.ts'

const frameSrc = `${modalOrigin}/?projectId=demo&config=${encodeURIComponent(JSON.stringify({ networks: ['eip155:31337'] }))}`
const sandbox = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms'

/**
 * Fuzzing in the real browser, across real origins. Every forged message carries a fresh MessageChannel
 * port (some a second one), so the modal's and the host SDK's own checks, schema included, are what must
 * turn it away; the page listens on every forged port. What is forged, and the answer each message must
 * get, is in bridge-protocol/src/internal/hostile/. `FUZZ_SEED` picks another seed.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_125)
const count = 10_000
const forgeOrigin = 'http://localhost:5178'
/** Another site: not the modal's parent, and not an origin the demo project allows. */
const otherSite = 'http://127.0.0.1:5179'

type Hostile = NonNullable<Window['Hostile']>
type Reply = {
  id?: string
  type?: string
  value?: { ok?: boolean; value?: unknown; error?: { code?: number } }
}
/** What the test keeps in a page between evaluations. */
type Scratch = {
  floods: ReturnType<Hostile['flood']>[]
  seen: number
  replies: Map<string, Reply[]>
  waiting: Map<string, (reply: Reply) => void>
  listen(port: MessagePort): void
  port: MessagePort
}

/**
 * Serves `pages` by path, and the generator as /hostile.js. Closing drops open connections too: Chromium
 * keeps sockets it opened ahead of need, and a server waiting on them would never close.
 */
async function site(origin: string, pages: Record<string, string>) {
  const script = await hostileScript()
  const server = createHttpServer((request, response) => {
    const path = new URL(request.url ?? '/', origin).pathname
    if (path === '/hostile.js')
      return response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script)
    response.writeHead(200, { 'Content-Type': 'text/html' }).end(pages[path] ?? '')
  })
  const { hostname, port } = new URL(origin)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(Number(port), hostname, resolve)
  })
  return {
    close: () => {
      const closed = new Promise((resolve) => server.close(resolve))
      server.closeAllConnections()
      return closed
    },
  }
}

/** Uncaught errors in the page and in its frames, the modal's included. */
function pageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`))
  return errors
}

/** Counts the messages that reach a frame's window: proof that the forged ones came while it listened. */
const countMessages = (frame: Frame) =>
  frame.evaluate(() => {
    const scratch = window as unknown as Scratch
    scratch.seen = 0
    addEventListener('message', () => {
      scratch.seen++
    })
  })
const seen = (frame: Frame) => frame.evaluate(() => (window as unknown as Scratch).seen)
/** What arrived on the forged ports of every flood a frame sent (the first few of each). */
const heard = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as Scratch).floods.flatMap((flood) => flood.heard.slice(0, 3)))
const polluted = (frame: Frame) =>
  frame.evaluate(() => ({}) as { polluted?: unknown }).then((o) => o.polluted)

/**
 * In a page: one side of a bridge port, spoken by hand. It files replies by id (the welcome by its type)
 * and answers the other side's calls as a side with no wallets and no stored state would.
 */
function installPeer() {
  const scratch = window as unknown as Scratch
  scratch.replies = new Map()
  scratch.waiting = new Map()
  scratch.floods = scratch.floods ?? []
  scratch.listen = (port) => {
    scratch.port = port
    port.onmessage = (event) => {
      const data = event.data as Reply & { path?: unknown[] }
      if (data?.type === 'APPLY') {
        const value = { listWallets: [], ping: 'pong', storageRead: {} }[String(data.path?.[0])]
        return port.postMessage({ id: data.id, type: 'RAW', value: { ok: true, value } })
      }
      const id = String(data?.id ?? data?.type)
      scratch.replies.set(id, [...(scratch.replies.get(id) ?? []), data])
      scratch.waiting.get(id)?.(data)
    }
  }
}

/**
 * In a page with a peer: floods its port with calls to `methods`, then makes the genuine `calls` (id,
 * method, JSON input), whose answers come after every answer to the flood would have. Returns those
 * answers, and every way the flood's answers differ from the refusal each message must get.
 */
async function floodPort(args: { seed: number; count: number; methods: string[]; calls: string[][] }) {
  const scratch = window as unknown as Scratch
  const flood = (window.Hostile as Hostile).flood({
    seed: args.seed,
    target: 'bridge',
    methods: args.methods,
    count: args.count,
    post: (data, transfer) => scratch.port.postMessage(data, transfer),
  })
  scratch.floods.push(flood)
  const answers: Record<string, unknown> = {}
  for (const [id = '', method, input] of args.calls) {
    const reply = new Promise((resolve) => scratch.waiting.set(id, resolve))
    const argumentList = input === undefined ? [] : [{ type: 'RAW', value: JSON.parse(input) }]
    scratch.port.postMessage({ id, type: 'APPLY', path: [method], argumentList })
    answers[id] = await Promise.race([reply, new Promise((r) => setTimeout(r, 20_000, 'no reply'))])
  }
  const wrong = [...flood.answers].filter(([id, code]) => {
    const got = scratch.replies.get(id) ?? []
    return got.length !== 1 || got[0]?.value?.ok !== false || got[0]?.value?.error?.code !== code
  })
  const unasked = [...scratch.replies.keys()].filter(
    (id) => !flood.answers.has(id) && !(id in answers) && id !== 'airlock:welcome',
  )
  return { answers, wrong: wrong.slice(0, 3), unasked, refusals: flood.answers.size, unsent: flood.unsent }
}

/** In another site's window: floods each given window with hellos, genuine ones among them, and calls. */
function floodWindows(args: {
  seed: number
  count: number
  methods: string[]
  targets: 'parent' | 'frames'
}) {
  const windows = Array.from({ length: parent.frames.length }, (_, i) => parent.frames[i] as Window)
  const targets = args.targets === 'parent' ? [parent] : windows.filter((w) => w !== window)
  const floods = targets.flatMap((target, i) =>
    (['hello', 'bridge'] as const).map((kind, j) =>
      (window.Hostile as Hostile).flood({
        seed: args.seed + 2 * i + j,
        target: kind,
        genuine: true,
        methods: args.methods,
        count: args.count / 2,
        post: (data, transfer) => target.postMessage(data, '*', transfer),
      }),
    ),
  )
  const scratch = window as unknown as Scratch
  scratch.floods = [...(scratch.floods ?? []), ...floods]
  return { targets: targets.length, unsent: floods.flatMap((flood) => flood.unsent) }
}

const forgePages = {
  // The modal framed without the SDK, so the test speaks the handshake itself; and another site's window.
  '/forge.html': `<!doctype html><title>forge</title>
<iframe id="modal" sandbox="${sandbox}" src="${frameSrc}"></iframe>
<iframe id="other" src="${otherSite}/other.html"></iframe>
<script src="/hostile.js"></script>`,
}
const otherPages = {
  '/other.html': '<!doctype html><title>another site</title><script src="/hostile.js"></script>',
}

test(`the modal ignores ${count} hostile messages from another site and ${count} hellos from its parent, each with a fresh port, then welcomes and answers (seed ${seed})`, async ({
  page,
}) => {
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  const servers = await Promise.all([site(forgeOrigin, forgePages), site(otherSite, otherPages)])
  try {
    await page.goto(`${forgeOrigin}/forge.html`)
    const modal = await modalFrame(page)
    const other = page.frames().find((f) => f.url().startsWith(otherSite)) as Frame
    await countMessages(modal)
    const methods = Object.keys(modalApi)
    expect(await other.evaluate(floodWindows, { seed, count, methods, targets: 'frames' as const })).toEqual({
      targets: 1,
      unsent: [],
    })
    await expect.poll(() => seen(modal), { timeout: 60_000 }).toBe(count)

    await page.evaluate(installPeer)
    const hello = await page.evaluate(
      async ({ seed, count, modalOrigin }) => {
        const scratch = window as unknown as Scratch
        const modal = (document.getElementById('modal') as HTMLIFrameElement).contentWindow as Window
        const flood = (window.Hostile as Hostile).flood({
          seed: seed + 100,
          target: 'hello',
          count,
          post: (data, transfer) => modal.postMessage(data, modalOrigin, transfer),
        })
        scratch.floods.push(flood)
        const { port1, port2 } = new MessageChannel()
        scratch.listen(port1)
        const welcome = new Promise((resolve) => scratch.waiting.set('airlock:welcome', resolve))
        modal.postMessage({ type: 'airlock:hello', version: 1, projectId: 'demo' }, modalOrigin, [port2])
        const reply = await Promise.race([welcome, new Promise((r) => setTimeout(r, 20_000, 'no reply'))])
        return { reply, unsent: flood.unsent, kinds: Object.keys(flood.kinds).sort() }
      },
      { seed, count, modalOrigin },
    )
    expect(hello).toEqual({
      reply: { type: 'airlock:welcome', version: 1 },
      unsent: [],
      kinds: ['junk', 'near:projectId', 'near:type', 'near:version', 'ports', 'wrapped'],
    })

    const chainId = JSON.stringify({ namespace: 'eip155', method: 'eth_chainId' })
    const calls = [
      ['state', 'getState'],
      ['chain', 'request', chainId],
    ]
    const bridge = await page.evaluate(floodPort, { seed, count, methods, calls })
    expect(bridge).toMatchObject({ wrong: [], unasked: [], unsent: [] })
    expect(bridge.refusals).toBeGreaterThan(count / 4)
    expect(bridge.answers).toMatchObject({
      state: { value: { ok: true, value: { open: false, view: 'Connect' } } },
      chain: { value: { ok: true, value: '0x7a69' } },
    })
    // Whatever the junk could have caused was sent before the answers above.
    expect(await heard(page.mainFrame())).toEqual([])
    expect(await heard(other)).toEqual([])
    expect(errors).toEqual([])
    expect(await polluted(modal)).toBeUndefined()
  } finally {
    await Promise.all(servers.map((server) => server.close()))
  }
})

test(`another site floods the dApp page and the modal frame with ${2 * count} messages; the host SDK and the modal go on working (seed ${seed})`, async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  const server = await site(otherSite, otherPages)
  try {
    await page.goto('/')
    await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
    const frame = await modalFrame(page)
    await Promise.all([countMessages(page.mainFrame()), countMessages(frame)])
    await page.evaluate(
      (src) =>
        new Promise((resolve) => {
          const iframe = Object.assign(document.createElement('iframe'), { src, onload: resolve })
          document.body.append(iframe)
        }),
      `${otherSite}/other.html`,
    )
    const other = page.frames().find((f) => f.url().startsWith(otherSite)) as Frame
    const flooded = await Promise.all([
      other.evaluate(floodWindows, {
        seed,
        count,
        methods: Object.keys(hostApi),
        targets: 'parent' as const,
      }),
      other.evaluate(floodWindows, {
        seed: seed + 10,
        count,
        methods: Object.keys(modalApi),
        targets: 'frames' as const,
      }),
    ])
    // The dApp page frames the modal and this window only.
    expect(flooded).toEqual([
      { targets: 1, unsent: [] },
      { targets: 1, unsent: [] },
    ])
    await expect.poll(() => seen(frame), { timeout: 60_000 }).toBeGreaterThanOrEqual(count)
    await expect.poll(() => seen(page.mainFrame()), { timeout: 60_000 }).toBeGreaterThanOrEqual(count)

    await connectEvm(page, modal)
    expect(await request(page, 'eth_requestAccounts')).toEqual({ result: [addresses.evm?.address] })
    expect(await request(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
    expect(await heard(other)).toEqual([])
    expect(errors).toEqual([])
    expect(await polluted(page.mainFrame())).toBeUndefined()
    expect(await polluted(frame)).toBeUndefined()
  } finally {
    await server.close()
  }
})

/** A modal origin gone bad: it welcomes the host, then leaves the port to the test. */
const rogueFuzz = `<!doctype html><script src="${modalOrigin}/hostile.js"></script><script>
  addEventListener('message', (event) => {
    if (event.source !== parent) return
    window.port = event.ports[0]
    window.port.postMessage({ type: 'airlock:welcome', version: 1 })
  }, { once: true })
</script>`

test(`a modal gone bad floods the host SDK's port with ${count} messages; the host runs none and still answers (seed ${seed})`, async ({
  page,
}) => {
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  const script = await hostileScript()
  await page.route(`${modalOrigin}/hostile.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: script }),
  )
  await page.route(`${modalOrigin}/rogue-fuzz?*`, (route) =>
    route.fulfill({ contentType: 'text/html', body: rogueFuzz }),
  )
  await page.goto(`/module.html?modal=${modalOrigin}/rogue-fuzz`)
  await expect
    .poll(() => page.frames().some((f) => f.url().startsWith(`${modalOrigin}/rogue-fuzz`)))
    .toBe(true)
  const rogue = page.frames().find((f) => f.url().startsWith(`${modalOrigin}/rogue-fuzz`)) as Frame
  await expect.poll(() => rogue.evaluate(() => 'port' in window)).toBe(true)
  await rogue.evaluate(installPeer)
  await rogue.evaluate(() => {
    const scratch = window as unknown as Scratch
    scratch.listen(scratch.port)
  })
  const calls = [
    ['pong', 'ping'],
    ['wallets', 'listWallets'],
  ]
  const bridge = await rogue.evaluate(floodPort, { seed, count, methods: Object.keys(hostApi), calls })
  expect(bridge).toMatchObject({ wrong: [], unasked: [], unsent: [] })
  expect(bridge.refusals).toBeGreaterThan(count / 4)
  expect(bridge.answers).toMatchObject({
    pong: { value: { ok: true, value: 'pong' } },
    wallets: {
      value: {
        ok: true,
        value: expect.arrayContaining([expect.objectContaining({ name: 'Airlock Test Wallet' })]),
      },
    },
  })
  expect(await heard(rogue)).toEqual([])
  // Nothing reached the page's wallet: the host ran none of the forged calls.
  expect(await walletCalls(page)).toEqual([])
  expect(errors).toEqual([])
  expect(await polluted(page.mainFrame())).toBeUndefined()
})

test('after the handshake a forged message from the page cannot reach the modal', async ({ page, modal }) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await page.evaluate(() => {
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    const replies: unknown[] = []
    Object.assign(window, { forgedReplies: replies })
    // Each forgery with a fresh port of its own, listened on: a reply to either would land here.
    const port = () => {
      const channel = new MessageChannel()
      channel.port1.onmessage = (e) => replies.push(e.data)
      return channel.port2
    }
    frame.contentWindow?.postMessage({ type: 'airlock:hello', version: 1, projectId: 'demo' }, '*', [port()])
    frame.contentWindow?.postMessage(
      { id: 'x', type: 'APPLY', path: ['disconnect'], argumentList: [] },
      '*',
      [port()],
    )
  })
  // A request through the bridge after the forgeries: its answer comes after any answer to them would.
  expect(await request(page, 'eth_chainId')).toEqual({ result: '0x7a69' })
  expect(
    await page.evaluate(() => (window as unknown as { forgedReplies: unknown[] }).forgedReplies),
  ).toEqual([])
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
})

test('a modal URL that never answers makes the host report iframe_load_failed', async ({ page }) => {
  const sockets: Socket[] = []
  const silent = createServer((socket) => sockets.push(socket))
  // A port no journey server uses (they take 5173 to 5181).
  await new Promise<void>((resolve) => silent.listen(5186, '127.0.0.1', resolve))
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('Airlock')) errors.push(message.text())
  })
  try {
    await page.goto('/module.html?modal=http://127.0.0.1:5186&loadTimeout=1500')
    const outcome = await page.evaluate(async () => {
      try {
        await window.airlock?.open()
        return { opened: true }
      } catch (error) {
        return { code: (error as { code: number }).code, data: (error as { data: unknown }).data }
      }
    })
    const fix = 'Nothing answered at http://127.0.0.1:5186; is the modal running there? (modalUrl)'
    expect(outcome).toEqual({ code: -32603, data: { reason: 'iframe_load_failed', fix } })
    // Said once, for the developer, with where Airlock looked.
    expect(errors).toEqual([`Airlock: The Airlock modal failed to load.\n${fix}`])
    expect(
      await page.evaluate(() => (window as unknown as { airlockTimeouts: string[] }).airlockTimeouts),
    ).toEqual(['iframe_load_failed'])
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
  }
})

test('a bridge script that cannot load fails at once with iframe_load_failed, not after 20 s', async ({
  page,
}) => {
  await page.route(`${modalOrigin}/airlock-bridge.js`, (route) => route.abort('connectionrefused'))
  await page.goto('/plain.html')
  const started = Date.now()
  const outcome = await page.evaluate(() =>
    window.airlock?.open().then(
      () => 'opened',
      (error: { code: number; reason: string }) => `${error.code} ${error.reason}`,
    ),
  )
  expect(outcome).toBe('-32603 iframe_load_failed')
  expect(Date.now() - started).toBeLessThan(5_000)
})

/**
 * A modal origin gone bad: it welcomes the host, asks the page's wallet to sign on its own, and once the
 * dApp asks for a signature of its own, tries to have a different message signed in its place.
 */
const signsOnItsOwn = rogueModal(`
    const wallets = await call('w', 'listWallets')
    const evm = wallets.value.find((w) => w.namespace === 'eip155')
    const ask = (id, method, params) => call(id, 'walletRequest', { walletId: evm.id, request: { namespace: 'eip155', method, params } })
    const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    // Connection management is the modal's to do: the wallet authorizes the page.
    await ask('a', 'eth_requestAccounts', [])
    window.results = {
      sign: await ask('s', 'personal_sign', ['0x68656c6c6f', account]),
      // Send on (the default) lets the modal ask for a transaction only while it shows; this one never did.
      send: await ask('t', 'eth_sendTransaction', [{ from: account, to: account, value: '0x1' }]),
      chain: await ask('c', 'eth_chainId'),
    }
    port.addEventListener('message', async (m) => {
      if (!m.data || m.data.type !== 'APPLY' || m.data.path[0] !== 'request') return
      window.results.swapped = await ask('x', 'personal_sign', ['0x6576696c', account])
      window.results.asked = await ask('y', 'personal_sign', m.data.argumentList[0].value.params)
    })
`)

test('a modal that asks the page wallet to sign what the dApp never asked for is refused by the host', async ({
  page,
}) => {
  await page.route(`${modalOrigin}/rogue?*`, (route) =>
    route.fulfill({ contentType: 'text/html', body: signsOnItsOwn }),
  )
  await page.goto(`/module.html?modal=${modalOrigin}/rogue`)
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(`${modalOrigin}/rogue`))).toBe(true)
  const frame = page.frames().find((f) => f.url().startsWith(`${modalOrigin}/rogue`))
  const results = () =>
    frame?.evaluate(() => (window as unknown as { results?: Record<string, unknown> }).results)
  const refused = { ok: false, error: { code: 4100, message: 'This page did not ask for that request.' } }
  await expect.poll(results).toEqual({ sign: refused, send: refused, chain: { ok: true, value: '0x7a69' } })
  expect((await walletCalls(page)).map((call) => call.method)).not.toContain('personal_sign')
  expect((await walletCalls(page)).map((call) => call.method)).not.toContain('eth_sendTransaction')

  // The dApp asks for one signature; the modal may have that one signed, not another in its place.
  // The rogue modal never answers the dApp, so this stays pending until the page goes.
  page
    .evaluate(() =>
      window.airlock?.providers.eip155.request({
        method: 'personal_sign',
        params: ['0x6d696e65', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      }),
    )
    .catch(() => {})
  await expect.poll(async () => (await results())?.asked).toMatchObject({ ok: true })
  expect((await results())?.swapped).toEqual(refused)
  // Only the dApp's own message reached the wallet.
  expect((await walletCalls(page)).filter((call) => call.method === 'personal_sign')).toHaveLength(1)
})
