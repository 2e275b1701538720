/**
 * A dApp page that still serves the airlock.js of protocol 1.0 (e2e/fixtures/airlock-1.0) keeps working
 * with today's modal: pages and CDNs cache the script long after the modal is redeployed. The page is
 * served by a real server on localhost, as a dApp would serve its own copy of the script.
 */
import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { verifyMessage } from 'viem'
import { addresses, connectEvm, expect, modalOrigin, request, test } from './fixtures.ts'
import { serve } from './servers.ts'

const evm = addresses.evm?.address as `0x${string}`
const oldOrigin = 'http://localhost:5179'
const fixture = fileURLToPath(new URL('../fixtures/airlock-1.0/', import.meta.url))
const scripts = ['airlock.js', 'airlock-bridge.js']

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>A dApp with airlock.js 1.0</title>
    <script src="/airlock-1.0/airlock.js" data-project-id="demo" data-modal-url="${modalOrigin}"
      data-networks="eip155:31337,eip155:31338"></script>
  </head>
  <body><h1>A dApp that never updated airlock.js</h1></body>
</html>`

let server: Awaited<ReturnType<typeof serve>>
const served: string[] = []
test.beforeAll(async () => {
  server = await serve(oldOrigin, (path, res) => {
    served.push(path)
    if (path === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(page)
    const name = path.replace('/airlock-1.0/', '')
    if (!path.startsWith('/airlock-1.0/') || !scripts.includes(name)) return res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/javascript' })
    createReadStream(`${fixture}${name}`).pipe(res)
  })
})
test.afterAll(() => server.close())

test('airlock.js 1.0 connects, reads accounts, signs and opens Networks with today’s modal', async ({
  page: tab,
  modal,
}) => {
  const fromModalOrigin: string[] = []
  tab.on('request', (r) => {
    if (/\/airlock(-bridge)?\.js/.test(r.url()) && r.url().startsWith(modalOrigin))
      fromModalOrigin.push(r.url())
  })
  await tab.goto(`${oldOrigin}/`)
  await connectEvm(tab, modal)

  expect((await request(tab, 'eth_accounts')).result).toEqual([evm])

  const message = 'An old airlock.js signs with a new modal'
  const signed = await request(tab, 'personal_sign', [`0x${Buffer.from(message).toString('hex')}`, evm])
  expect(signed.error).toBeUndefined()
  expect(await verifyMessage({ address: evm, message, signature: signed.result as `0x${string}` })).toBe(true)

  await tab.evaluate(() => window.airlock?.close())
  await expect(modal.getByRole('dialog')).toBeHidden()
  await tab.evaluate(() => window.airlock?.open({ view: 'Networks' }))
  await expect(modal.getByRole('button', { name: /Airlock Devnet A/ })).toBeVisible()
  await expect.poll(() => tab.evaluate(() => window.airlock?.getState().view)).toBe('Networks')

  // The page ran the 1.0 build it serves, never the modal origin's current one.
  expect(served).toEqual(
    expect.arrayContaining(['/airlock-1.0/airlock.js', '/airlock-1.0/airlock-bridge.js']),
  )
  expect(fromModalOrigin).toEqual([])
})
