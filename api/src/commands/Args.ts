/**
 * What every command shares: its words and flags (`--config`, `--chain`, `--day`), and the database it works on,
 * found the way the server finds it (`ConfigFile`), so a command never writes to another folder than the
 * server reads.
 */
import { parseArgs } from 'node:util'
import * as ConfigFile from '../ConfigFile.ts'
import * as Database from '../Database.ts'

export type Args = {
  words: string[]
  /** `--config`, else `AIRLOCK_CONFIG`. */
  config: string | undefined
  /** `--chain`: a CAIP-2 id of the configuration's chains. */
  chain: string | undefined
  /** `--day`: a UTC day, `YYYY-MM-DD`. */
  day: string | undefined
  env: ConfigFile.Env
}

/** A mistake in how a command was called: its usage is printed, the exit code is 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export function parse(args: readonly string[], env: ConfigFile.Env): Args {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { config: { type: 'string' }, chain: { type: 'string' }, day: { type: 'string' } },
      allowPositionals: true,
    })
    return {
      words: positionals,
      config: values.config ?? env.AIRLOCK_CONFIG,
      chain: values.chain,
      day: values.day,
      env,
    }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Runs `work` on the database, closed afterwards whatever happens. */
export async function withDatabase<T>(args: Args, work: (db: Database.Database) => Promise<T>): Promise<T> {
  const { url, dataDir } = ConfigFile.loadDatabase({ path: args.config, env: args.env })
  const db = await Database.open({ url, dataDir })
  try {
    return await work(db)
  } finally {
    await db.close()
  }
}
