/**
 * Where a deployment's settings come from, checked before anything starts: the configuration file
 * (`--config` or `AIRLOCK_CONFIG`), the data folder (`AIRLOCK_DATA`, else the file's `dataDir`, resolved
 * against the file's folder, never the working directory) and `DATABASE_URL`. Every mistake is one
 * {@link ConfigError} whose message names the file or variable, the key path and the fix.
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import schema from '../airlock.config.schema.json' with { type: 'json' }
import * as Config from './Config.ts'

/** A setting that keeps the service from starting; the message is meant for the operator as it is. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** The environment variables read here. */
export type Env = {
  AIRLOCK_CONFIG?: string | undefined
  AIRLOCK_DATA?: string | undefined
  DATABASE_URL?: string | undefined
}

export type Settings = {
  /** The configuration, parsed. */
  config: Config.Config
  /** The file it came from, absolute. */
  path: string
  /** What `Database.open` takes: a PostgreSQL URL, else PGlite's data folder (absolute). */
  database: Database
}

export type Database = { url: string; dataDir?: undefined } | { url?: undefined; dataDir: string }

/** The data folder's name beside the configuration file when neither it nor `AIRLOCK_DATA` names one. */
const defaultDataDir = '.airlock-data'

const docs = 'see api/README.md#configuration'

/**
 * Finds, reads and checks the configuration and the database settings.
 * @example
 * const { config, database } = ConfigFile.load({ path: '/etc/airlock/airlock.config.json', env: process.env })
 */
export function load(options: { path?: string | undefined; env: Env }): Settings {
  const path = locate(options.path, options.env)
  const config = read(path)
  return { config, path, database: database(options.env, config.dataDir, dirname(path)) }
}

/**
 * The database alone, for commands that need no configuration: from `DATABASE_URL` or `AIRLOCK_DATA`, else
 * from the configuration file when one is named.
 */
export function loadDatabase(options: { path?: string | undefined; env: Env }): Database {
  const named = options.path || options.env.AIRLOCK_CONFIG
  if (named) return load(options).database
  if (options.env.DATABASE_URL || options.env.AIRLOCK_DATA) return database(options.env, undefined, '.')
  throw new ConfigError(
    'No database: pass --config <airlock.config.json> (its dataDir), or set AIRLOCK_DATA (a PGlite folder) or DATABASE_URL (PostgreSQL).',
  )
}

function locate(flag: string | undefined, env: Env): string {
  const [path, from] = flag ? [flag, '--config'] : [env.AIRLOCK_CONFIG, 'AIRLOCK_CONFIG']
  if (!path)
    throw new ConfigError(
      `No configuration: pass --config <airlock.config.json> or set AIRLOCK_CONFIG (start from api/airlock.config.example.json; ${docs}).`,
    )
  const absolute = resolve(path)
  if (!existsSync(absolute))
    throw new ConfigError(
      `${from} ${path}: no such file. Point it at your airlock.config.json (start from api/airlock.config.example.json).`,
    )
  return absolute
}

/** Reads and checks one file; keys no block knows are refused, so a typo never passes for a default. */
export function read(path: string): Config.Config {
  const name = basename(path)
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ConfigError(`${name}: not readable as JSON (${(error as Error).message}); ${docs}.`)
  }
  return check(json, name)
}

/** Checks a configuration read from the file `name` (for messages). */
export function check(json: unknown, name: string): Config.Config {
  let config: Config.Config
  try {
    config = Config.parse(json)
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid Airlock API configuration: /, '')
    throw new ConfigError(`${name}: ${reason}; ${docs}.`)
  }
  const unknown = unknownKey(json, config, '')
  if (unknown !== undefined)
    throw new ConfigError(`${name}: ${unknown}: unknown key (${suggestion(unknown)}); ${docs}.`)
  return config
}

/**
 * The first key of `input` that parsing dropped: the configuration's shapes keep only the keys they name,
 * so whatever the parsed value lacks, no shape knows. `$schema` is for editors.
 */
function unknownKey(input: unknown, parsed: unknown, path: string): string | undefined {
  if (Array.isArray(input) && Array.isArray(parsed))
    return input.map((item, i) => unknownKey(item, parsed[i], `${path}[${i}]`)).find(Boolean)
  if (!isObject(input) || !isObject(parsed)) return undefined
  for (const [key, value] of Object.entries(input)) {
    const at = path ? `${path}.${key}` : key
    if (!(key in parsed) && !(path === '' && key === '$schema')) return at
    const inner = unknownKey(value, parsed[key], at)
    if (inner) return inner
  }
  return undefined
}

type SchemaNode = {
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  additionalProperties?: unknown
}

/** The key the schema has where an unknown one was written, if one is close ("rpcURL": "rpcUrl"). */
function suggestion(path: string): string {
  const segments = path.split(/\.|\[\d+\]/).filter(Boolean)
  const written = segments.pop() ?? ''
  let node: SchemaNode | undefined = schema as SchemaNode
  for (const segment of segments) {
    const map: unknown = node?.additionalProperties
    node = node?.properties?.[segment] ?? (typeof map === 'object' ? (map as SchemaNode) : undefined)
    node = node?.items ?? node
  }
  const close = Object.keys(node?.properties ?? {}).find(
    (key) => key.toLowerCase() === written.toLowerCase() || distance(key, written) <= 2,
  )
  return close ? `did you mean ${close}?` : 'misspelt, or in the wrong block?'
}

/** Levenshtein distance, for short keys. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (const [i, char] of [...a].entries()) {
    const row = [i + 1]
    for (const [j, other] of [...b].entries())
      row.push(
        Math.min(
          (previous[j + 1] ?? 0) + 1,
          (row[j] ?? 0) + 1,
          (previous[j] ?? 0) + (char === other ? 0 : 1),
        ),
      )
    previous = row
  }
  return previous[b.length] ?? 0
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function database(env: Env, dataDir: string | undefined, base: string): Database {
  if (env.DATABASE_URL) {
    if (!URL.canParse(env.DATABASE_URL) || !/^postgres(ql)?:$/.test(new URL(env.DATABASE_URL).protocol))
      throw new ConfigError(
        'DATABASE_URL: expected a PostgreSQL URL like postgres://user:password@host:5432/airlock (unset it to use PGlite).',
      )
    return { url: env.DATABASE_URL }
  }
  // The environment's folder is the shell's, so it is taken from the working directory as shells do.
  if (env.AIRLOCK_DATA) return { dataDir: dataDirOf(env.AIRLOCK_DATA, '.') }
  return { dataDir: dataDirOf(dataDir ?? defaultDataDir, base) }
}

function dataDirOf(folder: string, base: string): string {
  return folder.startsWith('memory://') ? folder : resolve(base, folder)
}
