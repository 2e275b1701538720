/**
 * Runs the devnet in the foreground until Ctrl-C: `tsx devnet/src/cli.ts` (or `npm run -w @airlock/devnet start`).
 */
import * as Accounts from './Accounts.ts'
import { testTokenAddress } from './Chains.ts'
import * as Devnet from './Devnet.ts'
import * as Foreground from './Foreground.ts'

Foreground.run(async () => {
  // `--host 0.0.0.0` inside a container, so the published ports reach the chains.
  const hostFlag = process.argv.indexOf('--host')
  const host = hostFlag > 0 ? process.argv[hostFlag + 1] : undefined
  const devnet = await Devnet.start(host ? { host } : {})
  const [first] = Accounts.all()
  console.log('Airlock devnet running')
  for (const chain of devnet.chains)
    console.log(`  ${chain.chain.name} (${chain.caipNetworkId})  ${chain.rpcUrl}`)
  console.log(`  ALT token   ${testTokenAddress}`)
  console.log(`  Account 0   ${first?.address}`)
  console.log(`  Private key ${first?.privateKey}  (public test key: never send real funds)`)
  console.log('Press Ctrl-C to stop.')
  return devnet.stop
})
