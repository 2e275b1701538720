/**
 * `npm start`: builds everything, then runs the local stack until Ctrl-C and prints where things are.
 * `--no-build` skips the build (the e2e suite builds once before it starts the stack).
 */
import { execSync } from 'node:child_process'
import * as Accounts from './Accounts.ts'
import { testTokenAddress } from './Chains.ts'
import * as Stack from './Stack.ts'

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build'))
    execSync('npx turbo run build --output-logs=errors-only', { stdio: 'inherit' })
  const stack = await Stack.start()
  const [first] = Accounts.all()
  console.log(`
Airlock is running.
  Demo dApp     ${stack.dappUrl}
  Modal origin  ${stack.modalUrl}   (script: ${stack.modalUrl}/airlock.js)
${stack.devnet.chains.map((c) => `  ${c.chain.name.padEnd(13)} ${c.rpcUrl}   ${c.caipNetworkId}`).join('\n')}
  ALT token     ${testTokenAddress}
  Test account  ${first?.address}  key ${first?.privateKey}
Press Ctrl-C to stop.`)
  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    await stack.stop()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
