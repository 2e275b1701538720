/**
 * Finds Litecoin Core's daemon. Debian's `/usr/bin/litecoind` is a shell wrapper that creates
 * `~/.litecoin/litecoin.conf` before exec'ing the real binary, so the real one is preferred: a dev node
 * with its own datadir should leave the home directory alone.
 */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** What to run when litecoind is missing; there is no bitcoind package in Debian. */
export const installHint = 'apt-get install -y litecoind'

const debianBinary = '/usr/lib/litecoin/litecoind'

/**
 * Absolute path of litecoind, or undefined when it is not installed. `LITECOIND_BINARY` overrides the
 * lookup (e.g. a self-built Litecoin Core).
 * @example
 * if (!LitecoindBinary.find()) console.log(`install it: ${LitecoindBinary.installHint}`)
 */
export function find(): string | undefined {
  const override = process.env.LITECOIND_BINARY
  if (override) return isExecutable(override) ? override : undefined
  const onPath = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'litecoind'))
  return [debianBinary, ...onPath].find(isExecutable)
}

/** Like {@link find}, but a missing binary is an error that says how to install it. */
export function path(): string {
  const found = find()
  if (found) return found
  const where = process.env.LITECOIND_BINARY
    ? `LITECOIND_BINARY (${process.env.LITECOIND_BINARY}) is not an executable file`
    : `litecoind is not installed (looked in ${debianBinary} and on PATH)`
  throw new Error(
    `${where}. The Bitcoin-family dev chain runs Litecoin Core in regtest mode; install it with \`${installHint}\` (Debian/Ubuntu, as root).`,
  )
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}
