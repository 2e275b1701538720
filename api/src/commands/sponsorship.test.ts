import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type Address, type Hex, parseEther } from 'viem'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import * as Database from '../Database.ts'
import * as Ledger from '../features/paymaster/Ledger.ts'
import { parse, UsageError } from './Args.ts'
import * as Sponsorship from './sponsorship.ts'

const cli = new URL('../cli.ts', import.meta.url).pathname
const folder = mkdtempSync(join(tmpdir(), 'airlock-sponsorship-'))
const data = join(folder, 'data')
const configPath = join(folder, 'airlock.config.json')
const chainId = 'eip155:31337'
const alice: Address = '0x00000000000000000000000000000000000a11ce'
const bob: Address = '0x0000000000000000000000000000000000000b0b'
const day = '2026-03-14'

const env = { AIRLOCK_DATA: data, DATABASE_URL: '' }

/** Runs the admin command line on this suite's configuration and PGlite folder, as an operator would. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['tsx', cli, ...args, '--config', configPath],
      {
        env: { ...process.env, ...env },
      },
    )
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: failed.stdout + failed.stderr }
  }
}

beforeAll(async () => {
  writeFileSync(
    configPath,
    JSON.stringify({
      apiUrl: 'http://127.0.0.1:8787',
      modalOrigin: 'http://127.0.0.1:5174',
      chains: [
        {
          id: chainId,
          name: 'Devnet A',
          rpcUrl: 'http://127.0.0.1:8545',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        },
      ],
      sponsorship: [
        {
          projectId: 'shop',
          budget: {
            perDay: String(parseEther('1')),
            total: String(parseEther('5')),
            perSenderPerDay: String(parseEther('0.1')),
          },
        },
      ],
    }),
  )
  // What the servers would have counted: Alice's operation included, Bob's signed and not yet seen.
  const db = await Database.open({ dataDir: data })
  const held = (sender: Address, n: number, maxCost: bigint): Ledger.Reservation => ({
    userOpHash: `0x${n.toString(16).padStart(64, '0')}` as Hex,
    chainId,
    projectId: 'shop',
    sender,
    nonce: BigInt(n),
    day: Ledger.dayOf(Date.parse(`${day}T12:00:00Z`)),
    maxCost,
    validUntil: 2_000_000_000,
  })
  const budget = { perDay: parseEther('1'), total: parseEther('5'), perSenderPerDay: parseEther('0.1') }
  const included = held(alice, 1, parseEther('0.002'))
  await Ledger.reserve(db, included, budget)
  await Ledger.reserve(db, held(bob, 2, parseEther('0.003')), budget)
  await Ledger.settle(db, chainId, { ...included, actualGasCost: parseEther('0.0005'), blockNumber: 9n })
  await db.close()
}, 60_000)

/** The command run in this process, as the command line runs it: its lines, or its usage error. */
async function lines(...words: string[]) {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  try {
    await Sponsorship.run(parse([...words, '--config', configPath], env))
    return log.mock.calls.map(([line]) => String(line))
  } finally {
    log.mockRestore()
  }
}

describe('airlock-api sponsorship spend', () => {
  it('shows a project’s spend on the day and in all, what is held, and the day’s senders, beside its budgets', async () => {
    const { code, out } = await run('sponsorship', 'spend', 'shop', '--day', day)
    expect(code).toBe(0)
    expect(out.trim().split('\n')).toEqual([
      'Sponsorship of shop, 2026-03-14 (UTC)',
      'eip155:31337 (Devnet A)',
      '  day\t0.0005 ETH of 1 ETH, 1 operation',
      '  total\t0.0005 ETH of 5 ETH, 1 operation',
      '  reserved\t0.003 ETH for signed operations not yet seen on chain',
      `  ${alice}\t0.0005 ETH of 0.1 ETH that day, 1 operation, 0 ETH reserved`,
      `  ${bob}\t0 ETH of 0.1 ETH that day, 0 operations, 0.003 ETH reserved`,
    ])
  }, 120_000)

  it('counts each day apart, and the chain asked for alone', async () => {
    const next = await lines('sponsorship', 'spend', 'shop', '--day', '2026-03-15')
    expect(next).toContain('  day\t0 ETH of 1 ETH, 0 operations')
    expect(next).toContain('  total\t0.0005 ETH of 5 ETH, 1 operation')
    expect(next.some((line) => line.includes(alice))).toBe(false)
    expect(await lines('sponsorship', 'spend', 'shop', '--day', day, '--chain', 'eip155:1')).toEqual([
      'Sponsorship of shop, 2026-03-14 (UTC)',
      '  nothing spent or held',
    ])
  }, 60_000)

  it('says so of a project the configuration does not sponsor, and refuses a call it cannot read', async () => {
    expect(await lines('sponsorship', 'spend', 'free', '--day', day)).toEqual([
      'Sponsorship of free, 2026-03-14 (UTC): not sponsored by this configuration',
      '  nothing spent or held',
    ])
    await expect(lines('sponsorship', 'spend')).rejects.toThrow(UsageError)
    await expect(lines('sponsorship', 'list', 'shop')).rejects.toThrow(UsageError)
    await expect(lines('sponsorship', 'spend', 'shop', '--day', '14/03/2026')).rejects.toThrow(
      '--day 14/03/2026: expected a UTC day, YYYY-MM-DD',
    )
  }, 60_000)
})
