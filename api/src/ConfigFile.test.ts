import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as ConfigFile from './ConfigFile.ts'

const valid = {
  apiUrl: 'https://api.example',
  modalOrigin: 'https://modal.example',
  chains: [
    {
      id: 'eip155:1',
      name: 'Ethereum',
      rpcUrl: 'https://rpc.example',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
  ],
}

/** Writes a configuration file into a folder of its own and returns its path. */
function file(content: unknown, name = 'airlock.config.json'): string {
  const folder = mkdtempSync(join(tmpdir(), 'airlock-config-'))
  const path = join(folder, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const none = { AIRLOCK_CONFIG: undefined, AIRLOCK_DATA: undefined, DATABASE_URL: undefined }

describe('ConfigFile.load', () => {
  it('keeps the data folder beside the configuration file, whatever the working directory', () => {
    const path = file(valid)
    expect(ConfigFile.load({ path, env: none }).database).toEqual({
      dataDir: join(path, '..', '.airlock-data'),
    })
    const relative = file({ ...valid, dataDir: '../state/pg' })
    expect(ConfigFile.load({ path: relative, env: none }).database).toEqual({
      dataDir: join(relative, '..', '..', 'state', 'pg'),
    })
  })

  it('takes AIRLOCK_DATA over the file, and DATABASE_URL over both', () => {
    const path = file({ ...valid, dataDir: 'ignored' })
    const data = mkdtempSync(join(tmpdir(), 'airlock-data-'))
    expect(ConfigFile.load({ path, env: { ...none, AIRLOCK_DATA: data } }).database).toEqual({
      dataDir: data,
    })
    const url = 'postgres://airlock:secret@db:5432/airlock'
    expect(ConfigFile.load({ path, env: { AIRLOCK_DATA: data, DATABASE_URL: url } }).database).toEqual({
      url,
    })
  })

  it('finds the file through AIRLOCK_CONFIG when no flag names one', () => {
    const path = file(valid)
    expect(ConfigFile.load({ env: { ...none, AIRLOCK_CONFIG: path } }).path).toBe(path)
  })

  it('names the file, the key path and what the value should be', () => {
    const chains = [valid.chains[0], { ...valid.chains[0], id: 'eip155:10', rpcUrl: 'ftp://rpc.example' }]
    expect(() => ConfigFile.load({ path: file({ ...valid, chains }), env: none })).toThrow(
      'airlock.config.json: chains[1].rpcUrl: expected an http(s) URL; see api/README.md#configuration.',
    )
    expect(() =>
      ConfigFile.load({ path: file({ ...valid, apiUrl: 'https://api.example/v1' }), env: none }),
    ).toThrow('airlock.config.json: apiUrl: expected an http(s) origin: scheme, host and port, no path')
    expect(() => ConfigFile.load({ path: file({ ...valid, chains: undefined }), env: none })).toThrow(
      'airlock.config.json: chains: expected an array',
    )
  })

  it('refuses a key no block knows, so a misspelt setting never passes for its default', () => {
    const chains = [{ ...valid.chains[0], rpcURL: 'https://rpc.example' }]
    expect(() => ConfigFile.load({ path: file({ ...valid, chains }), env: none })).toThrow(
      'airlock.config.json: chains[0].rpcURL: unknown key (did you mean rpcUrl?)',
    )
    expect(() =>
      ConfigFile.load({ path: file({ ...valid, limits: { perClient: { brust: 5 } } }), env: none }),
    ).toThrow('airlock.config.json: limits.perClient.brust: unknown key (did you mean burst?)')
    expect(() => ConfigFile.load({ path: file({ ...valid, colour: 'red' }), env: none })).toThrow(
      'airlock.config.json: colour: unknown key (misspelt, or in the wrong block?)',
    )
    const withSchema = file({ $schema: './airlock.config.schema.json', ...valid })
    expect(ConfigFile.load({ path: withSchema, env: none }).config.chains).toHaveLength(1)
  })

  it('says what to do when the file is missing, unnamed or not JSON', () => {
    expect(() => ConfigFile.load({ env: none })).toThrow(
      'No configuration: pass --config <airlock.config.json> or set AIRLOCK_CONFIG',
    )
    expect(() => ConfigFile.load({ env: { ...none, AIRLOCK_CONFIG: '/nowhere/airlock.json' } })).toThrow(
      'AIRLOCK_CONFIG /nowhere/airlock.json: no such file. Point it at your airlock.config.json',
    )
    expect(() => ConfigFile.load({ path: '/nowhere/a.json', env: none })).toThrow('--config /nowhere/a.json')
    expect(() => ConfigFile.load({ path: file('{ "apiUrl": ', 'broken.json'), env: none })).toThrow(
      'broken.json: not readable as JSON',
    )
    const folder = mkdtempSync(join(tmpdir(), 'airlock-config-'))
    mkdirSync(join(folder, 'dir.json'))
    expect(() => ConfigFile.load({ path: join(folder, 'dir.json'), env: none })).toThrow(
      'dir.json: not readable',
    )
  })

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, naming the variable', () => {
    for (const url of ['localhost:5432', 'mysql://db/airlock'])
      expect(() => ConfigFile.load({ path: file(valid), env: { ...none, DATABASE_URL: url } })).toThrow(
        'DATABASE_URL: expected a PostgreSQL URL like postgres://user:password@host:5432/airlock',
      )
  })

  it('finds the database of a command without a configuration only where the environment names one', () => {
    expect(() => ConfigFile.loadDatabase({ env: none })).toThrow(
      'No database: pass --config <airlock.config.json> (its dataDir), or set AIRLOCK_DATA',
    )
    expect(ConfigFile.loadDatabase({ env: { ...none, AIRLOCK_DATA: 'memory://' } })).toEqual({
      dataDir: 'memory://',
    })
  })
})
