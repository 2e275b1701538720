#!/usr/bin/env -S npx tsx
import { ConfigError } from './ConfigFile.ts'
/**
 * The service's command line, `airlock-api` (built: `node api/dist/cli.js`).
 *
 *   serve     --config <file> [--modal-dir <dir>] [--host 127.0.0.1] [--api-port 8787] [--modal-port 5174] [--workers 1]
 *   project   add <id> [origin...] | remove <id> [origin] | list | analytics <id> on|off
 *   prices    set <symbol> <usd> [--chain <caip2>] | list | remove <symbol> [--chain <caip2>]
 *   config    check          networks list          tokens list [<chain>]
 *   sponsorship spend <project> [--chain <caip2>] [--day YYYY-MM-DD]
 *   seed      registry
 *
 * Every command takes `--config <file>` (or AIRLOCK_CONFIG) and uses the database the server uses:
 * PostgreSQL when DATABASE_URL is set, else PGlite in AIRLOCK_DATA or the configuration's `dataDir`.
 */
import { type Args, parse, UsageError, withDatabase } from './commands/Args.ts'
import * as ConfigCommand from './commands/config.ts'
import * as PricesCommand from './commands/prices.ts'
import * as ProjectCommand from './commands/project.ts'
import * as SponsorshipCommand from './commands/sponsorship.ts'
import * as Registry from './features/registry/Registry.ts'
import * as Start from './Start.ts'

const commands: Record<string, (args: Args) => Promise<number>> = {
  project: ProjectCommand.run,
  prices: PricesCommand.run,
  config: ConfigCommand.run,
  networks: ConfigCommand.run,
  tokens: ConfigCommand.run,
  sponsorship: SponsorshipCommand.run,
  seed: (args) => {
    if (args.words[1] !== 'registry') throw new UsageError('seed: what? (registry)')
    return withDatabase(args, async (db) => {
      console.log(`Seeded ${await Registry.seed(db)} wallets.`)
      return 0
    })
  },
}

const usage = [
  `serve ${Start.flags}`,
  ProjectCommand.usage,
  PricesCommand.usage,
  ConfigCommand.usage,
  SponsorshipCommand.usage,
  'seed registry',
].join('\n  airlock-api ')

async function main(argv: readonly string[]): Promise<number> {
  const [command = ''] = argv
  if (command === 'serve') return Start.serve(argv.slice(1))
  const run = commands[command]
  try {
    if (!run) throw new UsageError(command ? `${command}: not a command` : 'which command?')
    return await run(parse(argv, process.env))
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\nusage:\n  airlock-api ${usage}`)
      return 2
    }
    if (error instanceof ConfigError) {
      console.error(error.message)
      return 1
    }
    throw error
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  },
)
