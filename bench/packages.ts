/**
 * What the npm packages cost a dApp, gzipped: each package's published build (dist) bundled by esbuild,
 * minified, split as a dApp's bundler splits it, with what the dApp already has left out (React, wagmi,
 * viem). `first` is what loads with the page (the entry and what it imports statically); the host SDK's
 * bridge and anything else behind `import()` loads later. The README compares them with RainbowKit's and
 * ConnectKit's, measured the same way.
 */
import { relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const peers = ['react', 'react-dom', 'react/jsx-runtime', '@wagmi/core', 'viem']

/** Gzipped bytes of the page's first load and of every chunk, for a module exporting `contents`. */
async function gzipOf(contents: string, external: string[]): Promise<{ first: number; all: number }> {
  const outdir = import.meta.dirname
  const result = await build({
    stdin: { contents, resolveDir: outdir, loader: 'ts' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  })
  const { outputs } = result.metafile
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === '<stdin>')
  const first = new Set<string>()
  const visit = (path: string | undefined) => {
    if (!path || first.has(path)) return
    first.add(path)
    for (const i of outputs[path]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(i.path)
  }
  visit(entry)
  let sizes = { first: 0, all: 0 }
  for (const file of result.outputFiles) {
    const bytes = gzipSync(file.contents, { level: 9 }).length
    // The metafile names outputs relative to the working directory.
    const loadsFirst = first.has(relative(process.cwd(), file.path))
    sizes = { first: sizes.first + (loadsFirst ? bytes : 0), all: sizes.all + bytes }
  }
  return sizes
}

/** @airlock/react alone and with the host SDK, <ConnectButton/> alone (tree-shaking), and airlock(). */
export async function packageSizes() {
  const withoutSdk = [...peers, '@airlock/host-sdk']
  const react = await gzipOf(`export * from '@airlock/react'`, withoutSdk)
  const withSdk = await gzipOf(`export * from '@airlock/react'`, peers)
  const button = await gzipOf(`export { ConnectButton } from '@airlock/react'`, withoutSdk)
  const wagmi = await gzipOf(`export { airlock } from '@airlock/wagmi'`, withoutSdk)
  const wagmiWithSdk = await gzipOf(`export { airlock } from '@airlock/wagmi'`, peers)
  return {
    reactGzipBytes: react.all,
    reactConnectButtonOnlyGzipBytes: button.all,
    reactWithHostSdkFirstLoadGzipBytes: withSdk.first,
    reactWithHostSdkAllChunksGzipBytes: withSdk.all,
    wagmiConnectorGzipBytes: wagmi.all,
    wagmiConnectorWithHostSdkFirstLoadGzipBytes: wagmiWithSdk.first,
  }
}
