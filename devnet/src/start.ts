/**
 * `npm start`: builds everything, then runs the local stack until Ctrl-C and prints where things are.
 * `--no-build` skips the build (the e2e suite builds once before it starts the stack); `--host 0.0.0.0`
 * binds every server on all interfaces (inside a container); `--data <dir>` picks PGlite's folder
 * (`memory://` keeps nothing, as the e2e suite does); `--project <id>=<origin>,…` seeds one more project
 * beside `demo` (the e2e suite's pages on other sites), so `npm start` allows only what it always did.
 */
import { execSync } from 'node:child_process'
import * as Accounts from './Accounts.ts'
import { idRegistryAddress, testTokenAddress } from './Chains.ts'
import * as Demo from './Demo.ts'
import * as Foreground from './Foreground.ts'
import * as Stack from './Stack.ts'

Foreground.run(async () => {
  if (!process.argv.includes('--no-build'))
    execSync('npx turbo run build --output-logs=errors-only', { stdio: 'inherit' })
  const flag = (name: string) => {
    const index = process.argv.indexOf(name)
    return index > 0 ? process.argv[index + 1] : undefined
  }
  const host = flag('--host')
  const dataDir = flag('--data')
  const [id, origins] = flag('--project')?.split('=') ?? []
  const stack = await Stack.start({
    ...(host ? { host } : {}),
    ...(dataDir ? { dataDir } : {}),
    ...(id && origins ? { projects: { [id]: origins.split(',') } } : {}),
  })
  const [first] = Accounts.all()
  console.log(`
Airlock is running.
  Demo dApp        ${stack.dappUrl}
  Modal origin     ${stack.modalUrl}   (script: ${stack.modalUrl}/airlock.js)
  API              ${stack.apiUrl}   (project: demo)
  WC relay         ${stack.relayUrl}
  Mail catcher     ${stack.mail.webUrl}   (read the login codes here; SMTP ${stack.mail.smtp.host}:${stack.mail.smtp.port})
  Sign-in (OIDC)   ${stack.oidc.issuer}   (stands in for Google, X, Discord, GitHub, Apple and Facebook; any login name works)
  Farcaster relay  ${stack.farcasterRelay.url}   (IdRegistry ${idRegistryAddress} on ${stack.devnet.chains[0].caipNetworkId})
  On-ramp sandbox  ${stack.onrampUrl}   (test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 3220 asks to authenticate, 4000 0000 0000 0002 is declined)
${stack.devnet.chains.map((c) => `  ${c.chain.name.padEnd(16)} ${c.rpcUrl}   ${c.caipNetworkId}`).join('\n')}
  Bundlers (4337)  ${stack.bundlers.map((bundler) => bundler.url).join(', ')}   (Alto for chains A and B; dApps use ${stack.apiUrl}/v1/bundler/{chainId})
  ALT token        ${testTokenAddress}
  Solana           ${stack.solana.rpcUrl} (ws ${stack.solana.wsUrl})   ${Demo.solanaChain.id}
  USDC (Solana)    ${stack.solana.usdcMint}
  Bitcoin family   ${redacted(stack.bitcoin.rpcUrl)} (Litecoin regtest, a block every 5 s)   ${Demo.bitcoinChain.id}
  Esplora          ${stack.apiUrl}/v1/bip122/${Demo.bitcoinChain.id.slice('bip122:'.length)}/esplora/blocks/tip/height
  Test account     ${first?.address}  key ${first?.privateKey}
Press Ctrl-C to stop.`)
  return stack.stop
})

/** The node's URL without its password, which only the API needs. */
function redacted(url: string): string {
  const parsed = new URL(url)
  parsed.password = ''
  parsed.username = ''
  return parsed.href.replace(/\/$/, '')
}
