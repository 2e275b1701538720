import { createServer, type Socket } from 'node:net'
import { connectEvm, expect, modalOrigin, test } from './fixtures.ts'

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
  await page.route('http://localhost:5173/forge.html', (route) =>
    route.fulfill({ body: forgePage, contentType: 'text/html' }),
  )
  await page.goto('/forge.html')
  await page.waitForLoadState('load')
  const outcome = await page.evaluate(() => (window as unknown as { forge(): Promise<unknown> }).forge())
  expect(outcome).toEqual({
    forgedReply: 'no reply',
    welcome: { type: 'airlock:welcome', version: 1 },
    pong: { id: 'ping-1', type: 'RAW', value: { ok: true, value: 'pong' } },
  })
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
