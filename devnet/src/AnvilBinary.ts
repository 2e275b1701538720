/**
 * Finds the anvil executable shipped by `@foundry-rs/anvil`. Its `bin.mjs` is a Node wrapper that forwards
 * only SIGINT/SIGTERM and keeps a second process alive, so we run the platform binary directly instead,
 * looking in the same places the wrapper does.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Directory suffix of `@foundry-rs/anvil-<suffix>` for each platform and CPU that foundry publishes. */
const platformSuffixes: Record<string, Record<string, string>> = {
  darwin: { x64: 'darwin-amd64', arm64: 'darwin-arm64' },
  linux: { x64: 'linux-amd64', arm64: 'linux-arm64' },
  win32: { x64: 'win32-amd64' },
}

/**
 * Absolute path of the anvil binary. `ANVIL_BINARY` overrides the lookup (e.g. a foundryup install).
 * @example
 * spawn(AnvilBinary.path(), ['--version'])
 */
export function path(): string {
  const override = process.env.ANVIL_BINARY
  if (override) return override
  const tried = candidates()
  const found = tried.find((candidate) => existsSync(candidate))
  if (found) return found
  throw new Error(
    `anvil binary not found for ${process.platform}/${process.arch}; tried:\n  ${tried.join('\n  ')}\n` +
      'Reinstall @foundry-rs/anvil (its platform package is an optional dependency) or set ANVIL_BINARY.',
  )
}

function candidates(): string[] {
  const binaryName = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  // Resolve from the wrapper package so a platform package nested under it (not hoisted) is found too.
  const wrapperJson = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json')
  const wrapperDir = dirname(wrapperJson)
  const fromPlatformPackage = platformPackageBinary(wrapperJson, binaryName)
  return [
    ...(fromPlatformPackage ? [fromPlatformPackage] : []),
    // Where the wrapper's postinstall drops a downloaded binary when the optional dependency was skipped.
    join(wrapperDir, binaryName),
    join(wrapperDir, '..', 'dist', binaryName),
  ]
}

function platformPackageBinary(wrapperJson: string, binaryName: string): string | undefined {
  const suffix = platformSuffixes[process.platform]?.[process.arch]
  if (!suffix) return undefined
  try {
    return createRequire(wrapperJson).resolve(`@foundry-rs/anvil-${suffix}/bin/${binaryName}`)
  } catch {
    return undefined
  }
}
