/**
 * `npm start`: builds everything, then runs the local stack until Ctrl-C and prints where things are.
 * `--no-build` skips the build (the e2e suite builds once before it starts the stack); `--host 0.0.0.0`
 * binds every server on all interfaces (inside a container).
 */
import { execSync } from 'node:child_process'
import * as Accounts from './Accounts.ts'
import { testTokenAddress } from './Chains.ts'
import * as Foreground from './Foreground.ts'
import * as Stack from './Stack.ts'

Foreground.run(async () => {
  if (!process.argv.includes('--no-build'))
    execSync('npx turbo run build --output-logs=errors-only', { stdio: 'inherit' })
  const hostFlag = process.argv.indexOf('--host')
  const host = hostFlag > 0 ? process.argv[hostFlag + 1] : undefined
  const stack = await Stack.start(host ? { host } : {})
  const [first] = Accounts.all()
  console.log(`
Airlock is running.
  Demo dApp     ${stack.dappUrl}
  Modal origin  ${stack.modalUrl}   (script: ${stack.modalUrl}/airlock.js)
  API           ${stack.apiUrl}   (project: demo)
  WC relay      ${stack.relayUrl}
${stack.devnet.chains.map((c) => `  ${c.chain.name.padEnd(13)} ${c.rpcUrl}   ${c.caipNetworkId}`).join('\n')}
  ALT token     ${testTokenAddress}
  Test account  ${first?.address}  key ${first?.privateKey}
Press Ctrl-C to stop.`)
  return stack.stop
})
