/**
 * The whole local stack: the devnet chains (anvil ×2; a Solana JSON-RPC over litesvm on 127.0.0.1:8899,
 * WebSocket 8900; Litecoin Core's regtest for the Bitcoin family on 127.0.0.1:19443); the Airlock API on
 * http://127.0.0.1:8787 with its history indexer, its production build in a process of its own (`Api.ts`), as
 * a deployment runs it, so the chains never slow it; the modal origin on http://airlock.localhost:5174
 * (modal-app's production build; bound to loopback, a name so that WebAuthn takes it, see `Loopback.ts`), in
 * a process of its own that asks the API for projects' origins, so API load never delays the modal's files;
 * a WalletConnect relay on
 * ws://127.0.0.1:8790; a mail catcher (SMTP 127.0.0.1:1025, web UI http://127.0.0.1:1080) that the API sends
 * its email login codes to; a sign-in provider (OpenID, http://127.0.0.1:8795) standing in for every social
 * social provider the product offers (Google, X, Discord, GitHub, Apple, Facebook) at the API's social login, each in its
 * real shape; a Farcaster relay (http://127.0.0.1:8796) for Sign In With Farcaster, whose fids the
 * IdRegistry on chain A says; a sandbox on-ramp provider (http://127.0.0.1:8797) whose test cards buy ETH
 * and tUSD delivered on the EVM dev chains and SOL on the Solana one; an ERC-4337 bundler (Alto) per chain, on http://127.0.0.1:4337 (A)
 * and 4338 (B), behind the API's bundler and paymaster routes; and the demo dApp on http://localhost:5173.
 * `npm start`, the e2e suite and the bench all run exactly this.
 */
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { type Config, ModalOriginServer, Projects } from '@airlock/api'
import { ensGatewayPath } from '@airlock/api/contract'
import { type PreviewServer, preview } from 'vite'
import * as Api from './Api.ts'
import * as Bundler from './aa/Bundler.ts'
import * as Litecoind from './bitcoin/Litecoind.ts'
import * as Regtest from './bitcoin/Regtest.ts'
import { devnetTokens, ens, idRegistryAddress, uniswapV2, uniswapV3 } from './Chains.ts'
import { bitcoinChain, demoSponsorship, seed, solanaChain, usdc, walletKey } from './Demo.ts'
import * as Devnet from './Devnet.ts'
import * as Ens from './ens/Ens.ts'
import * as Farcaster from './farcaster/Farcaster.ts'
import { modalHost } from './Loopback.ts'
import * as Mail from './Mail.ts'
import * as Oidc from './Oidc.ts'
import * as Onramp from './onramp/Dev.ts'
import * as Reaper from './Reaper.ts'
import * as Relay from './Relay.ts'
import * as Solana from './solana/Solana.ts'
import * as TestWallets from './TestWallets.ts'

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

export type StackOptions = {
  /** @default 5174 */
  modalPort?: number
  /** @default 5173 */
  dappPort?: number
  /** @default 8787 */
  apiPort?: number
  /** The WalletConnect relay's port. @default 8790 */
  relayPort?: number
  /** The Bitcoin-family node's RPC port (its P2P port is the next one). @default 19443 */
  bitcoinPort?: number
  /** The Solana RPC's port (its WebSocket is the next one). @default 8899 */
  solanaPort?: number
  /** The mail catcher's SMTP port. @default 1025 */
  mailSmtpPort?: number
  /** The mail catcher's web UI and HTTP API port. @default 1080 */
  mailWebPort?: number
  /** The sign-in provider's port. @default 8795 */
  oidcPort?: number
  /** The Farcaster relay's port. @default 8796 */
  farcasterRelayPort?: number
  /** The sandbox on-ramp's port. @default 8797 */
  onrampPort?: number
  /** Interface every server binds; `0.0.0.0` inside a container. @default loopback */
  host?: string
  /** PGlite's data folder, unless `DATABASE_URL` is set. @default 'api/.airlock-data' */
  dataDir?: string
  /** Projects seeded beside `demo`, by id: their allowed origins (the e2e suite's pages on other sites). */
  projects?: Record<string, string[]>
  /** The API's rate limits and time-outs (the config's `limits`); what is left out keeps its default. */
  apiLimits?: NonNullable<Config.Config['limits']>
}

export type Stack = {
  devnet: Awaited<ReturnType<typeof Devnet.start>>
  /** An ERC-4337 bundler (Alto) per chain, A's on 127.0.0.1:4337, B's on 4338; the API relays to them. */
  bundlers: readonly Bundler.Instance[]
  /** Litecoin Core's regtest: the Bitcoin-family chain, a block every 5 s. */
  bitcoin: Litecoind.Instance
  /** The Solana chain, a slot every 400 ms, with a USDC-like token. */
  solana: Solana.Instance
  /** The mail catcher the API sends its login codes to; `webUrl` shows them. */
  mail: Mail.Instance
  /** The sign-in provider the API's social login uses for each of the product's providers (docs/behaviour.md §1). */
  oidc: Oidc.Instance
  /** The relay of Sign In With Farcaster; `Farcaster.Relay.signIn` with it is a visitor's phone. */
  farcasterRelay: Farcaster.Relay.Instance
  /** The sandbox on-ramp provider's checkout and API. */
  onrampUrl: string
  apiUrl: string
  modalUrl: string
  dappUrl: string
  relayUrl: string
  stop(): Promise<void>
}

/** What the Bitcoin wallet of the tests holds on the devnet from the start. */
export const bitcoinFunding = 2

/**
 * Starts chains, API, modal origin and dApp; expects `npm run build` to have run.
 * @example
 * const stack = await Stack.start()
 * console.log(stack.dappUrl)
 * await stack.stop()
 */
export async function start(options: StackOptions = {}): Promise<Stack> {
  const apiPort = options.apiPort ?? 8787
  const modalPort = options.modalPort ?? 5174
  const dappPort = options.dappPort ?? 5173
  const apiUrl = `http://127.0.0.1:${apiPort}`
  const modalUrl = `http://${modalHost}:${modalPort}`
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => {})
  }
  // The modal origin needs nothing else to start (it asks the API only when a page comes), so its process
  // starts while the chains do.
  const modal = ModalOriginServer.spawn({
    dir: root('modal-app/dist'),
    apiUrl,
    host: options.host,
    port: modalPort,
    track: Reaper.track,
  })
  // A failure to start surfaces where it is awaited below, not as an unhandled rejection meanwhile.
  modal.catch(() => {})
  stops.push(() => modal.then((running) => running.stop()))
  try {
    const bitcoinPort = options.bitcoinPort ?? 19443
    const solanaPort = options.solanaPort ?? Solana.defaultPort
    const [{ bundlers, ...devnet }, bitcoin, solana, mail, oidc, farcasterRelay] = await Promise.all([
      // The project's names resolve on both chains through this stack's API.
      Devnet.start({
        ...(options.host ? { host: options.host } : {}),
        ens: { gatewayUrl: `${apiUrl}${ensGatewayPath}`, suffix: Ens.defaultSuffix },
      }).then(async (started) => {
        stops.push(started.stop)
        // After the chains: Alto refuses a chain without the EntryPoints the devnet deploys.
        const onStarted = (stopBundler: () => Promise<void>) => stops.push(stopBundler)
        return { ...started, bundlers: await Bundler.startAll(started, { host: options.host, onStarted }) }
      }),
      Litecoind.start({ host: options.host, rpcPort: bitcoinPort, p2pPort: bitcoinPort + 1 }).then(
        (started) => {
          stops.push(started.stop)
          return started
        },
      ),
      Solana.start({ host: options.host, port: solanaPort }).then((started) => {
        stops.push(started.stop)
        return started
      }),
      Mail.start({
        host: options.host,
        smtpPort: options.mailSmtpPort ?? Mail.defaultPorts.smtp,
        webPort: options.mailWebPort ?? Mail.defaultPorts.web,
      }).then((started) => {
        stops.push(started.stop)
        return started
      }),
      Oidc.start({ apiUrl, host: options.host, port: options.oidcPort ?? Oidc.defaultPort }).then(
        (started) => {
          stops.push(started.stop)
          return started
        },
      ),
      Farcaster.Relay.start({
        host: options.host,
        authKey: Farcaster.devAuthKey,
        port: options.farcasterRelayPort ?? Farcaster.Relay.defaultPort,
      }).then((started) => {
        stops.push(started.stop)
        return started
      }),
    ])
    await solana.fund([TestWallets.solanaAddress() as Parameters<typeof solana.fund>[0][number]])
    await bitcoin.fund(TestWallets.bitcoinAddress(Regtest.network), bitcoinFunding)
    await bitcoin.mine(1)
    const onramp = await Onramp.start({
      devnet,
      solanaRpcUrl: solana.rpcUrl,
      apiUrl,
      host: options.host,
      port: options.onrampPort,
    })
    stops.push(onramp.sandbox.stop)
    const dataDir = options.dataDir ?? root('api/.airlock-data')
    const api = await Api.start({
      dataDir,
      host: options.host,
      port: apiPort,
      seed: async (db) => {
        await seed(db, devnet, apiUrl)
        for (const [id, origins] of Object.entries(options.projects ?? {}))
          await Projects.add(db, id, origins)
      },
      settings: {
        apiUrl,
        modalOrigin: modalUrl,
        chains: [
          ...devnet.chains.map((running, index) => ({
            id: running.caipNetworkId,
            name: running.chain.name,
            rpcUrl: running.rpcUrl,
            nativeCurrency: running.chain.nativeCurrency,
            testnet: true,
            tokens: Object.values(devnetTokens),
            swaps: {
              uniswapV2,
              uniswapV3: {
                factory: uniswapV3.factory,
                quoter: uniswapV3.quoter,
                router: uniswapV3.router,
                weth: uniswapV2.weth,
              },
            },
            accountAbstraction: Bundler.apiConfig(bundlers[index]),
          })),
          { ...solanaChain, rpcUrl: solana.rpcUrl, wsUrl: solana.wsUrl, tokens: [usdc] },
          { ...bitcoinChain, rpcUrl: bitcoin.rpcUrl },
        ],
        limits: options.apiLimits,
        // The demo's and the tests' projects: a new embedded account transacts with no ETH.
        sponsorship: ['demo', ...Object.keys(options.projects ?? {})].map((projectId) => ({
          projectId,
          ...demoSponsorship,
        })),
        email: {
          smtp: mail.smtp,
          from: 'Airlock <login@airlock.localhost>',
          // A new one each run: codes and sessions of an earlier run never verify.
          secret: randomBytes(32).toString('hex'),
          // Every visitor of the demo and every e2e journey is one client here, loopback: its caps are the
          // suite's, not a stranger's (the address's own caps keep their defaults).
          limits: {
            codesPerClient: [{ max: 10_000, windowS: 3_600 }],
            wrongCodesPerClient: [{ max: 10_000, windowS: 3_600 }],
          },
        } satisfies Config.Config['email'],
        social: Oidc.socialConfig(oidc),
        farcaster: {
          relayUrl: farcasterRelay.url,
          idRegistry: { chainId: devnet.chains[0].caipNetworkId, address: idRegistryAddress },
        },
        wallet: { key: walletKey(dataDir) },
        names: {
          suffix: Ens.defaultSuffix,
          chainId: devnet.chains[0].caipNetworkId,
          universalResolver: ens.universalResolver,
          gatewayKey: Ens.devGatewayKey,
          // The suffix's resolver asks this API, on loopback: the one internal gateway the API may ask.
          internalGateways: [apiUrl],
        },
        onramp: { providers: onramp.providers },
      },
    })
    stops.push(api.stop)
    await modal
    const relay = await Relay.start({ port: options.relayPort ?? Relay.defaultPort, host: options.host })
    stops.push(relay.stop)
    const dapp = await serve('examples/dapp', options.host ?? 'localhost', dappPort)
    stops.push(() => dapp.close())
    return {
      devnet,
      bundlers,
      bitcoin,
      solana,
      mail,
      oidc,
      farcasterRelay,
      onrampUrl: onramp.sandbox.url,
      apiUrl,
      modalUrl,
      dappUrl: `http://localhost:${dappPort}`,
      relayUrl: relay.url,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
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
