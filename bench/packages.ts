/**
 * What the npm packages cost a dApp's bundle, gzipped: each package's published build (dist) bundled by
 * esbuild, minified, with what the dApp already has left out (React, wagmi, viem, and the host SDK where
 * named). The README compares them with RainbowKit's and ConnectKit's, measured the same way.
 */

import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const peers = ['react', 'react-dom', 'react/jsx-runtime', '@wagmi/core', 'viem']

async function gzipOf(contents: string, external: string[]): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    external,
    logLevel: 'silent',
  })
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length
}

/** Bytes gzipped: @airlock/react whole, with the host SDK, only <ConnectButton/> (tree-shaking), and airlock(). */
export async function packageSizes() {
  const withoutSdk = [...peers, '@airlock/host-sdk']
  return {
    reactGzipBytes: await gzipOf(`export * from '@airlock/react'`, withoutSdk),
    reactWithHostSdkGzipBytes: await gzipOf(`export * from '@airlock/react'`, peers),
    reactConnectButtonOnlyGzipBytes: await gzipOf(
      `export { ConnectButton } from '@airlock/react'`,
      withoutSdk,
    ),
    wagmiConnectorGzipBytes: await gzipOf(`export { airlock } from '@airlock/wagmi'`, withoutSdk),
  }
}
