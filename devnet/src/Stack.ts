/**
 * The whole local stack on its two origins: the devnet chains, the modal origin on http://127.0.0.1:5174
 * and the demo dApp on http://localhost:5173, both served from their production builds. `npm start` and
 * the e2e suite both run exactly this.
 */
import { fileURLToPath } from 'node:url'
import { type PreviewServer, preview } from 'vite'
import * as Devnet from './Devnet.ts'

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

export type StackOptions = {
  /** @default 5174 */
  modalPort?: number
  /** @default 5173 */
  dappPort?: number
}

export type Stack = {
  devnet: Awaited<ReturnType<typeof Devnet.start>>
  modalUrl: string
  dappUrl: string
  stop(): Promise<void>
}

/**
 * Starts chains, modal origin and dApp; expects `npm run build` to have run.
 * @example
 * const stack = await Stack.start()
 * console.log(stack.dappUrl)
 * await stack.stop()
 */
export async function start(options: StackOptions = {}): Promise<Stack> {
  const devnet = await Devnet.start()
  const servers: PreviewServer[] = []
  const stop = async () => {
    await Promise.allSettled(servers.map((server) => server.close()))
    await devnet.stop()
  }
  try {
    servers.push(await serve('modal-app', '127.0.0.1', options.modalPort ?? 5174))
    servers.push(await serve('examples/dapp', 'localhost', options.dappPort ?? 5173))
  } catch (error) {
    await stop()
    throw error
  }
  return {
    devnet,
    modalUrl: `http://127.0.0.1:${options.modalPort ?? 5174}`,
    dappUrl: `http://localhost:${options.dappPort ?? 5173}`,
    stop,
  }
}

function serve(dir: string, host: string, port: number): Promise<PreviewServer> {
  return preview({
    root: root(dir),
    configFile: root(`${dir}/vite.config.ts`),
    logLevel: 'warn',
    preview: { host, port, strictPort: true, open: false },
  })
}
