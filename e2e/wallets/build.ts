/** Bundles inject.ts and its dependencies into one browser IIFE, as an extension's content script would be. */
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The IIFE assigns its exports (`install`) to this name; walletInitScript keeps it function-local. */
export const BUNDLE_GLOBAL_NAME = '__airlockWalletBundle'

const entryPoint = fileURLToPath(new URL('./inject.ts', import.meta.url))
const bufferShim = fileURLToPath(new URL('./buffer-shim.ts', import.meta.url))

export async function buildWalletBundle(): Promise<string> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: BUNDLE_GLOBAL_NAME,
    platform: 'browser',
    target: 'chrome120',
    // Whitespace/syntax only: readable identifiers keep page-side stack traces usable.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // Some dependencies probe Node globals; give them the browser equivalents.
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    inject: [bufferShim],
    logLevel: 'silent',
  })
  const output = result.outputFiles[0]
  if (!output) throw new Error('esbuild produced no output for the wallet bundle')
  return output.text
}

// `tsx e2e/wallets/build.ts` prints the bundle size, handy when a dependency bloats it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bundle = await buildWalletBundle()
  console.log(`wallet bundle: ${(bundle.length / 1024).toFixed(0)} KiB`)
}
