import { createServer, type Socket } from 'node:net'
import { walletCalls } from '../wallets/index.ts'
import { connectEvm, expect, modalOrigin, serve, test } from './fixtures.ts'

const frameSrc = `${modalOrigin}/?projectId=demo&config=${encodeURIComponent(JSON.stringify({ networks: ['eip155:31337'] }))}`
const sandbox = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms'

/** A page that frames the modal itself, without the SDK, so the test can speak the handshake by hand. */
const forgePage = `<!doctype html><title>forge</title>
<iframe id="modal" sandbox="${sandbox}" src="${frameSrc}"></iframe>
<iframe id="other" srcdoc="<p>another window</p>"></iframe>
<script>
  const modal = document.getElementById('modal')
  const hello = { type: 'airlock:hello', version: 1, projectId: 'demo' }
  const reply = (port, ms) => new Promise((resolve) => {
    port.onmessage = (e) => resolve(e.data)
    setTimeout(() => resolve('no reply'), ms)
  })
  window.forge = async () => {
    // A hello from a window that is not the modal's parent.
    const other = document.getElementById('other').contentWindow
    const forged = new MessageChannel()
    other.eval('(' + ((target, port, hello) => target.postMessage(hello, '*', [port])).toString() + ')')(modal.contentWindow, forged.port2, hello)
    const forgedReply = await reply(forged.port1, 500)
    // 1000 malformed messages from the parent itself.
    for (let i = 0; i < 1000; i++) {
      const junk = [null, 42, 'x'.repeat(i), { type: 'airlock:hello' }, { ...hello, version: 'one' }, { ...hello, projectId: i }, [hello], { __proto__: hello }][i % 8]
      modal.contentWindow.postMessage(junk, '*')
    }
    const real = new MessageChannel()
    modal.contentWindow.postMessage(hello, '${modalOrigin}', [real.port2])
    const welcome = await reply(real.port1, 5000)
    // 1000 malformed messages on the private port, then a well-formed call.
    for (let i = 0; i < 1000; i++) {
      const junk = [null, { id: 'a', type: 'APPLY', path: ['__proto__'] }, { id: i, type: 'SET' }, { id: 'b', type: 'APPLY', path: ['ping'], argumentList: [{ type: 'HANDLER', value: 1 }] }][i % 4]
      real.port1.postMessage(junk)
    }
    const pong = new Promise((resolve) => {
      real.port1.onmessage = (e) => e.data && e.data.id === 'ping-1' && resolve(e.data)
      setTimeout(() => resolve('no reply'), 5000)
    })
    real.port1.postMessage({ id: 'ping-1', type: 'APPLY', path: ['ping'], argumentList: [] })
    return { forgedReply, welcome, pong: await pong }
  }
</script>`

test('a forged hello from another window is ignored, and 1000 malformed messages leave the modal working', async ({
  page,
}) => {
  const server = await serve('http://localhost:5178', (_, response) =>
    response.writeHead(200, { 'Content-Type': 'text/html' }).end(forgePage),
  )
  try {
    await page.goto('http://localhost:5178/forge.html')
    await page.waitForLoadState('load')
    const outcome = await page.evaluate(() => (window as unknown as { forge(): Promise<unknown> }).forge())
    expect(outcome).toEqual({
      forgedReply: 'no reply',
      welcome: { type: 'airlock:welcome', version: 1 },
      pong: { id: 'ping-1', type: 'RAW', value: { ok: true, value: 'pong' } },
    })
  } finally {
    await server.close()
  }
})

test('after the handshake a forged message from the page cannot reach the modal', async ({ page, modal }) => {
  await page.goto('/')
  await connectEvm(page, modal)
  await page.evaluate(() => {
    const frame = document.querySelector('iframe[title="Airlock"]') as HTMLIFrameElement
    const channel = new MessageChannel()
    Object.assign(window, { forgedReplies: [] as unknown[] })
    channel.port1.onmessage = (e) =>
      (window as unknown as { forgedReplies: unknown[] }).forgedReplies.push(e.data)
    frame.contentWindow?.postMessage({ type: 'airlock:hello', version: 1, projectId: 'demo' }, '*', [
      channel.port2,
    ])
    frame.contentWindow?.postMessage({ id: 'x', type: 'APPLY', path: ['disconnect'], argumentList: [] }, '*')
  })
  await page.waitForTimeout(300)
  expect(
    await page.evaluate(() => (window as unknown as { forgedReplies: unknown[] }).forgedReplies),
  ).toEqual([])
  expect(await page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
})

test('a modal URL that never answers makes the host report iframe_load_failed', async ({ page }) => {
  const sockets: Socket[] = []
  const silent = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => silent.listen(5176, '127.0.0.1', resolve))
  try {
    await page.goto('/module.html?modal=http://127.0.0.1:5176&loadTimeout=1500')
    const outcome = await page.evaluate(async () => {
      try {
        await window.airlock?.open()
        return { opened: true }
      } catch (error) {
        return { code: (error as { code: number }).code, data: (error as { data: unknown }).data }
      }
    })
    expect(outcome).toEqual({ code: -32603, data: { reason: 'iframe_load_failed' } })
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
const rogueModal = `<!doctype html><script>
  addEventListener('message', async (event) => {
    if (event.source !== parent) return
    const port = event.ports[0]
    port.start()
    port.postMessage({ type: 'airlock:welcome', version: 1 })
    const call = (id, method, value) => new Promise((resolve) => {
      port.addEventListener('message', (m) => m.data && m.data.id === id && resolve(m.data.value))
      port.postMessage({ id, type: 'APPLY', path: [method], argumentList: value === undefined ? [] : [{ type: 'RAW', value }] })
    })
    const wallets = await call('w', 'listWallets')
    const evm = wallets.value.find((w) => w.namespace === 'eip155')
    const ask = (id, method, params) => call(id, 'walletRequest', { walletId: evm.id, request: { namespace: 'eip155', method, params } })
    const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    // Connection management is the modal's to do: the wallet authorizes the page.
    await ask('a', 'eth_requestAccounts', [])
    window.results = {
      sign: await ask('s', 'personal_sign', ['0x68656c6c6f', account]),
      chain: await ask('c', 'eth_chainId'),
    }
    port.addEventListener('message', async (m) => {
      if (!m.data || m.data.type !== 'APPLY' || m.data.path[0] !== 'request') return
      window.results.swapped = await ask('x', 'personal_sign', ['0x6576696c', account])
      window.results.asked = await ask('y', 'personal_sign', m.data.argumentList[0].value.params)
    })
  }, { once: true })
</script>`

test('a modal that asks the page wallet to sign what the dApp never asked for is refused by the host', async ({
  page,
}) => {
  await page.route(`${modalOrigin}/rogue?*`, (route) =>
    route.fulfill({ contentType: 'text/html', body: rogueModal }),
  )
  await page.goto(`/module.html?modal=${modalOrigin}/rogue`)
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(`${modalOrigin}/rogue`))).toBe(true)
  const frame = page.frames().find((f) => f.url().startsWith(`${modalOrigin}/rogue`))
  const results = () =>
    frame?.evaluate(() => (window as unknown as { results?: Record<string, unknown> }).results)
  const refused = { ok: false, error: { code: 4100, message: 'This page did not ask for that request.' } }
  await expect.poll(results).toEqual({ sign: refused, chain: { ok: true, value: '0x7a69' } })
  expect((await walletCalls(page)).map((call) => call.method)).not.toContain('personal_sign')

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
