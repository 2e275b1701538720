/**
 * `airlock-api config check | networks list | tokens list [<chain>]`: what the configuration file holds,
 * checked as the server checks it. Networks and tokens live in that file, not the database: edit it, run
 * `config check`, restart.
 */
import * as ConfigFile from '../ConfigFile.ts'
import { type Args, UsageError } from './Args.ts'

export const usage = 'config check | networks list | tokens list [<chain>]'

export function run(args: Args): Promise<number> {
  const [topic, action, chainId = args.chain] = args.words
  const known = ['config check', 'networks list', 'tokens list'].includes(`${topic} ${action}`)
  if (!known) throw new UsageError(`${topic} ${action ?? ''}: not a command`)
  const settings = ConfigFile.load({ path: args.config, env: args.env })
  const { chains } = settings.config
  if (topic === 'config' && action === 'check') {
    const where = settings.database.url
      ? 'PostgreSQL (DATABASE_URL)'
      : `PGlite in ${settings.database.dataDir}`
    console.log(
      `${settings.path}: valid; ${chains.length} chain${chains.length === 1 ? '' : 's'}; database: ${where}.`,
    )
    return Promise.resolve(0)
  }
  if (topic === 'networks' && action === 'list') {
    // RPC URLs stay unprinted: a Bitcoin node's carries its password.
    for (const chain of chains)
      console.log(
        `${chain.id}\t${chain.name}\t${chain.nativeCurrency.symbol}\t${chain.tokens?.length ?? 0} tokens${chain.testnet ? '\ttestnet' : ''}${chain.swaps ? '\tswaps' : ''}`,
      )
    return Promise.resolve(0)
  }
  const listed = chains.filter((chain) => chainId === undefined || chain.id === chainId)
  if (listed.length === 0)
    throw new ConfigFile.ConfigError(`${chainId}: not a chain of ${settings.path} (see networks list).`)
  for (const chain of listed)
    for (const token of chain.tokens ?? [])
      console.log(`${chain.id}\t${token.symbol}\t${token.address}\t${token.decimals} decimals\t${token.name}`)
  return Promise.resolve(0)
}
